/**
 * CSV as list exports write it: RFC 4180 (comma-separated, CRLF line ends, a field holding a comma,
 * a quote or a line break is quoted with its quotes doubled), UTF-8 with a byte-order mark, one
 * header row, the columns being a list row's fields with nested objects flattened
 * (`masterApp.name`), and a list of objects (a staff member's details) as a column per field
 * holding the entries' values one per line.
 */
import { z } from 'zod';

/**
 * Excel opens a CSV without a byte-order mark in the machine's legacy code page (Windows-1252 on
 * most), which turns names in Indian scripts (Devanagari, Tamil, Gujarati …) into mojibake; the
 * BOM tells it the file is UTF-8. Other readers skip it.
 */
export const BOM = '\uFEFF';

/** A column: its header and where its value is in a row. */
export type CsvColumn = { header: string; path: readonly string[] };

function unwrapped(schema: z.ZodType): z.ZodType {
  let inner = schema;
  while (inner instanceof z.ZodNullable || inner instanceof z.ZodOptional) {
    inner = inner.unwrap() as z.ZodType;
  }
  return inner;
}

/**
 * The columns of rows of `schema`: its fields in order, nested objects' fields as `a.b`, and a
 * list of objects' fields as `a.b` too (its entries' values, one per line).
 */
export function csvColumns(schema: z.ZodType, prefix: readonly string[] = []): CsvColumn[] {
  let inner = unwrapped(schema);
  if (inner instanceof z.ZodArray && unwrapped(inner.element as z.ZodType) instanceof z.ZodObject) {
    inner = unwrapped(inner.element as z.ZodType);
  }
  if (!(inner instanceof z.ZodObject)) return [{ header: prefix.join('.'), path: prefix }];
  return Object.entries(inner.shape as Record<string, z.ZodType>).flatMap(([key, field]) =>
    csvColumns(field, [...prefix, key]),
  );
}

/**
 * The columns of a list's file: every field of its row (`csvColumns`) headed by its title, in
 * the titles' order, those titled null left out. Throws when the titles and the row's fields
 * differ (the contract's type says the same; this holds it at start, whatever the types).
 */
export function titledColumns(
  schema: z.ZodType,
  titles: Readonly<Record<string, string | null>>,
): CsvColumn[] {
  const fields = new Map(csvColumns(schema).map((c) => [c.header, c]));
  // A row's version is a concurrency token, not a column (contract: ColumnTitles).
  const untitled = [...fields.keys()].filter((f) => !(f in titles) && f !== 'version');
  const unknown = Object.keys(titles).filter((f) => !fields.has(f));
  if (untitled.length > 0 || unknown.length > 0) {
    throw new Error(
      `Column titles: untitled ${untitled.join(', ')}; unknown ${unknown.join(', ')}`,
    );
  }
  return Object.entries(titles).flatMap(([field, title]) =>
    title === null ? [] : [{ header: title, path: fields.get(field)!.path }],
  );
}

/**
 * A spreadsheet runs a cell starting with one of these as a formula (`=HYPERLINK(…)` sends a
 * click to any address; DDE formulas have run commands): such text gets a leading apostrophe,
 * which spreadsheets show as text and do not run (OWASP, CSV injection).
 */
const FORMULA_START = /^[=+\-@\t\r]/;

/** A value as text a spreadsheet will not run: empty for null, other values as JSON. */
function formulaSafe(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'string') return FORMULA_START.test(value) ? `'${value}` : value;
  // Numbers and booleans are the server's own values, never text someone typed.
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** One field: neutralised, and quoted when it holds a comma, a quote or a line break. */
export function csvField(value: unknown): string {
  const text = formulaSafe(value);
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

function valueAt(row: unknown, path: readonly string[]): unknown {
  let value = row;
  for (const [i, key] of path.entries()) {
    if (value === null || value === undefined) return undefined;
    if (Array.isArray(value)) {
      // A list of objects: each entry's value, one per line (each neutralised on its own), an
      // empty line for an entry without one, so the columns' lines stay aligned.
      return value.map((entry) => formulaSafe(valueAt(entry, path.slice(i)))).join('\n');
    }
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export const csvHeader = (columns: readonly CsvColumn[]) =>
  `${columns.map((c) => csvField(c.header)).join(',')}\r\n`;

/** The lines of `rows`, as one string (one write per chunk of rows). */
export function csvLines(columns: readonly CsvColumn[], rows: readonly unknown[]): string {
  let out = '';
  for (const row of rows) {
    out += `${columns.map((c) => csvField(valueAt(row, c.path))).join(',')}\r\n`;
  }
  return out;
}
