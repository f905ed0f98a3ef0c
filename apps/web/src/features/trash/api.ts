import { PATHS, trashList, trashResponse, type TrashItem } from '@master-admin/contract';
import { api } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';
import { restoreFromTrash } from '../../lib/trash';

export const trashKeys = { all: ['trash'] as const };

export function useTrashList() {
  return useList({
    queryKey: trashKeys.all,
    path: PATHS.trash,
    schema: trashList,
    filters: ['area'] as const,
  });
}

/**
 * Restores the picked rows; every list refreshes (the rows are back in theirs). Each call's
 * answer is the server's "Restored".
 */
export function useRestore() {
  return useApiMutation({
    mutationFn: async (items: TrashItem[]) => ({ message: await restoreFromTrash(items) }),
    // Everything: the restored rows are back in their own areas' lists and counts.
    invalidates: [[]],
  });
}

/** Deletes the picked rows for good (SUPER_ADMIN), with their files. */
export function usePurge() {
  return useApiMutation({
    mutationFn: (items: TrashItem[]) => api.json('DELETE', PATHS.trash, trashResponse, { items }),
    invalidates: [trashKeys.all],
  });
}
