/**
 * Schedules and time zones (API.md, "Planning festivals"): a master app's IANA time zone, and the
 * window (`liveFrom`, `liveUntil`) in which an ACTIVE poster, video or banner is live. Pure
 * functions on Intl only (no library), shared by the server and the web app.
 */
import { z } from 'zod';
import { NO_CONTROL_CHARACTERS, blankAsAbsent, blankAsNull, optionalEnum } from './fields.ts';

/** The zone a master app without one of its own follows when the server is not told another. */
export const FALLBACK_TIME_ZONE = 'UTC';

// An IANA name: letters first, then letters, digits, `_`, `+`, `-`, by `/` (Intl alone also takes
// offsets such as "+05:30", which are not zone names).
const ZONE_NAME = /^[A-Za-z][A-Za-z0-9_+-]*(?:\/[A-Za-z0-9_+-]+)*$/;

/** The zone's canonical spelling ("asia/kolkata" → "Asia/Kolkata"), or undefined for no zone. */
export function canonicalTimeZone(name: string): string | undefined {
  if (name.length > 64 || !ZONE_NAME.test(name)) return undefined;
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: name }).resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

export const TIME_ZONE_MESSAGE = 'Must be an IANA time zone name, such as Asia/Kolkata or UTC';

/** An IANA time zone name (Intl must know it). */
export const timeZoneName = z
  .string({ error: TIME_ZONE_MESSAGE })
  // eslint-disable-next-line no-control-regex -- matching control characters is the point
  .regex(/^[^\u0000-\u001f\u007f-\u009f]*$/, { error: NO_CONTROL_CHARACTERS, abort: true })
  .refine((v) => canonicalTimeZone(v) !== undefined, { error: TIME_ZONE_MESSAGE })
  .meta({ examples: ['Asia/Kolkata', 'UTC'] });

export const DATE_TIME_MESSAGE =
  'Must be an ISO 8601 date-time with its offset, such as 2026-11-01T00:00:00+05:30';

// YYYY-MM-DDTHH:MM[:SS[.fff]] and Z or ±HH:MM: a moment, never a wall-clock time of no zone.
const DATE_TIME =
  /^\d{4}-(?:0[1-9]|1[0-2])-(?:0[1-9]|[12]\d|3[01])T(?:[01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d{1,9})?)?(?:Z|[+-](?:[01]\d|2[0-3]):[0-5]\d)$/;

/** Whether `value` names a real moment (the pattern, and no 31 April). */
function isDateTime(value: string): boolean {
  if (!DATE_TIME.test(value)) return false;
  const at = Date.parse(value);
  if (Number.isNaN(at)) return false;
  // Date.parse rolls 2026-02-30 over into March: the day written must be the day read back.
  const [y, m, d] = value.slice(0, 10).split('-').map(Number) as [number, number, number];
  const probe = new Date(Date.UTC(y, m - 1, d));
  return probe.getUTCMonth() === m - 1 && probe.getUTCDate() === d;
}

/** An ISO 8601 date-time with its offset (`Z` or `±HH:MM`). */
export const dateTime = z
  .string({ error: DATE_TIME_MESSAGE })
  .regex(DATE_TIME, { error: DATE_TIME_MESSAGE, abort: true })
  .refine(isDateTime, { error: DATE_TIME_MESSAGE })
  .meta({ format: 'date-time', examples: ['2026-11-01T00:00:00+05:30'] });

export const LIVE_UNTIL_MESSAGE = 'Must be after “Live from”';

/** `liveUntil` after `liveFrom` when both are given. */
function windowRule(
  body: { liveFrom?: string | null | undefined; liveUntil?: string | null | undefined },
  ctx: z.RefinementCtx,
) {
  if (!body.liveFrom || !body.liveUntil) return;
  if (Date.parse(body.liveUntil) <= Date.parse(body.liveFrom)) {
    ctx.addIssue({ code: 'custom', path: ['liveUntil'], message: LIVE_UNTIL_MESSAGE });
  }
}

/** A create's optional window (blank = open). */
export const scheduleFields = {
  liveFrom: blankAsAbsent(dateTime),
  liveUntil: blankAsAbsent(dateTime),
};
/** `windowRule` for a body holding `scheduleFields`. */
export const checkWindow = windowRule;

/**
 * The body of a schedule change: the whole window, each end a date-time, or null, blank or left
 * out for open.
 */
export const scheduleBody = z
  .strictObject({
    liveFrom: blankAsNull(dateTime).optional(),
    liveUntil: blankAsNull(dateTime).optional(),
  })
  .superRefine(windowRule);
export type ScheduleBody = z.input<typeof scheduleBody>;

/** A row's window as answers show it (UTC instants; null = open). */
export const windowFields = {
  liveFrom: z.string().nullable(),
  liveUntil: z.string().nullable(),
};

/**
 * A list's `live` filter. now: ACTIVE and inside the window; scheduled: the window opens later;
 * expired: the window has closed. scheduled and expired are about the window alone, whatever the
 * status (a status filter narrows them: `status=ACTIVE&live=scheduled` goes live by itself).
 */
