import type { z } from 'zod';
import { BLANK_TAKEN, errorResponse } from '@master-admin/contract';

/** A route's answers: `schema` on success, the error shape otherwise (validated and documented). */
export function answers<T extends z.ZodType>(schema: T) {
  return { 200: schema, '4xx': errorResponse, '5xx': errorResponse } as const;
}

type JsonObject = { [key: string]: unknown };

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
