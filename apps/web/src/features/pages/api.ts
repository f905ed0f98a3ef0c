import { useQuery } from '@tanstack/react-query';
import { PAGE_SORTS, PATHS, page, pageList, pageMutation } from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';
import { defined } from '../../lib/defined';

/** Every page query starts with this key, so one invalidation refreshes lists and details. */
export const pageKeys = {
  all: ['pages'] as const,
  detail: (id: number) => [...pageKeys.all, 'detail', id] as const,
};
export const PAGE_FILTERS = ['masterAppId'] as const;

export function usePageList() {
  return useList({
    area: 'pages',
    queryKey: pageKeys.all,
    path: PATHS.pageList,
    schema: pageList,
    filters: PAGE_FILTERS,
    sorts: PAGE_SORTS,
  });
}

/** One page (the detail screen); `id` undefined when the address names no page. */
export function usePage(id: number | undefined) {
  return useQuery({
    queryKey: pageKeys.detail(id ?? 0),
    queryFn: () => api.get(PATHS.page(defined(id)), page),
    enabled: id !== undefined,
  });
}

/** Changes a page's title and text; an empty text is kept (an empty page). */
export function useUpdatePage() {
  return useApiMutation({
    mutationFn: ({
      id,
      ifMatch,
      title,
      desc,
    }: { id: number; title: string; desc: string } & Change) =>
      api.patch(PATHS.page(id), pageMutation, { title, desc }, { ifMatch }),
    invalidates: [pageKeys.all],
  });
}