export const LIVE_STATES = ['now', 'scheduled', 'expired'] as const;
export type LiveState = (typeof LIVE_STATES)[number];
export const liveParam = optionalEnum(LIVE_STATES);

/** Where a row stands at `at`: live, scheduled, expired, or off (not ACTIVE, window open now). */
export function liveStateOf(
  row: { status: string; liveFrom: string | null; liveUntil: string | null },
  at: number = Date.now(),
): 'live' | 'scheduled' | 'expired' | 'off' {
  if (row.liveFrom !== null && Date.parse(row.liveFrom) > at) return 'scheduled';
  if (row.liveUntil !== null && Date.parse(row.liveUntil) <= at) return 'expired';
  return row.status === 'ACTIVE' ? 'live' : 'off';
}

/** The normalised instant of a date-time as the server stores it (UTC, milliseconds). */
export function toInstant(value: string): string {
  return new Date(value).toISOString();
}

// ---- Wall-clock times in a zone ------------------------------------------------------------

const formatters = new Map<string, Intl.DateTimeFormat>();
function formatter(zone: string): Intl.DateTimeFormat {
  let f = formatters.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    formatters.set(zone, f);
  }
  return f;
}

/** The wall clock in `zone` at instant `ms`, read as if it were UTC (ms). */
function wallAsUtc(zone: string, ms: number): number {
  const parts: Record<string, number> = {};
  for (const p of formatter(zone).formatToParts(ms)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  return Date.UTC(parts.year!, parts.month! - 1, parts.day, parts.hour, parts.minute, parts.second);
}

/** `zone`'s offset from UTC at instant `ms`, in ms (Asia/Kolkata: +19,800,000). */
export function zoneOffsetMs(zone: string, ms: number): number {
  const whole = Math.floor(ms / 1000) * 1000;
  return wallAsUtc(zone, whole) - whole;
}

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})(?:T(\d{2}):(\d{2})(?::(\d{2}))?)?$/;

/**
 * The instant (ISO, UTC) at which the wall clock in `zone` reads `local` (`YYYY-MM-DD` for its
 * midnight, or `YYYY-MM-DDTHH:MM[:SS]`). A time skipped by a clock change is read with the offset
 * before it (02:30 on a spring-forward night is 03:30); a repeated one, as its first occurrence.
 */
export function zonedToInstant(local: string, zone: string): string {
  const m = LOCAL.exec(local);
  if (!m) throw new Error(`Not a local date-time: ${local}`);
  const asUtc = Date.UTC(+m[1]!, +m[2]! - 1, +m[3]!, +(m[4] ?? 0), +(m[5] ?? 0), +(m[6] ?? 0));
  // The offsets an hour either side: the first that reads back as `local` wins (the earlier one
  // for a repeated hour); a skipped hour matches neither and takes the offset before the change.
  const guess = asUtc - zoneOffsetMs(zone, asUtc);
  const before = asUtc - zoneOffsetMs(zone, guess - 3_600_000);
  const after = asUtc - zoneOffsetMs(zone, guess + 3_600_000);
  const at = [before, after].find((t) => wallAsUtc(zone, t) === asUtc) ?? before;
  return new Date(at).toISOString();
}

/** The wall clock in `zone` at `instant`, as `YYYY-MM-DDTHH:MM` (a datetime-local input's value). */
export function instantToZoned(instant: string | number, zone: string): string {
  const ms = typeof instant === 'number' ? instant : Date.parse(instant);
  return new Date(wallAsUtc(zone, ms)).toISOString().slice(0, 16);
}

/**
 * The local calendar day `date` (`YYYY-MM-DD`) in `zone` as its [start, end) UTC instants: from
 * its midnight to the next day's (23 or 25 hours on a clock-change day).
 */
export function zonedDayRange(date: string, zone: string): { start: string; end: string } {
  // Ten Intl reads a day: the plan asks for 90 days of every app on each call (45 ms of one
  // core's time at five apps, measured), always the same days. Zone rules do not change while a
  // process runs.
  const key = `${zone} ${date}`;
  let range = dayRanges.get(key);
  if (range === undefined) {
    if (dayRanges.size >= DAY_RANGES_KEPT) dayRanges.clear();
    range = dayRangeOf(date, zone);
    dayRanges.set(key, range);
  }
  return range;
}
const dayRanges = new Map<string, { start: string; end: string }>();
const DAY_RANGES_KEPT = 20_000;

function dayRangeOf(date: string, zone: string): { start: string; end: string } {
  const start = zonedToInstant(date, zone);
  const next = new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString();
  // After 9999-12-31 an ISO date has six year digits (+010000-01-01): that last day is 24 hours.
  const end = next.startsWith('+')
    ? new Date(Date.parse(start) + 86_400_000).toISOString()
    : zonedToInstant(next.slice(0, 10), zone);
  return { start, end };
}

/** Every zone Intl knows, for a time-zone select (UTC first). */
export function timeZoneNames(): string[] {
  const names =
    typeof Intl.supportedValuesOf === 'function' ? Intl.supportedValuesOf('timeZone') : [];
  return [FALLBACK_TIME_ZONE, ...names.filter((n) => n !== FALLBACK_TIME_ZONE)];
}
