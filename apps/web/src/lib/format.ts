import dayjs from 'dayjs';

/** A timestamp as staff read it: 21 Nov 2026, 14:05 (local time). */
export function formatDateTime(iso: string | null | undefined): string {
  return iso ? dayjs(iso).format('D MMM YYYY, HH:mm') : '—';
}

/** A calendar date (YYYY-MM-DD) as staff read it: 21 Nov 2026. */
export function formatDate(date: string | null | undefined): string {
  return date ? dayjs(date).format('D MMM YYYY') : '—';
}

export function formatNumber(n: number): string {
  return n.toLocaleString('en-US');
}
