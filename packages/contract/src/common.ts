import { z } from 'zod';
import { STATUSES } from './enums.ts';
import {
  MAX_ID,
  digitsPattern,
  intWithDefault,
  optionalCalendarDate,
  optionalEnum,
  optionalText,
  pathId,
  timestamp,
} from './fields.ts';

/** Largest page a list answers (API.md, Conventions). */
export const MAX_LIMIT = 100;
export const DEFAULT_LIMIT = 10;

/**
 * A page's position in its list, as the page before answered it (`nextCursor`): opaque, signed by
 * the server for that list and order.
 */
export const CURSOR_PATTERN = /^[A-Za-z0-9_-]{1,1000}\.[A-Za-z0-9_-]{22}$/;
export const cursorParam = optionalText(1023, {
  pattern: { regex: CURSOR_PATTERN, message: 'Must be a nextCursor this list answered' },
}).meta({
  description:
    'The page after the one that answered this `nextCursor` (same filters, keyword and sort); ' +
    'costs what the first page costs at any depth. Not with an offset.',
});

/** The query every list takes; areas extend it with their filters. Unknown keys are refused. */
export const listQuery = z.strictObject({
  limit: intWithDefault(1, MAX_LIMIT, DEFAULT_LIMIT),
  offset: intWithDefault(0, 1_000_000_000, 0),
  cursor: cursorParam,
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

/**
 * `{ result, total, nextCursor }`: one page of rows, the count of every row matching the filters,
 * and the cursor of the page after it (null when this page is the last). A keyword matching more
 * than 10,000 rows has its total estimated, to two significant figures: `totalEstimated` says so.
 */
export function listResponse<T extends z.ZodType>(row: T) {
  return z.object({
    result: z.array(row),
    total: z.number().int().min(0),
    totalEstimated: z
      .literal(true)
      .optional()
      .meta({
        description:
          'Present when `total` is an estimate: a keyword matching more than 10,000 rows is ' +
          'counted to there, then estimated from its matches among the newest 10,000 rows of the ' +
          'filters (two significant figures, never 10,000 or less).',
      }),
    nextCursor: z.string().nullable(),
  });
}
export type ListResponse<T> = {
  result: T[];
  total: number;
  totalEstimated?: true;
  nextCursor: string | null;
};

/** `{ result, total }`: a picker's choices (the first OPTIONS_LIMIT) and how many match. */
export function optionsResponse<T extends z.ZodType>(row: T) {
  return z.object({ result: z.array(row), total: z.number().int().min(0) });
}

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

/**
 * A row's version (API.md, "Versions"): a positive whole number that every change of the row
 * moves. Single-row GETs answer it as `ETag: "<version>"`; change calls take it back as
 * `If-Match: "<version>"`.
 */
export const version = z.number().int().positive();

const VERSION_DIGITS = digitsPattern(1, MAX_ID);
/**
 * `If-Match` as a change of one row takes it: the version as the ETag gave it (`"3"`), the same
 * marked weak (`W/"3"`: a proxy that compresses answers may weaken the ETag it passes on) or bare
 * (`3`), or `*` (any version: nothing is checked); white space around it is ignored. One pattern,
 * the range of versions included, so the API document states exactly what is taken.
 */
export const IF_MATCH = new RegExp(
  `^\\s*(?:\\*|(?:W/)?"(${VERSION_DIGITS})"|(${VERSION_DIGITS}))\\s*$`,
);

/**
 * `Idempotency-Key` as every change call takes it (API.md "Operations"): 1 to 128 printable ASCII
 * characters, spaces allowed inside but not at either end (HTTP would strip them in transit). The
 * web app sends a UUID.
 */
export const IDEMPOTENCY_KEY = /^[!-~](?:[ -~]{0,126}[!-~])?$/;

/**
 * A bulk call's optional `versions`: for some or all of its ids, the version the caller read
 * (`{ "<id>": <version> }`, JSON bodies only). Any row whose version moved since → 409 naming
 * every stale id, and nothing changes.
 */
export const bulkVersions = z
  .record(
    z.string().regex(/^[1-9]\d{0,9}$/, { error: 'Keys must be ids' }),
    z.number({ error: 'Must be a version' }).int({ error: 'Must be a version' }).positive({
      error: 'Must be a version',
    }),
    { error: 'Must be an object of id: version' },
  )
  .optional();

/** A bulk body's check that `versions` names only ids the call acts on. */
export function checkVersionIds(
  body: { ids: readonly number[]; versions?: Record<string, number> | undefined },
  ctx: z.RefinementCtx,
): void {
  if (!body.versions) return;
  const ids = new Set(body.ids.map(String));
  const strangers = Object.keys(body.versions).filter((key) => !ids.has(key));
  if (strangers.length > 0) {
    ctx.addIssue({
      code: 'custom',
      path: ['versions'],
      message: `Names ids the call does not act on: ${strangers.join(', ')}`,
    });
  }
}

/** Who made a row's latest change (from the audit log); null when unknown (a script, a seed). */
export const changedBy = z.object({ id: z.number().int(), name: z.string() }).nullable();
export type ChangedBy = z.infer<typeof changedBy>;

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
  reauth: z
    .literal(true)
    .optional()
    .meta({
      description:
        'On a 403: the change needs a recent proof of presence (`POST auth/reauth`); prove, then ' +
        'send the same call again',
    }),
});
export type ErrorResponse = z.infer<typeof errorResponse>;

/**
 * The 409 of a change based on a stale version (API.md, "Versions"): the row as it is now, who
 * changed it last and when. A bulk call's: `stale` names every stale id and `current` holds those
 * rows. A 409 for a taken unique value has none of these keys.
 */
export function versionConflict<T extends z.ZodType>(row: T) {
  return errorResponse
    .extend({
      current: z
        .union([row, z.array(row)])
        .nullable()
        .optional()
        .meta({
          description: 'The row as it is now (null: deleted since); a bulk call: its stale rows',
        }),
      changedBy: changedBy
        .optional()
        .meta({ description: 'Who made the row’s latest change (null when the log has none)' }),
      changedAt: timestamp.nullable().optional().meta({ description: 'When' }),
      stale: z
        .array(z.number().int())
        .optional()
        .meta({ description: 'A bulk call: every id whose version moved' }),
    })
    .meta({
      description:
        'A conflict. A change based on a stale version (If-Match, or a bulk call’s `versions`) ' +
        'answers the keys below and changes nothing; a taken unique value answers the error ' +
        'alone, as does a request whose Idempotency-Key is still being answered (with ' +
        'Retry-After) or whose change was made without its answer kept.',
    });
}
export type VersionConflict<T> = ErrorResponse & {
  current?: T | T[];
  changedBy?: ChangedBy;
  changedAt?: string | null;
  stale?: number[];
};

/** `{ id, name }` of the master app a row belongs to. */
export const masterAppRef = z.object({ id: z.number().int(), name: z.string() });
