/**
 * The one list pattern. Page, page size, keyword, filters and sort live in the URL, so a reload, a
 * shared link or the back button shows the same list; the rows come from the server through
 * TanStack Query, keyed by those parameters.
 */
import { useCallback, useMemo } from 'react';
import { useSearchParams } from 'react-router';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { PATHS, type EventArea, type ListResponse } from '@master-admin/contract';
import { api, type Values } from './api';
import { useLiveList } from './live-list';

export const PAGE_SIZES = [10, 20, 50, 100] as const;
/** Rows per page unless the URL says otherwise: a screenful on a laptop. */
export const DEFAULT_PAGE_SIZE = 20;

function positiveInt(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value)) return undefined;
  const n = Number(value);
  return n >= 1 ? n : undefined;
}

/**
 * Reads and writes list parameters in the URL: `page`, `limit`, `q`, `sort` (one of `sorts`, or
 * `-` and one of them for descending) and the named filters.
 */
export function useListParams<F extends string>(
  filterNames: readonly F[],
  sorts: readonly string[] = [],
  /**
   * Put before every parameter's name in the URL, so that several lists on one screen (a user's
   * wallet and login history) keep their own page, keyword and filters.
   */
  prefix = '',
) {
  const [rawSearch, setSearch] = useSearchParams();
  const search = { get: (name: string) => rawSearch.get(`${prefix}${name}`) };
  const page = positiveInt(search.get('page')) ?? 1;
  const requested = positiveInt(search.get('limit')) ?? 0;
  const limit = (PAGE_SIZES as readonly number[]).includes(requested)
    ? requested
    : DEFAULT_PAGE_SIZE;
  const keyword = search.get('q') ?? '';
  const requestedSort = search.get('sort') ?? '';
  // A sort the area does not allow (an old link) is dropped rather than sent to a 400.
  const sort = sorts.includes(requestedSort.replace(/^-/, '')) ? requestedSort : '';
  const filterKey = filterNames.map((n) => `${n}=${search.get(n) ?? ''}`).join('&');
  const filters = useMemo(
    () => Object.fromEntries(filterNames.map((n) => [n, search.get(n) ?? ''])) as Record<F, string>,
    // filterKey captures every filter value.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [filterKey],
  );

  /** Changes some parameters; any change but the page itself goes back to page 1. */
  const update = useCallback(
    (changes: Record<string, string | number | undefined>, options: { replace?: boolean } = {}) => {
      setSearch(
        (prev) => {
          const next = new URLSearchParams(prev);
          for (const [key, value] of Object.entries(changes)) {
            if (value === undefined || value === '') next.delete(`${prefix}${key}`);
            else next.set(`${prefix}${key}`, String(value));
          }
          if (!('page' in changes)) next.delete(`${prefix}page`);
          if (next.get(`${prefix}page`) === '1') next.delete(`${prefix}page`);
          return next;
        },
        { replace: options.replace ?? false },
      );
    },
    [setSearch, prefix],
  );

  return {
    page,
    limit,
    keyword,
    filters,
    sort,
    sorts,
    offset: (page - 1) * limit,
    setPage: (p: number) => update({ page: p }),
    setLimit: (l: number) => update({ limit: l === DEFAULT_PAGE_SIZE ? undefined : l }),
    /** `field` ascending, `-field` descending, '' for the area's default order. */
    setSort: (value: string) => update({ sort: value }),
    setKeyword: (q: string) => update({ q: q.trim() }, { replace: true }),
    setFilter: (name: F, value: string | undefined) => update({ [name]: value }),
    setFilters: (values: Partial<Record<F, string | undefined>>) => update(values),
    clear: () =>
      update(
        Object.fromEntries([['q', undefined], ...filterNames.map((n) => [n, undefined])]) as Record<
          string,
          undefined
        >,
      ),
  };
}

export type ListParams<F extends string = string> = ReturnType<typeof useListParams<F>>;

/**
 * The cursor of each page reached from the page before it (its `nextCursor`), per list, search
 * and page size: Next and Previous then read by cursor. The lists seen last are kept.
 */
const pageCursors = new Map<string, Map<number, string>>();
const KEPT_LISTS = 50;
function rememberCursor(listKey: string, page: number, cursor: string) {
  let pages = pageCursors.get(listKey);
  if (pages) pageCursors.delete(listKey);
  else pages = new Map();
  pageCursors.set(listKey, pages.set(page, cursor));
  const oldest = pageCursors.keys().next().value;
  if (pageCursors.size > KEPT_LISTS && oldest !== undefined) pageCursors.delete(oldest);
}

/**
 * A server list: `queryKey` names the area (mutations invalidate it), `path` and `row` the call
 * and its row schema. A failed load shows no rows and a total of 0 (spec §4).
 */
export function useList<F extends string, S extends z.ZodType<ListResponse<unknown>>>(options: {
  queryKey: readonly unknown[];
  path: string;
  schema: S;
  filters?: readonly F[];
  /** The fields the server may sort this list by (the contract's `*_SORTS`). */
  sorts?: readonly string[];
  /** Before the list's parameter names in the URL (useListParams), when a screen has several. */
  prefix?: string;
  /** Values every request carries, whatever the URL says (a kind of image, a side …). */
  fixed?: Record<string, string | number>;
  /**
   * The area's menu name: the list follows the changes others make there (lib/live-list.ts),
   * and shows who edits which row.
   */
  area?: EventArea;
}) {
  type Row = z.output<S>['result'][number];
  const params = useListParams<F>(options.filters ?? [], options.sorts, options.prefix);
  const search = {
    keyword: params.keyword,
    sort: params.sort,
    ...params.filters,
    ...options.fixed,
  };
  // The page after one already shown follows its cursor (it costs what page 1 costs, and rows
  // added above meanwhile do not shift it); a page reached otherwise (a link, a page number)
  // is read by offset.
  const listKey = JSON.stringify([options.path, search, params.limit]);
  const cursor = params.page > 1 ? pageCursors.get(listKey)?.get(params.page) : undefined;
  const query = {
    limit: params.limit,
    ...(cursor === undefined ? { offset: params.offset } : { cursor }),
    ...search,
  };
  const queryKey = [...options.queryKey, 'list', query];
  const page = params.page;
  const fetchPage = async () => {
    const answer = await api.get(options.path, options.schema, query);
    if (answer.nextCursor !== null) rememberCursor(listKey, page + 1, answer.nextCursor);
    return answer;
  };
  const result = useQuery({ queryKey, queryFn: fetchPage, placeholderData: keepPreviousData });
  // The list's CSV export: the same filters, keyword and sort, every row (no paging).
  const exported = search;
  const live = useLiveList({
    area: options.area,
    queryKey: options.queryKey,
    listKey: JSON.stringify(exported),
    pageKey: JSON.stringify(query),
    fullKey: queryKey,
    fetchPage,
    page: params.page,
    setPage: params.setPage,
    result,
  });
  return {
    params: {
      ...params,
      live,
      totalEstimated: !result.isError && result.data?.totalEstimated === true,
      download: { path: PATHS.listExport(options.path), query: exported as Values },
      // The same rows, for a bulk action on every row that matches (lib/bulk.ts).
      matching: { path: options.path, query: exported as Values },
    },
    query: result,
    rows: (result.isError ? [] : (result.data?.result ?? [])) as Row[],
    total: result.isError ? 0 : (result.data?.total ?? 0),
  };
}
