/**
 * The one upload path. A route declares its file fields (`config.uploads`); each file part is
 * streamed to a temporary file while its size is counted and its first bytes checked, so nothing
 * is held whole in memory and a wrong or oversized file is refused before it is read to the end.
 * The same pass hashes the bytes (SHA-256), so a stored file can be named by its content without
 * reading it again. It hashes on the request thread, chunk by chunk: a thread of its own cost more
 * than it saved (for 500 MB, a copy and a message per 1 MB block took ~0.3 s of this thread, as
 * much as hashing here, and its heap ~85 MB of memory; measured with `npm run bench`).
 * Handlers then take the checked upload with `upload(request, field)` and store it with
 * `MediaService.saveImage` or `saveVideo`. Temporary files are removed when the response is sent.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { Transform } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { MultipartFile } from '@fastify/multipart';
import { z } from 'zod';
import { HttpError, invalidField } from '../http/errors.ts';
import { restartDeadline } from '../http/deadline.ts';
import { PartUnavailable, diskFull } from '../http/parts.ts';
import { checkPathAndQuery } from '../http/validation.ts';
import { sniffImage, type ImageKind } from './images.ts';
import { sniffVideo, type VideoFormat } from './videos.ts';

export type UploadKind = 'image' | 'video';

export type Upload = {
  field: string;
  /** The temporary file holding the upload. */
  path: string;
  size: number;
  kind: UploadKind;
  /** What the leading bytes announce (an image kind, a video format), once they are checked. */
  format: ImageKind | VideoFormat | undefined;
  /** SHA-256 of the bytes, lower-case hex, computed while they streamed in. */
  hash: string;
};

/** A file field: its kind, required unless `optional`. */
export type UploadSpec = UploadKind | { kind: UploadKind; optional: true };
const kindOf = (spec: UploadSpec): UploadKind => (typeof spec === 'string' ? spec : spec.kind);

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The multipart file fields this route takes, and what each must be. */
    uploads?: Record<string, UploadSpec>;
    /**
     * The body is JSON only (it holds a list of objects, which a form cannot carry): the document
     * says so, and any other body type answers 415.
     */
    jsonBody?: boolean;
  }
  interface FastifyRequest {
    uploads: Map<string, Upload> | undefined;
  }
}

/** What each kind's leading bytes must announce; the first 16 bytes are enough for every kind. */
const SNIFF: Record<UploadKind, (head: Buffer) => ImageKind | VideoFormat | undefined> = {
  image: sniffImage,
  video: sniffVideo,
};
const HEAD_BYTES = 16;
/**
 * Received bytes are written to the temporary file in batches of up to this size (one writev each)
 * rather than a system call per network chunk: about 1.4x the throughput on a large video.
 */
const WRITE_BUFFER_BYTES = 1024 * 1024;

const ACCEPTED: Record<UploadKind, string> = {
  image: 'Only JPEG, PNG, WebP or GIF images are accepted',
  video: 'Only MP4, WebM or QuickTime videos are accepted',
};

/** What a file field takes, as the API document says it. */
const DESCRIBED: Record<UploadKind, string> = {
  image: 'An image: JPEG, PNG, WebP or GIF, checked by content (SVG is refused)',
  video: 'A video: MP4, WebM or QuickTime, checked by content',
};

const megabytes = (bytes: number) => `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB`;

/** A body that ended early or is not multipart after all: the client's doing, a 400. */
const MALFORMED = 'The multipart body is malformed or incomplete';

/**
 * Reads multipart bodies: the route's path and query are checked first (so a bad id is refused
 * before a file byte is read), then each part in turn: fields make the body, file parts stream
 * to temporary files in `tmpDir` (`receive`). A body that breaks off or is malformed is a 400,
 * never a 500; one the client stopped sending is logged as the client's doing.
 * `limits` are the largest file of each kind in bytes; `onReceived` hears of the bytes each file
 * part brought (metrics), accepted or not.
 */
