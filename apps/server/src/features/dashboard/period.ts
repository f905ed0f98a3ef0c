/**
 * The dashboard's period (fromDate, toDate and inDays, any of them together) as bounds on
 * creation timestamps and on calendar days, and the day, week and month buckets of a trend.
 * Everything is UTC.
 */
import { DATE_MIN, type TrendBucket } from '@master-admin/contract';

const DAY_MS = 86_400_000;

export type PeriodQuery = { fromDate?: string; toDate?: string; inDays?: number };

/**
 * Where inDays starts, as a timestamp: N days before now, or, with toDate, the first moment of
 * the N whole days that end with toDate (never before DATE_MIN).
 */
function inDaysStart(q: PeriodQuery & { inDays: number }, now: number): string {
  if (q.toDate === undefined) return new Date(now - q.inDays * DAY_MS).toISOString();
  const first = addDays(q.toDate, 1 - q.inDays);
  return `${first < DATE_MIN ? DATE_MIN : first}T00:00:00.000Z`;
}

/** The later of the starts given (ISO strings of one form compare as text), if any. */
function latest(starts: Array<string | undefined>): string | undefined {
  return starts.reduce<string | undefined>(
    (a, b) => (a === undefined || (b !== undefined && b > a) ? b : a),
    undefined,
  );
}

/**
 * The creation-time window: every bound given applies. fromDate and toDate are whole UTC days;
 * inDays is the last N days of the period, counted back from now, or from the end of toDate.
 */
export function createdWindow(q: PeriodQuery, now = Date.now()) {
  return {
    from: latest([
      q.fromDate === undefined ? undefined : `${q.fromDate}T00:00:00.000Z`,
      q.inDays === undefined ? undefined : inDaysStart({ ...q, inDays: q.inDays }, now),
    ]),
    // The last millisecond of toDate, inclusive (timestamps are stored to the millisecond): the
    // next midnight would not be writable for 9999-12-31 (toISOString gives "+010000-…", which
    // SQLite compares as text and PostgreSQL refuses).
    to: q.toDate ? `${q.toDate}T23:59:59.999Z` : undefined,
  };
}

/**
 * The window on calendar days (downloads are recorded per day): fromDate/toDate themselves, and
 * for inDays the days from the one its window starts in (that first day whole).
 */
export function dayWindow(q: PeriodQuery, now = Date.now()) {
  return {
    from: latest([
      q.fromDate,
      q.inDays === undefined
        ? undefined
        : inDaysStart({ ...q, inDays: q.inDays }, now).slice(0, 10),
    ]),
    to: q.toDate,
  };
}

export function today(now = Date.now()): string {
  return new Date(now).toISOString().slice(0, 10);
}

function parse(day: string): Date {
  return new Date(`${day}T00:00:00.000Z`);
}
function format(d: Date): string {
  return d.toISOString().slice(0, 10);
}
export function addDays(day: string, n: number): string {
  const d = parse(day);
  d.setUTCDate(d.getUTCDate() + n);
  return format(d);
}

/** The first day of the bucket holding `day`: itself, the Monday of its week, the 1st of its month. */
export function bucketStart(bucket: TrendBucket, day: string): string {
  if (bucket === 'day') return day;
  if (bucket === 'month') return `${day.slice(0, 8)}01`;
  const weekday = (parse(day).getUTCDay() + 6) % 7; // Monday 0 … Sunday 6
  return addDays(day, -weekday);
}

/** The first day of the bucket after the one starting on `start`. */
export function nextBucket(bucket: TrendBucket, start: string): string {
  if (bucket === 'day') return addDays(start, 1);
  if (bucket === 'week') return addDays(start, 7);
  const d = parse(start);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return format(d);
}

/** The first day of the bucket `n` buckets before the one starting on `start`. */
export function bucketsBack(bucket: TrendBucket, start: string, n: number): string {
  if (bucket === 'day') return addDays(start, -n);
  if (bucket === 'week') return addDays(start, -7 * n);
  const d = parse(start);
  d.setUTCMonth(d.getUTCMonth() - n);
  return format(d);
}

/**
 * The starts of every bucket from the one holding `from` to the one holding `to`. It stops at
 * that last one rather than at a day after `to`: after 9999-12-31 there is none to compare with
 * (a date in the year 10000 is not written YYYY-MM-DD).
 */
export function bucketStarts(bucket: TrendBucket, from: string, to: string): string[] {
  const last = bucketStart(bucket, to);
  const starts = [bucketStart(bucket, from)];
  while (starts[starts.length - 1]! < last)
    starts.push(nextBucket(bucket, starts[starts.length - 1]!));
  return starts;
}

/** How many buckets the days `from`..`to` span, without listing them. */
export function bucketCount(bucket: TrendBucket, from: string, to: string): number {
  const a = parse(bucketStart(bucket, from));
  const b = parse(bucketStart(bucket, to));
  if (bucket === 'month') {
    return (b.getUTCFullYear() - a.getUTCFullYear()) * 12 + b.getUTCMonth() - a.getUTCMonth() + 1;
  }
  const days = Math.round((b.getTime() - a.getTime()) / DAY_MS);
  return (bucket === 'week' ? days / 7 : days) + 1;
}

