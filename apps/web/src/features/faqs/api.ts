import {
  FAQ_SORTS,
  PATHS,
  deleteResponse,
  faqList,
  faqMutation,
  type FaqCreateBody,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

export const faqKeys = { all: ['faqs'] as const };

export function useFaqList() {
  return useList({
    area: 'faqs',
    queryKey: faqKeys.all,
    path: PATHS.faqList,
    schema: faqList,
    sorts: FAQ_SORTS,
  });
}

export function useCreateFaq() {
  return useApiMutation({
    mutationFn: (body: FaqCreateBody) => api.post(PATHS.faqCreate, faqMutation, body),
    invalidates: [faqKeys.all],
  });
}

/** The edit dialog sends both fields: it shows both, and both stay required. */
export function useUpdateFaq() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...body }: FaqCreateBody & { id: number } & Change) =>
      api.patch(PATHS.faqUpdate(id), faqMutation, body, { ifMatch }),
    invalidates: [faqKeys.all],
  });
}

export function useDeleteFaq() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.faqRemove(id), deleteResponse, { ifMatch }),
    trash: 'faqs',
    invalidates: [faqKeys.all],
  });
}
