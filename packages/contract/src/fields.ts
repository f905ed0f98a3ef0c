/**
 * Field schemas shared by the server's validation and the web app's forms.
 *
 * Form-encoded and multipart bodies (and every query string) carry strings, while JSON carries
 * numbers and booleans: each field accepts both, and an empty string for an optional field means
 * "absent" (API.md, Conventions).
 */
import toRegexRange from 'to-regex-range';
import { z } from 'zod';

/** Largest id a PostgreSQL `integer` column holds; larger ids can never exist. */
export const MAX_ID = 2_147_483_647;

const WHOLE_NUMBER = /^\s*[+-]?\d+\s*$/;

const isBlank = (value: unknown) => typeof value === 'string' && value.trim() === '';
const blankToUndefined = (value: unknown) => (isBlank(value) ? undefined : value);

/**
 * The mark of a field that takes a blank string (empty, or white space only), with what the blank
 * means. JSON Schema cannot say "after trimming", so the server's API document turns the mark into
 * an alternative the field's schema offers (a string matching `^\s*$`).
 */
export const BLANK_TAKEN = 'x-blank-taken';
const ABSENT_WHEN_BLANK = { [BLANK_TAKEN]: 'as if left out' };
const CLEARED_WHEN_BLANK = { [BLANK_TAKEN]: 'clears the value' };

/** `schema`, optional: a blank string counts as absent. */
export function blankAsAbsent<T extends z.ZodType>(schema: T) {
  return z.preprocess(blankToUndefined, schema.optional()).meta(ABSENT_WHEN_BLANK);
}

/** `schema`, or null to clear the value: a blank string counts as null. */
export function blankAsNull<T extends z.ZodType>(schema: T) {
  return z.preprocess((v) => (isBlank(v) ? null : v), schema.nullable()).meta(CLEARED_WHEN_BLANK);
}

function toWholeNumber(value: unknown): unknown {
  const v = blankToUndefined(value);
  return typeof v === 'string' && WHOLE_NUMBER.test(v) ? Number(v) : v;
}

function toBoolean(value: unknown): unknown {
  const v = blankToUndefined(value);
  if (v === 'true' || v === '1') return true;
  if (v === 'false' || v === '0') return false;
  return v;
}

const wholeNumber = (min: number, max: number) =>
  z
    .number({ error: 'Must be a whole number' })
    .int({ error: 'Must be a whole number' })
    .min(min, { error: `Must be at least ${min}` })
    .max(max, { error: `Must be at most ${max}` });

/** A whole number within [min, max]; numeric strings are accepted. */
export function int(min: number, max: number) {
  return z.preprocess(toWholeNumber, wholeNumber(min, max));
}

/** An optional whole number; an empty string counts as absent. */
export function optionalInt(min: number, max: number) {
  return z.preprocess(toWholeNumber, wholeNumber(min, max).optional()).meta(ABSENT_WHEN_BLANK);
}

/** A whole number with a default when absent or empty. */
export function intWithDefault(min: number, max: number, fallback: number) {
  return z
    .preprocess(toWholeNumber, wholeNumber(min, max).default(fallback))
    .meta(ABSENT_WHEN_BLANK);
}

/** A row id: a positive integer. */
export const id = int(1, MAX_ID);

/**
 * A whole number in a path, written as digits only without leading zeros (`7`, not `07`, `+7`
 * or `7 `), so one row has one URL. One pattern says it all, so the API document states the
 * range exactly.
 */
export function pathInt(min: number, max: number) {
  const pattern = new RegExp(`^${digitsPattern(min, max)}$`);
  return z
    .string()
    .regex(pattern, { error: `Must be a whole number from ${min} to ${max}, in digits only` })
    .transform(Number);
}

/** A regular expression's group matching the numbers min..max in digits, without leading zeros. */
export function digitsPattern(min: number, max: number): string {
  return `(?:${toRegexRange(min, max)})`;
}

/** A row id in a path. */
export const pathId = pathInt(1, MAX_ID);
export const optionalId = optionalInt(1, MAX_ID);

/** A boolean; "true"/"false" and "1"/"0" are accepted. */
export const bool = z.preprocess(toBoolean, z.boolean({ error: 'Must be true or false' }));

/**
 * Control characters (C0, DEL, C1) are refused in text: they print as nothing, break exports and
 * logs, and are never typed on purpose. Multi-line text keeps tab and newline, and its carriage
 * returns (which browsers send before each newline) become plain newlines.
 */
export const NO_CONTROL_CHARACTERS = 'Must not contain control characters';
// eslint-disable-next-line no-control-regex -- matching control characters is the point
const SINGLE_LINE = /^[^\u0000-\u001f\u007f-\u009f]*$/;
// eslint-disable-next-line no-control-regex -- as above
const MULTI_LINE = /^[^\u0000-\u0008\u000b\u000c\u000e-\u001f\u007f-\u009f]*$/;
const toNewlines = (value: string) => value.replace(/\r\n?/g, '\n');