/** The bucket a period of `days` days is read in by default: about 7 to 100 points. */
export function defaultBucket(days: number): TrendBucket {
  if (days <= 92) return 'day';
  if (days <= 730) return 'week';
  return 'month';
}

export function daysBetween(from: string, to: string): number {
  return Math.round((parse(to).getTime() - parse(from).getTime()) / DAY_MS) + 1;
}

/** Units the top lists' downloads are kept in (migration 0017): day, week, month, year. */
export type Grain = 'd' | 'w' | 'm' | 'y';

/** The first day of the unit of `grain` holding `day`. */
export function unitStart(grain: Grain, day: string): string {
  if (grain === 'y') return `${day.slice(0, 4)}-01-01`;
  return bucketStart(grain === 'd' ? 'day' : grain === 'w' ? 'week' : 'month', day);
}

/** The last day of the unit of `grain` starting on `start`. */
export function unitEnd(grain: Grain, start: string): string {
  if (grain === 'y') return `${start.slice(0, 4)}-12-31`;
  return addDays(nextBucket(grain === 'd' ? 'day' : grain === 'w' ? 'week' : 'month', start), -1);
}

export type UnitRun = { grain: Grain; first: string; last: string };

/**
 * The fewest whole units of `grains` (days always among them) that cover the days `from`..`to`,
 * as runs of consecutive units of one grain (`first`..`last` are their starts). Days before
 * `from` down to `floor`, and after `to` up to `ceiling`, may be covered too (they hold no data:
 * the period's bounds where its days were clamped to the data's), so a month or year may start
 * before the first download day or end after the last. Found by dynamic programming from the
 * last day back; a period is at most the data's days plus two years long.
 */
export function coverDays(
  from: string,
  to: string,
  grains: readonly Grain[],
  floor = from,
  ceiling = to,
): UnitRun[] {
  // Start where the longest unit holding `from` starts, if that is not before the floor.
  let lo = from;
  for (const g of grains) {
    const s = unitStart(g, from);
    if (s < lo && s >= floor) lo = s;
  }
  const n = daysBetween(lo, to);
  // The calendar of each day, walked once (no dates parsed per day: a few years of days must
  // cost well under a millisecond on the request thread).
  const first = parse(lo);
  let y = first.getUTCFullYear();
  let m = first.getUTCMonth();
  let d = first.getUTCDate();
  let weekday = (first.getUTCDay() + 6) % 7; // Monday 0
  const monthDays = (yy: number, mm: number) => new Date(Date.UTC(yy, mm + 1, 0)).getUTCDate();
  // For each day, how many days the unit of each grain starting on it spans (0: none starts).
  const spans: Record<Grain, Int32Array> = {
    d: new Int32Array(n).fill(1),
    w: new Int32Array(n),
    m: new Int32Array(n),
    y: new Int32Array(n),
  };
  let days = monthDays(y, m);
  for (let i = 0; i < n; i++) {
    if (weekday === 0) spans.w[i] = 7;
    if (d === 1) spans.m[i] = days;
    if (d === 1 && m === 0)
      spans.y[i] = (y % 4 === 0 && y % 100 !== 0) || y % 400 === 0 ? 366 : 365;
    weekday = (weekday + 1) % 7;
    if (++d > days) {
      d = 1;
      if (++m === 12) {
        m = 0;
        y += 1;
      }
      days = monthDays(y, m);
    }
  }
  // Days from the last one to `ceiling` (a unit may end there): how far past `to` units may go.
  const slack = ceiling > to ? daysBetween(to, ceiling) - 1 : 0;
  // best[i]: fewest units covering days i.. (to the end); how[i], next[i]: the first of them.
  const best = new Int32Array(n + 1);
  const how = new Array<Grain>(n);
  const next = new Int32Array(n);
  for (let i = n - 1; i >= 0; i--) {
    best[i] = best[i + 1]! + 1;
    how[i] = 'd';
    next[i] = i + 1;
    for (const g of grains) {
      const span = spans[g][i]!;
      if (g === 'd' || span === 0) continue;
      // A unit ending past `to` (within the ceiling) covers every remaining day.
      const end = i + span;
      if (end > n + slack) continue;
      const after = Math.min(end, n);
      if (best[after]! + 1 <= best[i]!) {
        best[i] = best[after]! + 1;
        how[i] = g;
        next[i] = after;
      }
    }
  }
  const runs: UnitRun[] = [];
  for (let i = 0; i < n; i = next[i]!) {
    const grain = how[i]!;
    const last = runs[runs.length - 1];
    const day = addDays(lo, i);
    if (last && last.grain === grain) last.last = day;
    else runs.push({ grain, first: day, last: day });
  }
  return runs;
}
