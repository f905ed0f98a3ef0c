import { useQuery } from '@tanstack/react-query';
import { PATHS, auditList, type AuditArea } from '@master-admin/contract';
import { api } from '../../lib/api';
import { useList } from '../../lib/list';
import { defined } from '../../lib/defined';

/** Every mutation of the app writes an entry: the log is read fresh whenever it is shown. */
export const auditKeys = { all: ['audit'] as const };

export const AUDIT_FILTERS = ['accountId', 'area', 'rowId', 'fromDate', 'toDate'] as const;

export function useAuditList() {
  return useList({
    queryKey: auditKeys.all,
    path: PATHS.auditList,
    schema: auditList,
    filters: AUDIT_FILTERS,
  });
}

/** HISTORY_LIMIT entries of one row, newest first. */
export const HISTORY_LIMIT = 100;

export function useRowHistory(target: { area: AuditArea; id: number } | undefined) {
  return useQuery({
    queryKey: [...auditKeys.all, 'history', target?.area, target?.id],
    queryFn: () =>
      api.get(PATHS.auditHistory(defined(target).area, defined(target).id), auditList, {
        limit: HISTORY_LIMIT,
      }),
    enabled: target !== undefined,
    staleTime: 0,
  });
}