export type TextOptions = {
  /** Tab, newline and carriage return allowed (the latter read as a newline). */
  multiline?: boolean;
  /** A pattern the (trimmed) text must match, with the message when it does not. */
  pattern?: { regex: RegExp; message: string };
};

/** A string without control characters (see above), untrimmed, of at most `max` characters. */
export function plainText(max: number, options: TextOptions = {}) {
  const schema = z
    .string({ error: 'Required' })
    .regex(options.multiline ? MULTI_LINE : SINGLE_LINE, { error: NO_CONTROL_CHARACTERS });
  return (options.multiline ? schema.overwrite(toNewlines) : schema).max(max, {
    error: `Must be at most ${max} characters`,
  });
}

/** A required, trimmed, non-empty string of at most `max` characters. */
export function text(max: number, options: TextOptions = {}) {
  const schema = z
    .string({ error: 'Required' })
    .regex(options.multiline ? MULTI_LINE : SINGLE_LINE, { error: NO_CONTROL_CHARACTERS })
    .trim();
  // Something besides white space, said as a pattern so the API document states it. A blank
  // value is "Required" and nothing more (not also "not an email address").
  const checked = (options.multiline ? schema.overwrite(toNewlines) : schema)
    .regex(/\S/, { error: 'Required', abort: true })
    .max(max, { error: `Must be at most ${max} characters` });
  return options.pattern
    ? checked.regex(options.pattern.regex, { error: options.pattern.message })
    : checked;
}

/** An optional trimmed string; an empty string counts as absent. */
export function optionalText(max: number, options: TextOptions = {}) {
  const schema = z
    .string({ error: 'Must be text' })
    .regex(options.multiline ? MULTI_LINE : SINGLE_LINE, { error: NO_CONTROL_CHARACTERS })
    .trim();
  const checked = (options.multiline ? schema.overwrite(toNewlines) : schema).max(max, {
    error: `Must be at most ${max} characters`,
  });
  return blankAsAbsent(
    options.pattern
      ? checked.regex(options.pattern.regex, { error: options.pattern.message })
      : checked,
  );
}

/**
 * An email address as the server takes it (a back-office account's, a contact message's): a
 * dot-atom local part (letters, digits and !#$%&'*+/=?^_`{|}~- between single dots, RFC 5322)
 * at a domain of two or more labels (letters, digits and inner hyphens, at most 63 each). This is
 * what RFC 5321 calls a mailbox, less its rare forms: a quoted local part, an address literal
 * (`[1.2.3.4]`) and a domain of one label. The API document states the pattern beside
 * `format: email`, so a client reading either takes no address the server refuses.
 */
export const EMAIL_ADDRESS =
  /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?\.)+[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?$/;
export const EMAIL_MESSAGE = 'Must be an email address';

/** A required email address (EMAIL_ADDRESS) of at most `max` characters, trimmed. */
export function emailAddress(max: number) {
  return text(max, { pattern: { regex: EMAIL_ADDRESS, message: EMAIL_MESSAGE } }).meta({
    format: 'email',
  });
}

/** An enumeration value; an empty string counts as absent when optional. */
export function optionalEnum<const T extends readonly [string, ...string[]]>(values: T) {
  return blankAsAbsent(z.enum(values, { error: `Must be one of ${values.join(', ')}` }));
}

/** The first and last day a date may be (API.md, Operations): years 1000 to 9999. */
export const DATE_MIN = '1000-01-01';
export const DATE_MAX = '9999-12-31';
export const DATE_MESSAGE = `Must be a real date written YYYY-MM-DD, from ${DATE_MIN} to ${DATE_MAX}`;

// A real day of a year 1000..9999: each month's length, and 29 February in leap years only (a
// year ending 04, 08 … 96, or a century divisible by 400). One pattern, so the API document states
// exactly what is taken; `\d` is an ASCII digit, in JavaScript as in JSON Schema.
const DATE_PATTERN =
  /^(?:[1-9]\d{3}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|(?:[1-9]\d(?:0[48]|[2468][048]|[13579][26])|(?:[13579][26]|[2468][048])00)-02-29)$/;

/** A calendar date YYYY-MM-DD: a real day (no 30 February) from DATE_MIN to DATE_MAX. */
export const calendarDate = z
  .string({ error: DATE_MESSAGE })
  .regex(DATE_PATTERN, { error: DATE_MESSAGE })
  .meta({ format: 'date' });

/** An optional calendar date; an empty string counts as absent. */
export const optionalCalendarDate = blankAsAbsent(calendarDate);

/** An ISO-8601 timestamp as the server writes it (UTC). */
export const timestamp = z.string();
