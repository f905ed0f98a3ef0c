/**
 * The one mutation pattern: while pending the caller's button shows a loader and cannot be pressed
 * again; on success the server's message is toasted and the area's lists refresh; on failure the
 * error text is toasted (by the form that sent it, when there is one: it names fields by their
 * labels, or shows a stale version's conflict). A call refused for a stale version (API.md,
 * "Versions") refreshes the area's lists too, so the rows show what is stored now, and its toast
 * says so.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { conflictOf, errorText } from './api';
import type { TrashArea } from '@master-admin/contract';
import { toast, toastErrorSoon } from './toast';
import { deletedIds, offerUndo } from './trash';

/**
 * The toast of a call refused for a stale version: the server's message, with the row's id when
 * the call named one ("Poster 12 was changed by Asha since you opened it"), and what happened.
 */
export function conflictText(err: unknown, id?: unknown): string {
  const conflict = conflictOf(err);
  const message = errorText(err);
  if (!conflict) return message;
  if (conflict.stale) return `${message}. The list is refreshed; nothing was changed.`;
  const named =
    typeof id === 'number'
      ? message.replace(/^(.*?) was changed/, `$1 ${id} was changed`)
      : message;
  return `${named}: refreshed, try again.`;
}

export function useApiMutation<TVars, TResult extends { message?: string }>(options: {
  mutationFn: (vars: TVars) => Promise<TResult>;
  /** Query keys whose data this mutation changes. */
  invalidates?: readonly (readonly unknown[])[];
  /** The toast on success; the server's message when not given. */
  successMessage?: string;
  onSuccess?: (result: TResult, vars: TVars) => void;
  /**
   * A delete that moves rows of this area to the trash: its toast offers Undo (lib/trash.ts) for
   * the ids its answer names.
   */
  trash?: TrashArea;
}) {
  const client = useQueryClient();
  const refresh = () =>
    Promise.all(
      (options.invalidates ?? []).map((queryKey) => client.invalidateQueries({ queryKey })),
    );
  return useMutation({
    mutationFn: options.mutationFn,
    onSuccess: async (result, vars) => {
      const message = options.successMessage ?? result.message;
      if (message && options.trash) offerUndo(message, options.trash, deletedIds(result));
      else if (message) toast('success', message);
      options.onSuccess?.(result, vars);
      await refresh();
    },
    onError: (err, vars) => {
      if (!conflictOf(err)) return toastErrorSoon(err);
      void refresh();
      const id = typeof vars === 'object' && vars !== null ? (vars as { id?: unknown }).id : vars;
      toastErrorSoon(err, conflictText(err, id));
    },
  });
}
