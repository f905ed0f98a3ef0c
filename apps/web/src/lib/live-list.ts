/**
 * An open list that follows what others do (issue 23 part 3), for useList: a row on the page that
 * someone changed is fetched again quietly and updated in place (the rows stay, no overlay, no
 * jump); new rows are announced ("3 new posters: Show") rather than pushed in; deleted rows are
 * marked until the next fetch; rows being edited name their editors. The account's own doings are
 * left out: its own screen refetches after its own changes.
 */
import { useEffect, useRef, useState } from 'react';
import { useQueryClient, type QueryClient } from '@tanstack/react-query';
import type { EventAccount, EventArea } from '@master-admin/contract';
import { events, useChangeEvents, usePresenceMap, useResync, useStreamState } from './events';

/** How a list's area names its rows in the announcement: one, several. */
export const AREA_NOUNS: Record<EventArea, readonly [string, string]> = {
  poster: ['poster', 'posters'],
  video: ['video', 'videos'],
  category: ['category', 'categories'],
  users: ['user', 'users'],
  banner: ['banner', 'banners'],
  blogs: ['blog', 'blogs'],
  pages: ['page', 'pages'],
  faqs: ['FAQ', 'FAQs'],
  specialDay: ['special day', 'special days'],
  settings: ['setting', 'settings'],
  notification: ['notification', 'notifications'],
  masterApp: ['master app', 'master apps'],
  staff: ['staff member', 'staff members'],
  menus: ['menu', 'menus'],
};

/** Changes heard within this long are fetched together. */
export const LIVE_REFETCH_DELAY_MS = 250;

/** What DataTable shows of a live list (useList puts it in `params.live`). */
export type LiveRows = {
  area: EventArea;
  /** New rows others made since the list was shown, and who made them. */
  created: { count: number; by: readonly string[] };
  /** Fetches again and goes to the first page, in the current order. */
  showNew: () => void;
  /** Rows others deleted since the rows were fetched: id → who. */
  deleted: ReadonlyMap<number, string>;
  /** Who else edits each row: `area:id` → editors. */
  presence: ReadonlyMap<string, readonly EventAccount[]>;
  /** The fetch under way (or just done) was a quiet one: no overlay. */
  quiet: boolean;
};

type Row = { id?: unknown; version?: unknown };

const PENDING = Symbol('pending');

/**
 * Fetches the list query `key` again once no fetch of it is under way (one under way may have
 * started before the change); `starting` is told just before. Resolves with the rows fetched.
 */
async function refetchWhenIdle(
  client: QueryClient,
  key: readonly unknown[],
  starting: () => void,
): Promise<unknown> {
  while (client.getQueryState(key)?.fetchStatus === 'fetching') {
    await new Promise((resolve) => setTimeout(resolve, LIVE_REFETCH_DELAY_MS));
  }
  starting();
  await client.refetchQueries({ queryKey: key, exact: true, type: 'active' });
  return client.getQueryData(key);
}

export function useLiveList(options: {
  area: EventArea | undefined;
  /** The area's query key (invalidated by "Show"). */
  queryKey: readonly unknown[];
  /** The list's parameters but the page: another search is another list. */
  listKey: string;
  /** The page's own key (its parameters). */
  pageKey: string;
  /** The page's query key. */
  fullKey: readonly unknown[];
  page: number;
  setPage: (page: number) => void;
  result: {
    data: { result: readonly unknown[] } | undefined;
    dataUpdatedAt: number;
    isFetching: boolean;
  };
}): LiveRows | undefined {
  const { area, result, pageKey, listKey } = options;
  const client = useQueryClient();
  const stream = useStreamState();
  const presence = usePresenceMap();
  const [quiet, setQuiet] = useState<{ key: string; data: unknown } | undefined>();
  const [created, setCreated] = useState<{ list: string; ids: number[]; by: string[] }>({
    list: listKey,
    ids: [],
    by: [],
  });
  const [deleted, setDeleted] = useState<ReadonlyMap<number, { by: string; at: number }>>(
    () => new Map(),
  );
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const refetchQuietly = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const key = pageKey;
    void refetchWhenIdle(client, options.fullKey, () => setQuiet({ key, data: PENDING })).then(
      (data) => setQuiet({ key, data }),
    );
  };
  // Changes heard together are fetched once.
  const soon = () => {
    timer.current ??= setTimeout(refetchQuietly, LIVE_REFETCH_DELAY_MS);
  };

  useChangeEvents(area, (event) => {
    if (event.by.id === events.me) return;
    const rows = (result.data?.result ?? []) as Row[];
    const row = rows.find((r) => r.id === event.id);
    if (event.action === 'created') {
      if (row) return;
      setCreated((prev) => {
        const base = prev.list === listKey ? prev : { list: listKey, ids: [], by: [] };
        if (base.ids.includes(event.id)) return base;
        return {
          list: listKey,
          ids: [...base.ids, event.id],
          by: base.by.includes(event.by.name) ? base.by : [...base.by, event.by.name],
        };
      });
    } else if (event.action === 'deleted') {
      // A new row deleted again is no longer new.
      setCreated((prev) =>
        prev.ids.includes(event.id)
          ? { ...prev, ids: prev.ids.filter((i) => i !== event.id) }
          : prev,
      );
      if (!row) return;
      setDeleted((prev) => new Map(prev).set(event.id, { by: event.by.name, at: Date.now() }));
    } else if (row) {
      // Already fetched at that version or later (a repeat): nothing to do.
      if (
        typeof row.version === 'number' &&
        event.version !== null &&
        row.version >= event.version
      ) {
        return;
      }
      soon();
    }
  });

  // A reset, the fallback's timer, or a focus while in fallback: fetch again, quietly.
  useResync(area !== undefined, () => {
    if (result.data) refetchQuietly();
  });

  if (!area) return undefined;
  const isQuiet =
    stream !== 'stopped' &&
    quiet?.key === pageKey &&
    (quiet.data === PENDING || (quiet.data === result.data && !result.isFetching));
  const fetchedAt = result.dataUpdatedAt;
  const marked = new Map<number, string>();
  for (const [id, d] of deleted) if (d.at > fetchedAt) marked.set(id, d.by);
  const news = created.list === listKey ? created : { ids: [], by: [] };
  return {
    area,
    created: { count: news.ids.length, by: news.by },
    showNew: () => {
      setCreated({ list: listKey, ids: [], by: [] });
      void client.invalidateQueries({ queryKey: [...options.queryKey, 'list'] });
      if (options.page !== 1) options.setPage(1);
    },
    deleted: marked,
    presence,
    quiet: isQuiet,
  };
}
