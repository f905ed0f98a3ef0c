import { useQuery, useQueryClient } from '@tanstack/react-query';
import {
  MASTER_APP_SORTS,
  PATHS,
  appKeyAnswer,
  masterAppList,
  masterAppMutation,
} from '@master-admin/contract';

/** A create's or update's body: the name, and the zone (null or '' for the server default). */
type MasterAppBody = { name: string; timeZone?: string | null | undefined };
import { api, type Change } from '../../lib/api';
import { defined } from '../../lib/defined';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';

/** Every master-app query starts with this key (the pickers' options too). */
export const masterAppKeys = {
  all: ['master-apps'] as const,
  appKey: (id: number) => ['master-apps', 'app-key', id] as const,
};

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

/** The key an app's phones send (X-App-Key), and the one a rotation replaced (SUPER_ADMIN). */
export function useAppKey(id: number | undefined) {
  return useQuery({
    queryKey: masterAppKeys.appKey(id ?? 0),
    queryFn: () => api.get(PATHS.masterAppKey(defined(id)), appKeyAnswer),
    enabled: id !== undefined,
  });
}

/** A new key now; the old one keeps working 24 hours. The answer is the key panel's new state. */
export function useRotateAppKey() {
  const client = useQueryClient();
  return useApiMutation({
    mutationFn: (id: number) => api.post(PATHS.masterAppKey(id), appKeyAnswer),
    onSuccess: (answer, id) => client.setQueryData(masterAppKeys.appKey(id), answer),
  });
}
