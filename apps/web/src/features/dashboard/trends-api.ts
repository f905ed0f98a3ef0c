import { useQuery } from '@tanstack/react-query';
import {
  PATHS,
  dashboardSpecialDays,
  dashboardTop,
  dashboardTrend,
  type TrendBucket,
} from '@master-admin/contract';
import { api } from '../../lib/api';

export type PeriodFilters = Record<'fromDate' | 'toDate' | 'inDays' | 'masterAppId', string>;

export function useTrend(filters: PeriodFilters, bucket: TrendBucket | undefined) {
  const params = { ...filters, bucket: bucket ?? '' };
  return useQuery({
    queryKey: ['dashboard', 'trends', params],
    queryFn: () => api.get(PATHS.dashboardTrends, dashboardTrend, params),
  });
}

export function useTop(filters: PeriodFilters) {
  return useQuery({
    queryKey: ['dashboard', 'top', filters],
    queryFn: () => api.get(PATHS.dashboardTop, dashboardTop, filters),
  });
}

export function useUpcomingSpecialDays(masterAppId: string) {
  return useQuery({
    queryKey: ['dashboard', 'special-days', masterAppId],
    queryFn: () => api.get(PATHS.dashboardSpecialDays, dashboardSpecialDays, { masterAppId }),
  });
}

/** A path with its query, leaving out empty values. */
export function hrefTo(path: string, params: Record<string, string | number | undefined>): string {
  const search = new URLSearchParams();
  for (const [k, v] of Object.entries(params))
    if (v !== undefined && v !== '') search.set(k, String(v));
  const q = search.toString();
  return q ? `${path}?${q}` : path;
}
