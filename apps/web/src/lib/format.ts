import dayjs from 'dayjs';
import { MONTH_NAMES } from '@master-admin/contract';

/** A timestamp as staff read it: 21 Nov 2026, 14:05 (local time). */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('D MMM YYYY, HH:mm') : '—';
}

/** A calendar date (YYYY-MM-DD) as staff read it: 21 Nov 2026. */
export function formatDate(date: string | null | undefined): string {
  return date ? dayjs(date).format('D MMM YYYY') : '—';
}

/**
 * A whole number with thousands separators: 1,234,567. Grouped by hand because the first
 * `toLocaleString` of a page loads the number-formatting data, a cost paid on the first render.
 */
export function formatNumber(n: number): string {
  if (!Number.isSafeInteger(n)) return n.toLocaleString('en-US');
  return String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

/** A special day's date: "14 Jan", or "14 Jan 2027" once a year is set. */
export function formatDayMonth(d: { day: number; month: number; year?: number | null }): string {
  const month = MONTH_NAMES[d.month - 1]?.slice(0, 3) ?? `Month ${d.month}`;
  return d.year === null || d.year === undefined
    ? `${d.day} ${month}`
    : `${d.day} ${month} ${d.year}`;
}

/** A size in bytes as people read it: 512 B, 12.3 KB, 120.5 MB, 1.2 GB (1 KB = 1024 bytes). */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  const units = ['KB', 'MB', 'GB', 'TB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit += 1;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * How long ago a moment was, as said in a sentence: "a moment ago", "2 minutes ago", "3 hours
 * ago", then the date and time ("on 21 Nov 2026, 14:05") past a day.
 */
export function formatAgo(iso: string, now = Date.now()): string {
  const seconds = Math.max(0, Math.round((now - new Date(iso).getTime()) / 1000));
  if (seconds < 45) return 'a moment ago';
  const minutes = Math.round(seconds / 60);
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.round(minutes / 60);
  if (hours < 24) return `${hours} hour${hours === 1 ? '' : 's'} ago`;
  return `on ${formatDateTime(iso)}`;
}

/**
 * A `mailto:` link to `email`. An address may hold `?`, `&`, `#` or `%` (`a?cc=b@c.io` is one
 * address), which in a link would start its headers or fragment: each part is percent-encoded.
 */
export function mailtoHref(email: string): string {
  const at = email.lastIndexOf('@');
  if (at < 0) return `mailto:${encodeURIComponent(email)}`;
  return `mailto:${encodeURIComponent(email.slice(0, at))}@${encodeURIComponent(email.slice(at + 1))}`;
}