export function registerUploads(
  app: FastifyInstance,
  options: {
    limits: Record<UploadKind, number>;
    tmpDir: string;
    onReceived: (kind: UploadKind, bytes: number) => void;
  },
) {
  const { limits, tmpDir } = options;
  app.decorateRequest('uploads', undefined);
  // A route that takes only files takes no other field: one sent is refused, naming it.
  app.addHook('onRoute', (route) => {
    if (route.config?.uploads && !route.schema?.body) {
      route.schema = { ...route.schema, body: z.strictObject({}) };
    }
  });
  app.addHook('onClose', async () => fs.rmSync(tmpDir, { recursive: true, force: true }));

  const cleanup = async (request: FastifyRequest) => {
    if (!request.uploads) return;
    await Promise.all(
      [...request.uploads.values()].map((u) => fs.promises.rm(u.path, { force: true })),
    );
    request.uploads = undefined;
  };
  app.addHook('onResponse', cleanup);
  app.addHook('onRequestAbort', cleanup);

  app.addHook('preValidation', async (request) => {
    const type = request.headers['content-type'];
    if (request.routeOptions.config.jsonBody && type && !/^application\/json\b/i.test(type)) {
      throw new HttpError(415, 'This call takes a JSON body (application/json)');
    }
    if (!request.isMultipart()) return;
    checkPathAndQuery(request);
    const body: Record<string, unknown> = {};
    try {
      for await (const part of request.parts()) {
        if (part.type === 'file') {
          await receive(request, part);
          continue;
        }
        if (part.valueTruncated) {
          throw new HttpError(413, `${part.fieldname}: The value is too large`, {
            details: [{ path: part.fieldname, message: 'The value is too large' }],
          });
        }
        const before = body[part.fieldname];
        body[part.fieldname] =
          before === undefined
            ? part.value
            : Array.isArray(before)
              ? [...(before as unknown[]), part.value]
              : [before, part.value];
      }
    } catch (err) {
      throw multipartError(request, err);
    }
    request.body = body;
    // The time the client took to send the files is not the server's: its deadline starts now.
    restartDeadline();
  });

  function multipartError(request: FastifyRequest, err: unknown): unknown {
    // Our own refusals, and the parser's limits (parts, files, fields), carry their 4xx already.
    if (err instanceof HttpError || err instanceof PartUnavailable) return err;
    // The temporary file could not be written: the server's doing, a 503, not a bad body.
    if (diskFull(err)) return new PartUnavailable('disk', err);
    const status = (err as { statusCode?: number }).statusCode;
    if (typeof status === 'number' && status >= 400 && status < 500) return err;
    if (request.raw.readableAborted || request.raw.socket?.destroyed) {
      request.log.info({ url: request.url }, 'upload stopped by the client');
      return new HttpError(400, 'The upload was stopped before it ended');
    }
    return new HttpError(400, MALFORMED);
  }

  async function receive(request: FastifyRequest, part: MultipartFile) {
    const field = part.fieldname;
    const spec = request.routeOptions.config.uploads?.[field];
    if (!spec) {
      part.file.resume();
      throw new HttpError(400, `${field}: Files are not accepted here`, {
        details: [{ path: field, message: 'Files are not accepted here' }],
      });
    }
    if (request.uploads?.has(field)) {
      part.file.resume();
      throw invalidField(field, 'Send one file');
    }
    const kind = kindOf(spec);
    const limit = limits[kind];
    const file = path.join(tmpDir, randomBytes(12).toString('hex'));
    const uploads = (request.uploads ??= new Map());
    // Registered before writing, so the temporary file is removed whatever happens next.
    const upload: Upload = { field, path: file, size: 0, kind, format: undefined, hash: '' };
    uploads.set(field, upload);

    const sniff = SNIFF[kind];
    const hash = createHash('sha256');
    let head = Buffer.alloc(0);
    let checked = false;
    /** Whether `head` is of an accepted type; notes the type on the upload. */
    const accepted = () => {
      upload.format = sniff(head);
      return upload.format !== undefined;
    };
    const check = new Transform({
      transform(chunk: Buffer, _encoding, done) {
        upload.size += chunk.length;
        if (upload.size > limit) {
          done(
            new HttpError(413, `${field}: The file is too large (at most ${megabytes(limit)})`, {
              details: [
                { path: field, message: `The file is too large (at most ${megabytes(limit)})` },
              ],
            }),
          );
          return;
        }
        if (!checked) {
          head = Buffer.concat([head, chunk]);
          if (head.length >= HEAD_BYTES) {
            checked = true;
            if (!accepted()) {
              done(unsupported(field, kind));
              return;
            }
          }
        }
        hash.update(chunk);
        done(null, chunk);
      },
      flush(done) {
        if (!checked && !accepted()) {
          done(
            upload.size === 0 ? invalidField(field, 'The file is empty') : unsupported(field, kind),
          );
          return;
        }
        upload.hash = hash.digest('hex');
        done();
      },
    });
    try {
      await pipeline(
        part.file,
        check,
        fs.createWriteStream(file, { flags: 'wx', mode: 0o600, highWaterMark: WRITE_BUFFER_BYTES }),
      );
    } catch (err) {
      part.file.resume();
      throw err;
    } finally {
      options.onReceived(kind, upload.size);
    }
    if (part.file.truncated) {
      throw new HttpError(413, `${field}: The file is too large (at most ${megabytes(limit)})`);
    }
  }
}

