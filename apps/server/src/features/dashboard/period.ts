/**
 * The dashboard's period (fromDate/toDate or inDays) as bounds on creation timestamps and on
 * calendar days, and the day, week and month buckets of a trend. Everything is UTC.
 */
import type { TrendBucket } from '@master-admin/contract';

const DAY_MS = 86_400_000;

export type PeriodQuery = { fromDate?: string; toDate?: string; inDays?: number };

/** The creation-time window: fromDate/toDate as whole UTC days, or the last `inDays` days. */
export function createdWindow(q: PeriodQuery, now = Date.now()) {
  if (q.inDays !== undefined) {
    return { from: new Date(now - q.inDays * DAY_MS).toISOString(), to: undefined };
  }
  // The last millisecond of toDate, inclusive (timestamps are stored to the millisecond): the
  // next midnight would not be writable for 9999-12-31 (toISOString gives "+010000-…", which
  // SQLite compares as text and PostgreSQL refuses).
  return {
    from: q.fromDate ? `${q.fromDate}T00:00:00.000Z` : undefined,
    to: q.toDate ? `${q.toDate}T23:59:59.999Z` : undefined,
  };
}

/**
 * The window on calendar days (downloads are recorded per day): fromDate/toDate themselves, or
 * for inDays the days from the one the window starts in to today (that first day whole).
 */
export function dayWindow(q: PeriodQuery, now = Date.now()) {
  if (q.inDays !== undefined) {
    return { from: new Date(now - q.inDays * DAY_MS).toISOString().slice(0, 10), to: undefined };
  }
  return { from: q.fromDate, to: q.toDate };
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

/** The starts of every bucket from the one holding `from` to the one holding `to`. */
export function bucketStarts(bucket: TrendBucket, from: string, to: string): string[] {
  const starts: string[] = [];
  for (let s = bucketStart(bucket, from); s <= to; s = nextBucket(bucket, s)) starts.push(s);
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
