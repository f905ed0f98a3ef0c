import {
  MASTER_APP_SORTS,
  PATHS,
  masterAppList,
  masterAppMutation,
  type MasterAppBody,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

/** Every master-app query starts with this key (the pickers' options too). */
export const masterAppKeys = { all: ['master-apps'] as const };

export function useMasterAppList() {
  return useList({
    area: 'masterApp',
    queryKey: masterAppKeys.all,
    path: PATHS.masterAppList,
    schema: masterAppList,
    sorts: MASTER_APP_SORTS,
  });
}

export function useCreateMasterApp() {
  return useApiMutation({
    mutationFn: (body: MasterAppBody) => api.post(PATHS.masterAppCreate, masterAppMutation, body),
    invalidates: [masterAppKeys.all],
  });
}

export function useRenameMasterApp() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...body }: MasterAppBody & { id: number } & Change) =>
      api.patch(PATHS.masterAppUpdate(id), masterAppMutation, body, { ifMatch }),
    invalidates: [masterAppKeys.all],
  });
}
