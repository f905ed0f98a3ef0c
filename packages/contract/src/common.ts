import { z } from 'zod';
import { STATUSES } from './enums.ts';
import {
  intWithDefault,
  optionalCalendarDate,
  optionalEnum,
  optionalText,
  pathId,
} from './fields.ts';

/** Largest page a list answers (API.md, Conventions). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 10;

/** The query every list takes; areas extend it with their filters. Unknown keys are refused. */
export const listQuery = z.strictObject({
  limit: intWithDefault(1, MAX_LIMIT, DEFAULT_LIMIT),
  offset: intWithDefault(0, 1_000_000_000, 0),
  keyword: optionalText(100),
});
export type ListQuery = z.input<typeof listQuery>;

/**
 * A list's `sort`: one of `fields` for ascending, or with a leading `-` for descending (API.md,
 * Conventions); ties are broken by id. Each field is served by an index on the server.
 */
export function sortParam<const T extends readonly [string, ...string[]]>(fields: T) {
  const values = [...fields, ...fields.map((f) => `-${f}`)] as unknown as readonly [
    T[number] | `-${T[number]}`,
    ...Array<T[number] | `-${T[number]}`>,
  ];
  return optionalEnum(values).meta({
    description: `A field to sort by, ascending; with a leading "-", descending: ${fields.join(', ')}. Ties are broken by id.`,
  });
}

/**
 * The query of a picker's choices (`category/options`, `special-day/options`): the first
 * OPTIONS_LIMIT rows by name that match `keyword`, open to every signed-in account so that areas
 * which point at those rows can fill their forms and filters.
 */
export const OPTIONS_LIMIT = 100;
export const optionsQuery = z.strictObject({ keyword: optionalText(100) });
export type OptionsQuery = z.input<typeof optionsQuery>;

/**
 * A period of whole UTC days, `fromDate` to `toDate`, both included; either may be left out.
 * `checkDateRange` refuses a toDate before fromDate, naming toDate.
 */
export const DATES_REVERSED = 'Must not be before fromDate';
export const dateRange = {
  fromDate: optionalCalendarDate.meta({ description: 'The first day (UTC), included.' }),
  toDate: optionalCalendarDate.meta({
    description: 'The last day (UTC), included; not before fromDate (400 naming toDate).',
  }),
};
export function checkDateRange(
  q: { fromDate?: string | undefined; toDate?: string | undefined },
  ctx: z.RefinementCtx,
): void {
  if (q.fromDate !== undefined && q.toDate !== undefined && q.fromDate > q.toDate) {
    ctx.addIssue({ code: 'custom', path: ['toDate'], message: DATES_REVERSED });
  }
}

/** `{ result, total }`: one page of rows and the count of every row matching the filters. */
export function listResponse<T extends z.ZodType>(row: T) {
  return z.object({ result: z.array(row), total: z.number().int().min(0) });
}
export type ListResponse<T> = { result: T[]; total: number };

/** `{ message, result }`: the answer to a create or update. */
export function mutationResponse<T extends z.ZodType>(row: T) {
  return z.object({ message: z.string(), result: row });
}

export const deleteResponse = z.object({
  message: z.string(),
  result: z.object({ id: z.number().int() }),
});

export const bulkResponse = z.object({
  message: z.string(),
  result: z.object({ ids: z.array(z.number().int()), count: z.number().int() }),
});

export const messageResponse = z.object({ message: z.string() });

/** A path that names one row by id. */
export const idParams = z.strictObject({ id: pathId });

/** A path that names an account (a user's images, wallet and history; a staff's permissions). */
export const accountIdParams = z.strictObject({ accountId: pathId });

/** A path that names the master app a new row belongs to. */
export const masterAppIdParams = z.strictObject({ masterAppId: pathId });

/** The body of every status call. */
export const statusBody = z.strictObject({
  status: z.enum(STATUSES, { error: `Must be one of ${STATUSES.join(', ')}` }),
});
export type StatusBody = z.input<typeof statusBody>;

/** The error every failing call answers. */
export const errorResponse = z.object({
  statusCode: z.number().int(),
  error: z.string(),
  message: z.string(),
  details: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
  requestId: z
    .string()
    .optional()
    .meta({ description: 'On a 5xx: the request id (X-Request-Id) its log lines carry' }),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/** `{ id, name }` of the master app a row belongs to. */
export const masterAppRef = z.object({ id: z.number().int(), name: z.string() });
