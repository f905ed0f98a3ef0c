/**
 * Values made from the OpenAPI document's JSON schemas, for checking that the document describes
 * exactly what the server accepts: `valid(schema)` is a minimal value the document allows,
 * `variants(schema)` are values at its edges (each enum value, each bound, each optional field).
 */
import { NEW_PASSWORD_DESCRIPTION } from '@master-admin/contract';

export type JsonSchema = {
  description?: string;
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  examples?: unknown[];
  format?: string;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: boolean | JsonSchema;
  anyOf?: JsonSchema[];
  allOf?: JsonSchema[];
  if?: JsonSchema;
  then?: JsonSchema;
  not?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  minProperties?: number;
  default?: unknown;
};

const STRING_CANDIDATES = [
  'a',
  '2026',
  'Alpha',
  'https://example.com/a',
  'example.com',
  'person@example.com',
  '2026-01-15',
  '9876543210',
  '1',
  // Last: for a schema taking nothing else (a blank, which means "absent").
  '',
];

/** The branch the API document adds to a field that takes a blank string (`documentBlanks`). */
export const isBlankBranch = (schema: JsonSchema) =>
  schema.type === 'string' && schema.pattern === '^\\s*$';

/**
 * A password the strength rule accepts, for the fields documented as a new password (a rule no
 * JSON schema can state). None of 8 characters exists: zxcvbn counts at most 10^8 guesses for
 * any 8 characters, short of the score 3 the rule asks, so such a field's shortest edge is left
 * out (the document says so in the field's description).
 */
const STRONG_PASSWORD = 'Quartz-Lamp-Violin-42';

export function stringFor(schema: JsonSchema, length?: number): string | undefined {
  if (schema.description === NEW_PASSWORD_DESCRIPTION) {
    if (length === undefined) return STRONG_PASSWORD;
    if (length < STRONG_PASSWORD.length) return undefined;
    return STRONG_PASSWORD + 'a'.repeat(length - STRONG_PASSWORD.length);
  }
  if (schema.format === 'date') return '2026-01-15';
  if (schema.format === 'email') return 'person@example.com';
  // The document's own examples first (a code of six digits, a token of its shape).
  const examples = (schema.examples ?? []).filter((e): e is string => typeof e === 'string');
  for (const base of [...examples, ...STRING_CANDIDATES]) {
    let value = base;
    if (length !== undefined) {
      if (length < base.length) continue;
      value = base + 'a'.repeat(length - base.length);
    }
    if (matches({ ...schema, type: 'string' }, value)) return value;
  }
  return undefined;
}

/**
 * Whether `value` satisfies the (simple) schema: enough for `not`, `if` and `anyOf`, and for
 * checking an answer against its documented schema.
 */
export function matches(schema: JsonSchema, value: unknown): boolean {
  if (schema.const !== undefined && value !== schema.const) return false;
  if (schema.enum && !schema.enum.includes(value)) return false;
  const types = schema.type === undefined ? [] : [schema.type].flat();
  if (
    types.length > 0 &&
    !types.some((t) => typeOf(value) === t || (t === 'number' && typeOf(value) === 'integer'))
  ) {
    return false;
  }
  if (typeof value === 'string') {
    if (schema.pattern && !new RegExp(schema.pattern, 'u').test(value)) return false;
    if (schema.minLength !== undefined && value.length < schema.minLength) return false;
    if (schema.maxLength !== undefined && value.length > schema.maxLength) return false;
  }
  if (typeof value === 'number') {
    if (schema.minimum !== undefined && value < schema.minimum) return false;
    if (schema.maximum !== undefined && value > schema.maximum) return false;
    if (schema.exclusiveMinimum !== undefined && value <= schema.exclusiveMinimum) return false;
  }
  if (Array.isArray(value)) {
    if (schema.minItems !== undefined && value.length < schema.minItems) return false;
    if (schema.maxItems !== undefined && value.length > schema.maxItems) return false;
    if (schema.items && !value.every((item) => matches(schema.items!, item))) return false;
  }
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    const object = value as Record<string, unknown>;
    const keys = Object.keys(object);
    if (schema.minProperties !== undefined && keys.length < schema.minProperties) return false;
    for (const key of schema.required ?? []) if (!(key in object)) return false;
    for (const [key, sub] of Object.entries(schema.properties ?? {})) {
      if (key in object && !matches(sub, object[key])) return false;
    }
    const others = keys.filter((key) => !(key in (schema.properties ?? {})));
    const rest = schema.additionalProperties;
    if (rest === false && others.length > 0) return false;
    if (typeof rest === 'object' && !others.every((key) => matches(rest, object[key]))) {
      return false;
    }
  }
  if (schema.anyOf && !schema.anyOf.some((s) => matches(s, value))) return false;
  if (schema.allOf && !schema.allOf.every((s) => matches(s, value))) return false;
  if (schema.not && matches(schema.not, value)) return false;
  if (schema.if && matches(schema.if, value) && schema.then && !matches(schema.then, value)) {
    return false;
  }
  return true;
}

function typeOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'number') return Number.isInteger(value) ? 'integer' : 'number';
  return typeof value;
}

/**
 * A minimal value the schema allows (only required properties, and `given` ones for an object),
 * or undefined when none found.
 */
export function valid(schema: JsonSchema, given: Record<string, unknown> = {}): unknown {
  if (schema.const !== undefined) return schema.const;
  if (schema.enum) return schema.enum[0];
  if (schema.anyOf) {
    for (const branch of schema.anyOf) {
      const merged =
        branch.type === undefined && schema.type
          ? {
              ...schema,
              anyOf: undefined,
              ...branch,
              properties: { ...schema.properties, ...branch.properties },
              required: [...(schema.required ?? []), ...(branch.required ?? [])],
            }
          : branch;
      const value = valid(merged, given);
      if (value !== undefined && matches(schema, value)) return value;
    }
    return undefined;
  }
  const type = [schema.type ?? 'object'].flat().find((t) => t !== 'null') ?? 'null';
  switch (type) {
    case 'null':
      return null;
    case 'boolean':
      return true;
    case 'integer':
    case 'number':
      return schema.minimum ?? 1;
    case 'string':
      return stringFor(schema);
    case 'array':
      return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () =>
        valid(schema.items ?? {}),
      );
    case 'object': {
      const object: Record<string, unknown> = { ...given };
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (key in object || !(schema.required ?? []).includes(key)) continue;
        if (sub.format === 'binary') continue;
        object[key] = valid(sub);
      }
      // Conditional requirements that apply to the value made so far.
      for (const rule of [schema, ...(schema.allOf ?? [])]) {
        if (!rule.if || !rule.then || !matches(rule.if, object)) continue;
        for (const key of rule.then.required ?? []) {
          if (key in given) continue;
          object[key] = valid({ ...schema.properties?.[key], ...rule.then.properties?.[key] });
        }
      }
      return object;
    }
  }
  return undefined;
}

/**
 * Values at the schema's edges, each with a label: every enum value, bounds, longest strings, the
 * edges of each alternative.
 */
export function edges(schema: JsonSchema): Array<[string, unknown]> {
  if (schema.anyOf) return schema.anyOf.flatMap(edges);
  const out: Array<[string, unknown]> = [];
  const type = [schema.type ?? ''].flat().find((t) => t !== 'null');
  if (schema.enum) for (const v of schema.enum) out.push([`enum ${String(v)}`, v]);
  else if (type === 'integer' || type === 'number') {
    if (schema.minimum !== undefined) out.push([`minimum ${schema.minimum}`, schema.minimum]);
    if (schema.maximum !== undefined) out.push([`maximum ${schema.maximum}`, schema.maximum]);
  } else if (type === 'string' && schema.format !== 'binary') {
    const shortest = stringFor(schema, schema.minLength);
    if (shortest !== undefined) out.push([`length ${shortest.length}`, shortest]);
    if (schema.maxLength !== undefined && schema.maxLength <= 5000) {
      const longest = stringFor(schema, schema.maxLength);
      if (longest !== undefined) out.push([`length ${schema.maxLength}`, longest]);
    }
  }
  if ([schema.type].flat().includes('null')) out.push(['null', null]);
  return out;
}
