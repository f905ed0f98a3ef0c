/**
 * An open list that follows what others do (issue 23 part 3), for useList: a row on the page that
 * someone changed is fetched again quietly and updated in place (the rows stay, no overlay, no
 * jump; a row new to the page stays out); new rows are announced ("3 new posters: Show") rather
 * than pushed in; deleted rows stay, marked, until the page is fetched whole again; rows being
 * edited name their editors. The account's own doings are
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
  /** Rows shown that others deleted meanwhile: id → who. */
  deleted: ReadonlyMap<number, string>;
  /** Who else edits each row: `area:id` → editors. */
  presence: ReadonlyMap<string, readonly EventAccount[]>;
  /** The fetch under way (or just done) was a quiet one: no overlay. */
  quiet: boolean;
};

type Row = { id?: unknown; version?: unknown };

const PENDING = Symbol('pending');

type Page = { result: readonly unknown[]; total: number };

const idOf = (row: unknown) => (row as Row | null)?.id;

/**
 * The page as it was, with each of its rows as fetched now: rows the new fetch has not (deleted,
 * or moved off the page by the change) stay as they were, and rows new to it stay out (they are
 * announced), so nothing moves.
 */
export function mergeInPlace<P extends Page>(old: P | undefined, fresh: P): P {
  if (!old) return fresh;
  const byId = new Map(fresh.result.map((row) => [idOf(row), row]));
  if (byId.has(undefined)) return fresh;
  return {
    ...fresh,
    total: old.total,
    result: old.result.map((row) => byId.get(idOf(row)) ?? row),
  };
}

/**
 * Once no fetch of the list query `key` is under way (one under way may have started before the
 * change), fetches its page again (`starting` is told just before) and updates the rows shown in
 * place. Resolves with the page now shown.
 */
async function refetchInPlace(
  client: QueryClient,
  key: readonly unknown[],
  fetchPage: () => Promise<Page>,
  starting: () => void,
): Promise<unknown> {
  while (client.getQueryState(key)?.fetchStatus === 'fetching') {
    await new Promise((resolve) => setTimeout(resolve, LIVE_REFETCH_DELAY_MS));
  }
  starting();
  try {
    const fresh = await fetchPage();
    return client.setQueryData<Page>(key, (old) => mergeInPlace(old, fresh));
  } catch {
    // The next fetch shows it; a failed quiet one says nothing.
    return client.getQueryData(key);
  }
}

/** Fetches the list query `key` again, whole (after a reset, or on the fallback's timer). */
async function refetchWhole(
  client: QueryClient,
  key: readonly unknown[],
  starting: () => void,
): Promise<unknown> {
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
  /** Fetches the page (the list query's own call). */
  fetchPage: () => Promise<Page>;
  page: number;
  setPage: (page: number) => void;
  result: {
    data: { result: readonly unknown[] } | undefined;
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
  const [deleted, setDeleted] = useState<ReadonlyMap<number, string>>(() => new Map());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const refetchQuietly = () => {
    clearTimeout(timer.current);
    timer.current = undefined;
    const key = pageKey;
    void refetchInPlace(client, options.fullKey, options.fetchPage, () =>
      setQuiet({ key, data: PENDING }),
    ).then((data) => setQuiet({ key, data }));
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
      setDeleted((prev) => new Map(prev).set(event.id, event.by.name));
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
  // (Whole: with events missed, what is new cannot be told from what moved.)
  useResync(area !== undefined, () => {
    if (!result.data) return;
    const key = pageKey;
    void refetchWhole(client, options.fullKey, () => setQuiet({ key, data: PENDING })).then(
      (data) => setQuiet({ key, data }),
    );
  });

  if (!area) return undefined;
  const isQuiet =
    stream !== 'stopped' &&
    quiet?.key === pageKey &&
    (quiet.data === PENDING || (quiet.data === result.data && !result.isFetching));
  // A deleted row stays, marked, until a fetch of the whole page leaves it out.
  const marked = new Map<number, string>();
  for (const row of (result.data?.result ?? []) as Row[]) {
    const by = typeof row.id === 'number' ? deleted.get(row.id) : undefined;
    if (by !== undefined) marked.set(row.id as number, by);
  }
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
