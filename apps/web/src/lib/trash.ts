/**
 * The trash as every delete offers it (API.md "Planning festivals"): a delete's success toast
 * carries Undo for UNDO_MS, which restores what was deleted (`POST trash/restore`, BULK_MAX items
 * a call) and refreshes every open list.
 */
import {
  BULK_MAX,
  PATHS,
  trashResponse,
  type TrashArea,
  type TrashItem,
} from '@master-admin/contract';
import { api } from './api';
import { toast, toastError } from './toast';
import { formatNumber } from './format';
import { appQueryClient } from '../app/app-providers';

/** How long a delete's toast offers Undo. */
export const UNDO_MS = 10_000;

/** Restores `items` from the trash, BULK_MAX at a time (each call all or nothing). */
export async function restoreFromTrash(items: readonly TrashItem[]): Promise<string> {
  let message = '';
  for (let done = 0; done < items.length; done += BULK_MAX) {
    const answer = await api.json('POST', PATHS.trashRestore, trashResponse, {
      items: items.slice(done, done + BULK_MAX),
    });
    message = answer.message;
  }
  return message;
}

/** The ids a delete's answer names: one (`result.id`) or many (`result.ids`). */
export function deletedIds(answer: unknown): number[] {
  const result = (answer as { result?: { id?: unknown; ids?: unknown } } | null)?.result;
  if (Array.isArray(result?.ids)) return result.ids.filter((id) => typeof id === 'number');
  return typeof result?.id === 'number' ? [result.id] : [];
}

/** The success toast of a delete of `ids` in `area`, with Undo for UNDO_MS. */
export function offerUndo(message: string, area: TrashArea, ids: readonly number[]) {
  if (ids.length === 0) {
    toast('success', message);
    return;
  }
  toast('success', message, UNDO_MS, {
    label: 'Undo',
    onClick: async () => {
      try {
        const restored = await restoreFromTrash(ids.map((id) => ({ area, id })));
        toast('success', ids.length > 1 ? `${restored}: ${formatNumber(ids.length)}` : restored);
      } catch (err) {
        toastError(err);
      } finally {
        // The rows are back (or not): every open list, count and dashboard reads again.
        await appQueryClient().invalidateQueries();
      }
    },
  });
}