function unsupported(field: string, kind: UploadKind) {
  return new HttpError(415, `${field}: ${ACCEPTED[kind]}`, {
    details: [{ path: field, message: ACCEPTED[kind] }],
  });
}

/** The checked upload in `field`; a 400 naming the field when a required one is missing. */
export function upload(request: FastifyRequest, field: string, required: true): Upload;
export function upload(
  request: FastifyRequest,
  field: string,
  required?: false,
): Upload | undefined;
export function upload(request: FastifyRequest, field: string, required = false) {
  const found = request.uploads?.get(field);
  if (!found && required) throw invalidField(field, 'Required: attach a file');
  return found;
}

type JsonSchemaObject = {
  type?: string;
  properties?: Record<string, unknown>;
  required?: string[];
  anyOf?: object[];
};

const BODY_TYPES = ['application/json', 'application/x-www-form-urlencoded'] as const;

/**
 * The route's OpenAPI schema with its request body as the server takes it: every body route
 * takes JSON, form-encoded and multipart bodies (API.md), and file fields only come in a
 * multipart body, so a route that needs a file takes nothing else. (The body schema validates
 * only the other fields: files never reach it.) Each file field says what it takes, that it may
 * not be empty and, given the `limits` of each kind in bytes, how large it may be.
 */
export function documentBody<T extends { consumes?: readonly string[]; body?: unknown }>(
  schema: T,
  uploads: Record<string, UploadSpec> | undefined,
  limits?: Partial<Record<UploadKind, number>>,
  jsonBody = false,
): T {
  if (!schema.body && !uploads) return schema;
  if (jsonBody) {
    const { consumes: _consumes, ...rest } = schema;
    return { ...rest, body: { content: { 'application/json': { schema: schema.body } } } } as T;
  }
  const body = (schema.body ?? { type: 'object', properties: {} }) as JsonSchemaObject;
  const files = Object.entries(uploads ?? {});
  const multipart: JsonSchemaObject = {
    ...body,
    type: 'object',
    properties: {
      ...body.properties,
      ...Object.fromEntries(
        files.map(([field, spec]) => [
          field,
          {
            type: 'string',
            format: 'binary',
            // An empty part is refused ("The file is empty", `receive`).
            minLength: 1,
            description: describeFile(kindOf(spec), limits?.[kindOf(spec)]),
          },
        ]),
      ),
    },
  };
  const requiredFiles = files.filter(([, spec]) => typeof spec === 'string').map(([f]) => f);
  if (requiredFiles.length > 0) {
    multipart.required = [...(body.required ?? []), ...requiredFiles];
  }
  // "At least one of these fields": an optional file is one more way to give something.
  if (body.anyOf) {
    const optionalFiles = files.filter(([, spec]) => typeof spec !== 'string').map(([f]) => f);
    multipart.anyOf = [...body.anyOf, ...optionalFiles.map((f) => ({ required: [f] }))];
  }
  const content: Record<string, { schema: unknown }> = {};
  if (requiredFiles.length === 0) for (const type of BODY_TYPES) content[type] = { schema: body };
  content['multipart/form-data'] = { schema: multipart };
  const { consumes: _consumes, ...rest } = schema;
  return { ...rest, body: { content } } as T;
}

function describeFile(kind: UploadKind, limit: number | undefined): string {
  const size = limit === undefined ? 'not empty' : `not empty, at most ${megabytes(limit)}`;
  return `${DESCRIBED[kind]}; ${size}`;
}
