import { z } from 'zod';
import { BLANK_TAKEN, errorResponse, version, versionConflict } from '@master-admin/contract';

/** A row a conflict names whose shape the answer does not say (a delete's, a bulk call's). */
const someRow = z.looseObject({ id: z.number().int(), version });

/**
 * A route's answers: `schema` on success, the error shape otherwise (validated and documented).
 * A change (an answer with a `message`) may also answer API.md's version conflict: a 409
 * with the row as it is now (its `result`'s shape when that is a row with a version). Typed as
 * the error shape it extends, so a handler's answer stays checked against `schema`.
 */
export function answers<T extends z.ZodType>(
  schema: T,
): { 200: T; 409: typeof errorResponse; '4xx': typeof errorResponse; '5xx': typeof errorResponse } {
  const shape = schema instanceof z.ZodObject ? schema.shape : {};
  const result: unknown = 'result' in shape ? shape.result : undefined;
  let conflict = errorResponse;
  if ('message' in shape) {
    const row = result instanceof z.ZodObject && 'version' in result.shape ? result : someRow;
    conflict = versionConflict(row);
  }
  return { 200: schema, 409: conflict, '4xx': errorResponse, '5xx': errorResponse };
}

type JsonObject = { [key: string]: unknown };

/** What every route that declares `config.recentProof` adds to its description. */
export const RECENT_PROOF_NOTE =
  'Needs a recent proof of presence (API.md "Proof of presence"): the session signed in, or ' +
  'proved again with `POST auth/reauth`, within REAUTH_WINDOW_SECONDS (300 s by default); ' +
  'otherwise 403 with `reauth: true` and nothing changes.';

/** The route's schema, its description saying that it needs a recent proof when it does. */
export function documentRecentProof<T>(schema: T, recentProof: true | undefined): T {
  if (!recentProof || schema === null || typeof schema !== 'object') return schema;
  const { description } = schema as JsonObject;
  const text = typeof description === 'string' && description ? `${description}\n\n` : '';
  return { ...schema, description: `${text}${RECENT_PROOF_NOTE}` };
}

/**
 * The route's JSON schemas with each field the contract marks as taking a blank string
 * (`BLANK_TAKEN`: an empty value counts as absent, or clears the value) documented as taking one:
 * its own schema, or a string of white space only. Annotations stay on the field.
 */
export function documentBlanks<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(documentBlanks) as T;
  if (schema === null || typeof schema !== 'object') return schema;
  const node: JsonObject = Object.fromEntries(
    Object.entries(schema).map(([key, value]) => [key, documentBlanks(value)]),
  );
  if (!(BLANK_TAKEN in node)) return node as T;
  const { [BLANK_TAKEN]: meaning, description, default: fallback, ...own } = node;
  const alternatives =
    Object.keys(own).length === 1 && Array.isArray(own.anyOf) ? (own.anyOf as unknown[]) : [own];
  return {
    ...(description === undefined ? {} : { description }),
    ...(fallback === undefined ? {} : { default: fallback }),
    anyOf: [
      ...alternatives,
      {
        type: 'string',
        pattern: '^\\s*$',
        description: `Blank (empty, or white space only): ${String(meaning)}`,
      },
    ],
  } as T;
}

/**
 * The answers of a route that produces something other than JSON (an image, an event stream,
 * metrics text) as the server sends them: its successes in the route's `produces` types, its
 * errors as the JSON every error is. Left alone, the API document would list every answer, the
 * errors too, in the `produces` types.
 */
export function documentAnswerTypes<T extends { produces?: readonly string[]; response?: unknown }>(
  schema: T,
): T {
  const { produces, response } = schema;
  if (!produces || !response || typeof response !== 'object') return schema;
  const documented = Object.fromEntries(
    Object.entries(response).map(([status, answer]) => {
      const { description, ...own } = answer as JsonObject;
      const types = status.startsWith('2') ? produces : ['application/json'];
      return [
        status,
        {
          ...(description === undefined ? {} : { description }),
          content: Object.fromEntries(types.map((type) => [type, { schema: own }])),
        },
      ];
    }),
  );
  return { ...schema, response: documented };
}
