/**
 * A calendar day of a time zone as an interval of instants. The only time-zone arithmetic of the
 * coverage call, pure and Intl-based, so that it can be swapped (Temporal, a library) in one place.
 */

/** The zone of an app whose `time_zone` is null (API.md: DEFAULT_TIME_ZONE, itself default UTC). */
export const FALLBACK_TIME_ZONE = 'UTC';

const formats = new Map<string, Intl.DateTimeFormat>();
function formatOf(timeZone: string): Intl.DateTimeFormat {
  let format = formats.get(timeZone);
  if (!format) {
    format = new Intl.DateTimeFormat('en-US', {
      timeZone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(timeZone, format);
  }
  return format;
}

/** How far the zone's wall clock is ahead of UTC at `instant`, in milliseconds. */
function offsetAt(instant: number, timeZone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatOf(timeZone).formatToParts(new Date(instant))) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const wall = Date.UTC(
    parts.year!,
    parts.month! - 1,
    parts.day,
    parts.hour,
    parts.minute,
    parts.second,
  );
  return wall - Math.floor(instant / 1000) * 1000;
}

/** The first instant of the wall-clock midnight starting `date` (YYYY-MM-DD) in `timeZone`. */
function midnight(date: string, timeZone: string): number {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const wall = Date.UTC(y, m - 1, d);
  // Two passes settle the offset, also across a change of offset near midnight.
  let instant = wall - offsetAt(wall, timeZone);
  instant = wall - offsetAt(instant, timeZone);
  return instant;
}

/** The next calendar date after `date` (YYYY-MM-DD). */
export function nextDate(date: string): string {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(Date.UTC(y, m - 1, d + 1)).toISOString().slice(0, 10);
}

/**
 * The day `date` in `timeZone` (an IANA name; null or unknown: FALLBACK_TIME_ZONE) as instants
 * in ms: `start` included, `end` excluded (23 or 25 hours long on a change of offset).
 */
export function dayInZone(date: string, timeZone: string | null): { start: number; end: number } {
  const zone = timeZone && isTimeZone(timeZone) ? timeZone : FALLBACK_TIME_ZONE;
  return { start: midnight(date, zone), end: midnight(nextDate(date), zone) };
}

/** Whether Intl knows `timeZone`. */
export function isTimeZone(timeZone: string): boolean {
  try {
    formatOf(timeZone);
    return true;
  } catch {
    return false;
  }
}
