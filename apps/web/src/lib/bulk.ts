/**
 * The one bulk pattern. A list's selection (DataTable) is either rows picked on screen or every
 * row the list's search and filters match ("Select all N matching"); a bulk mutation acts on
 * either the same way: it reads the ids (for "all matching", page by page through the list call
 * itself, with the same query), checks there are as many as the person confirmed, and sends them
 * BULK_MAX at a time, one call after the other (each call all or nothing on the server).
 */
import { useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { BULK_MAX, MAX_LIMIT, type TrashArea } from '@master-admin/contract';
import { api, ApiError, errorText, type Values } from './api';
import { formatNumber } from './format';
import { useApiMutation } from './mutation';
import { defined } from './defined';

/** A list call and the query of its current search, filters and sort (useList gives it). */
export type ListSource = { path: string; query: Values };

/** What a bulk action acts on; `count` is what the person was shown and confirmed. */
export type Selection<Row> =
  | { kind: 'rows'; rows: Row[]; count: number }
  | { kind: 'matching'; source: ListSource; count: number };

/**
 * The most rows "Select all matching" offers: reading their ids takes one list call per
 * MAX_LIMIT rows, and acting on them one call per BULK_MAX.
 */
export const MATCHING_MAX = 10_000;

const idsPage = z.object({
  result: z.array(z.object({ id: z.number().int() })),
  total: z.number().int(),
  nextCursor: z.string().nullable(),
});

/**
 * The ids of every row `source` matches, read MAX_LIMIT at a time following the list's cursors
 * (each page costs what the first does, and rows added meanwhile do not shift the rest). When the
 * list no longer holds `expected` rows (someone changed it since the count was shown), nothing is
 * done: the error says how many match now.
 */
export async function matchingIds(source: ListSource, expected: number): Promise<number[]> {
  const ids = new Set<number>();
  let total = expected;
  let cursor: string | null | undefined;
  while (cursor !== null) {
    const page = await api.get(source.path, idsPage, {
      ...source.query,
      limit: MAX_LIMIT,
      ...(cursor === undefined ? {} : { cursor }),
    });
    total = page.total;
    if (total !== expected) break;
    for (const row of page.result) ids.add(row.id);
    cursor = page.result.length === 0 ? null : page.nextCursor;
  }
  if (total !== expected || ids.size !== expected) {
    throw new ApiError(
      `The list changed: ${formatNumber(total)} match now, not ${formatNumber(expected)}. ` +
        'Nothing was changed; check the list and try again.',
    );
  }
  return [...ids];
}

/** The ids a selection stands for. */
export function selectionIds<Row extends { id: number }>(selection: Selection<Row>) {
  return selection.kind === 'rows'
    ? Promise.resolve(selection.rows.map((r) => r.id))
    : matchingIds(selection.source, selection.count);
}

/** A row as a bulk action knows it: its id, and the version it was read at when the list has it. */
export type BulkRow = { id: number; version?: number };

/**
 * The `versions` a bulk call sends for `ids` (API.md, "Versions"): the version each picked row was
 * read at, so a row changed since stops the call. Rows of "all matching" were never shown: none.
 */
export function bulkVersions(
  selection: Selection<BulkRow>,
  ids: readonly number[],
): { versions?: Record<string, number> } {
  if (selection.kind !== 'rows') return {};
  const known = new Map(selection.rows.map((r) => [r.id, r.version]));
  const versions: Record<string, number> = {};
  for (const id of ids) {
    const v = known.get(id);
    if (v !== undefined) versions[id] = v;
  }
  return Object.keys(versions).length > 0 ? { versions } : {};
}

/**
 * A bulk mutation: `call` sends one all-or-nothing call for up to BULK_MAX ids (with `args`, a
 * status …, and `versions`, which the call puts in its body as it is); the mutation takes a
 * selection and sends as many calls as its ids need. Pending, the toast and the refresh are
 * useApiMutation's (a row changed since it was picked: nothing changes, the list is read again and
 * the toast names the rows). A failure after some calls succeeded says how many rows were changed
 * before it.
 */
export function useBulkMutation<A, R extends { message: string }>(options: {
  call: (ids: number[], args: A, versions: { versions?: Record<string, number> }) => Promise<R>;
  invalidates: readonly (readonly unknown[])[];
  /** A delete into the trash: the toast's Undo restores every id of every call. */
  trash?: TrashArea;
}) {
  const client = useQueryClient();
  return useApiMutation({
    ...(options.trash ? { trash: options.trash } : {}),
    mutationFn: async ({ selection, args }: { selection: Selection<BulkRow>; args: A }) => {
      const ids = await selectionIds(selection);
      let last: R | undefined;
      for (let done = 0; done < ids.length; done += BULK_MAX) {
        try {
          const chunk = ids.slice(done, done + BULK_MAX);
          last = await options.call(chunk, args, bulkVersions(selection, chunk));
        } catch (err) {
          if (done === 0) throw err;
          // Some rows did change: the lists show them as they are now.
          for (const queryKey of options.invalidates) void client.invalidateQueries({ queryKey });
          throw new ApiError(
            `${formatNumber(done)} of ${formatNumber(ids.length)} were changed, then: ${errorText(err)}`,
          );
        }
      }
      // The answer names every id acted on (the toast's Undo restores them all), not the last
      // call's alone.
      return { ...defined(last), result: { ids, count: ids.length } };
    },
    invalidates: options.invalidates,
  });
}
