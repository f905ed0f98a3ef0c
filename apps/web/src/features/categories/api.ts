import {
  CATEGORY_SORTS,
  PATHS,
  categoryList,
  categoryMutation,
  deleteResponse,
  type CategoryBody,
  type Status,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

export const categoryKeys = { all: ['categories'] as const };
export const CATEGORY_FILTERS = ['status'] as const;

export function useCategoryList() {
  return useList({
    area: 'category',
    queryKey: categoryKeys.all,
    path: PATHS.categoryList,
    schema: categoryList,
    filters: CATEGORY_FILTERS,
    sorts: CATEGORY_SORTS,
  });
}

export function useCreateCategory() {
  return useApiMutation({
    mutationFn: (body: CategoryBody) => api.post(PATHS.categoryCreate, categoryMutation, body),
    invalidates: [categoryKeys.all],
  });
}

export function useRenameCategory() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...body }: CategoryBody & { id: number } & Change) =>
      api.patch(PATHS.category(id), categoryMutation, body, { ifMatch }),
    invalidates: [categoryKeys.all],
  });
}

export function useChangeCategoryStatus() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: Status } & Change) =>
      api.put(PATHS.categoryStatus(id), categoryMutation, { status }, { ifMatch }),
    invalidates: [categoryKeys.all],
  });
}

/** A category that posters still use is refused (409): the toast shows the server's message. */
export function useDeleteCategory() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.categoryRemove(id), deleteResponse, { ifMatch }),
    trash: 'categories',
    invalidates: [categoryKeys.all],
  });
}
