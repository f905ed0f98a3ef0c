/**
 * What the dashboard's charts draw besides the numbers: even steps on a value axis, and which
 * period is still under way (issue #35). Plain functions, outside the charts' chunk, so the cards'
 * tables use them too.
 */
import type { TrendBucket } from '@master-admin/contract';

/** Steps a value axis may take, per power of ten: "6,000" reads better than "5,000" for 24,000. */
const STEPS = [1, 1.5, 2, 2.5, 3, 4, 5, 6, 8, 10];

/**
 * Ticks from 0 past `max` in even steps, at most four intervals: 24,000 → 0, 6,000, 12,000,
 * 18,000, 24,000. Recharts' own ticks, fitted to the labels' widths, dropped one and left
 * 0 / 6,000 / 12,000 / 24,000.
 */
export function evenTicks(max: number): number[] {
  if (!(max > 0)) return [0, 1];
  const raw = max / 4;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = (STEPS.find((s) => s * power >= raw - 1e-9) ?? 10) * power;
  const count = Math.ceil(max / step - 1e-9);
  return Array.from({ length: count + 1 }, (_, i) => Math.round(i * step * 1e6) / 1e6);
}

/** The last day of the bucket that starts on `start` (YYYY-MM-DD, UTC). */
function bucketEnd(bucket: TrendBucket, start: string): string {
  const date = new Date(`${start}T00:00:00Z`);
  if (bucket === 'week') date.setUTCDate(date.getUTCDate() + 6);
  if (bucket === 'month') date.setUTCMonth(date.getUTCMonth() + 1, 0);
  return date.toISOString().slice(0, 10);
}

/**
 * Whether the bucket starting on `start` is still under way on `today` (UTC, as the buckets are):
 * its numbers are so far, not the whole period's, and the charts draw it so rather than as a drop.
 */
export function underWay(
  bucket: TrendBucket,
  start: string,
  today = new Date().toISOString().slice(0, 10),
): boolean {
  return start <= today && today <= bucketEnd(bucket, start);
}
