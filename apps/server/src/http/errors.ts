/**
 * The one error path. Every failure answers API.md's shape
 * `{ statusCode, error, message, details? }`; nothing internal (stack, SQL) ever leaves the server.
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { MESSAGES, type ErrorResponse } from '@master-admin/contract';
import { isTransactionConflict } from '../db/dialect.ts';
import { databaseUnavailable } from './parts.ts';

export type ErrorDetail = { path: string; message: string };

export class HttpError extends Error {
  readonly statusCode: number;
  readonly details: ErrorDetail[] | undefined;
  readonly headers: Record<string, string>;
  /** Keys the answer adds to the error shape (a version conflict's `current`, http/versions.ts). */
  readonly extra: Record<string, unknown>;
  constructor(
    statusCode: number,
    message: string,
    options: {
      details?: ErrorDetail[];
      headers?: Record<string, string>;
      extra?: Record<string, unknown>;
    } = {},
  ) {
    super(message);
    this.statusCode = statusCode;
    this.details = options.details;
    this.headers = options.headers ?? {};
    this.extra = options.extra ?? {};
  }

  /** The error as answered; one that must read the database first says so (http/versions.ts). */
  describe(_request: FastifyRequest): Promise<HttpError> {
    return Promise.resolve(this);
  }
}

/** A 400 naming the field: the same shape a schema failure gives. */
export const invalidField = (path: string, message: string) =>
  new HttpError(400, `${path}: ${message}`, { details: [{ path, message }] });
export const unauthorized = (message: string = MESSAGES.notSignedIn) => new HttpError(401, message);
export const forbidden = (message: string = MESSAGES.accessDenied) => new HttpError(403, message);
export const notFound = (message: string = MESSAGES.notFound) => new HttpError(404, message);
/** A 409; `field` names the form field whose value is taken, so a form can mark it. */
export const conflict = (message: string, field?: string) =>
  new HttpError(409, message, field ? { details: [{ path: field, message }] } : {});
export const tooManyRequests = (message: string, retryAfterSeconds: number) =>
  new HttpError(429, message, { headers: { 'retry-after': String(retryAfterSeconds) } });

export function errorBody(statusCode: number, message: string, details?: ErrorDetail[]) {
  const body: ErrorResponse = {
    statusCode,
    error: STATUS_CODES[statusCode] ?? 'Error',
    message,
  };
  if (details) body.details = details;
  return body;
}

type ZodIssueLike = {
  instancePath: string;
  message?: string;
  keyword: string;
  params: Record<string, unknown>;
};

/** Turns schema issues into `details`, one per field; unknown keys are named one by one. */
function validationDetails(issues: ZodIssueLike[], context: string | undefined): ErrorDetail[] {
  const details: ErrorDetail[] = [];
  for (const issue of issues) {
    const base = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
    if (issue.keyword === 'unrecognized_keys' && Array.isArray(issue.params.keys)) {
      for (const key of issue.params.keys as string[]) {
        details.push({ path: base ? `${base}.${key}` : key, message: 'Unknown field' });
      }
      continue;
    }
    let message = issue.message ?? 'Invalid value';
    if (/received undefined/.test(message)) message = 'Required';
    details.push({ path: base || (context ?? 'body'), message });
  }
  return details;
}

const FASTIFY_STATUS: Record<string, [number, string]> = {
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, MESSAGES.unsupportedMediaType],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, MESSAGES.tooLarge],
  FST_REQ_FILE_TOO_LARGE: [413, MESSAGES.tooLarge],
  FST_FILES_LIMIT: [413, 'Too many files in the request'],
  FST_FIELDS_LIMIT: [413, 'Too many fields in the request'],
  FST_PARTS_LIMIT: [413, 'Too many parts in the request'],
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'The JSON body is empty'],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'The JSON body is malformed'],
  FST_INVALID_MULTIPART_CONTENT_TYPE: [415, MESSAGES.unsupportedMediaType],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'The Content-Length header does not match the body'],
};

export async function handleError(
  this: FastifyInstance,
  thrown: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  let err = thrown;
  // A list call that failed before its access check was read (a bad query, say): a caller who
  // may not make it learns that, not what else was wrong.
  try {
    await this.settleDeferredAccess(request);
  } catch (refusal) {
    err = refusal as FastifyError;
  }
  // A stale change says what the row is now: read once its transaction has rolled back.
  const described = err instanceof HttpError ? await err.describe(request) : err;
  const body = failure(described as FastifyError, request, reply);
  // What an operator needs to find the request's log lines.
  if (body.statusCode >= 500) body.requestId = request.id;
  // Every 503 says when to try again (API.md, Operations).
  if (body.statusCode === 503 && !reply.hasHeader('retry-after'))
    void reply.header('retry-after', '5');
  return reply.code(body.statusCode).send(body);
}

function failure(err: FastifyError, request: FastifyRequest, reply: FastifyReply): ErrorResponse {
  if (err instanceof HttpError) {
    void reply.headers(err.headers);
    return { ...errorBody(err.statusCode, err.message, err.details), ...err.extra };
  }
  if (hasZodFastifySchemaValidationErrors(err)) {
    const details = validationDetails(err.validation, err.validationContext);
    const message = details.map((d) => `${d.path}: ${d.message}`).join('; ');
    return errorBody(400, message || MESSAGES.validationFailed, details);
  }
  const known = err.code ? FASTIFY_STATUS[err.code] : undefined;
  if (known) return errorBody(known[0], known[1]);
  if (err instanceof SyntaxError && err.statusCode === 400) {
    return errorBody(400, 'The request body is malformed');
  }
  const status = err.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    // A client error raised by Fastify or a plugin: its message speaks of the request only.
    return errorBody(status, err.message);
  }
  // A part that does not answer (database, Redis, bucket, disk): 503, never 500 (API.md).
  const unavailable = databaseUnavailable(err);
  if (unavailable) {
    request.log.warn(
      { err: unavailable.cause ?? unavailable, part: unavailable.part },
      'request failed: a part does not answer',
    );
    void reply.header('retry-after', String(unavailable.retryAfterSeconds));
    return errorBody(503, unavailable.message);
  }
  request.log.error({ err }, 'request failed');
  if (isTransactionConflict(err)) {
    // Still in conflict after the transaction helper's retries (db/transaction.ts): rare, and
    // the same call a moment later is likely to succeed.
    void reply.header('retry-after', '1');
    return errorBody(503, MESSAGES.databaseBusy);
  }
  const code = status === 503 ? 503 : 500;
  return errorBody(code, code === 503 ? MESSAGES.serviceUnavailable : MESSAGES.internalError);
}
