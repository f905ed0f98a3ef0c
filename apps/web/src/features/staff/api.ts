import { useQuery } from '@tanstack/react-query';
import {
  MAX_LIMIT,
  PATHS,
  deleteResponse,
  factorsResetAnswer,
  menuList,
  menuMutation,
  menuPermissions,
  messageResponse,
  permissionBulkResponse,
  securitySettings,
  sessionList,
  permissionMutation,
  staffList,
  staffMutation,
  staffProfile,
  type Menu,
  type MenuCreateBody,
  type StaffCreateBody,
  type StaffEditForm,
  type Status,
} from '@master-admin/contract';
import { api, type Change } from '../../lib/api';
import { useList } from '../../lib/list';
import { useApiMutation } from '../../lib/mutation';
import { defined } from '../../lib/defined';

export const staffKeys = {
  all: ['staff'] as const,
  profile: (id: number) => ['staff', 'profile', id] as const,
  sessions: (id: number) => ['staff', 'sessions', id] as const,
  security: ['staff', 'security'] as const,
  menuPermissions: (menuId: number, accountId: number) =>
    ['staff', 'menu-permissions', menuId, accountId] as const,
};
export const menuKeys = { all: ['menus'] as const };
export const STAFF_FILTERS = ['status'] as const;

export function useStaffList() {
  return useList({
    area: 'staff',
    queryKey: staffKeys.all,
    path: PATHS.staffList,
    schema: staffList,
    filters: STAFF_FILTERS,
  });
}

export function useStaffProfile(id: number | undefined) {
  return useQuery({
    queryKey: staffKeys.profile(id ?? 0),
    queryFn: () => api.get(PATHS.staffProfile(defined(id)), staffProfile),
    enabled: id !== undefined,
  });
}

export function useCreateStaff() {
  return useApiMutation({
    mutationFn: (body: StaffCreateBody) => api.post(PATHS.staffCreate, staffMutation, body),
    invalidates: [staffKeys.all],
  });
}

export function useUpdateStaff() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...body }: StaffEditForm & { id: number } & Change) =>
      api.patch(PATHS.staffUpdate(id), staffMutation, body, { ifMatch }),
    invalidates: [staffKeys.all],
  });
}

export function useStaffPassword() {
  return useApiMutation({
    mutationFn: ({ id, password }: { id: number; password: string }) =>
      api.patch(PATHS.staffPassword(id), staffMutation, { password }),
  });
}

export function useStaffStatus() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: Status } & Change) =>
      api.put(PATHS.staffStatus(id), staffMutation, { status }, { ifMatch }),
    invalidates: [staffKeys.all],
  });
}

/** "Staff deleted successfully": the account is DELETED and leaves the list. */
/**
 * Removes a staff member's authenticator app and passkeys (someone else's, or lost ones); the
 * toast says what was removed.
 */
export function useResetStaffFactors() {
  return useApiMutation({
    mutationFn: async (id: number) => {
      const answer = await api.delete(PATHS.staffFactors(id), factorsResetAnswer);
      const { totp, passkeys } = answer.result;
      const removed = [
        totp ? 'the authenticator app' : undefined,
        passkeys > 0 ? `${passkeys} passkey${passkeys === 1 ? '' : 's'}` : undefined,
      ].filter(Boolean);
      const message =
        removed.length > 0
          ? `${answer.message}: removed ${removed.join(' and ')}`
          : `${answer.message}: there were none to remove`;
      return { ...answer, message };
    },
    invalidates: [staffKeys.all],
  });
}

export function useDeleteStaff() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.staffRemove(id), deleteResponse, { ifMatch }),
    invalidates: [staffKeys.all],
  });
}

/**
 * Every menu matching `keyword`, by id. `menus/all` answers a bare array of at most 100, so the
 * pages are read until one comes back short.
 */
export function useMenus(keyword = '') {
  return useQuery({
    queryKey: [...menuKeys.all, keyword],
    queryFn: async () => {
      const all: Menu[] = [];
      for (let offset = 0; ; offset += MAX_LIMIT) {
        const page = await api.get(PATHS.menuList, menuList, {
          limit: MAX_LIMIT,
          offset,
          keyword,
        });
        all.push(...page);
        if (page.length < MAX_LIMIT) return all;
      }
    },
  });
}

export function useCreateMenu() {
  return useApiMutation({
    mutationFn: (body: MenuCreateBody) => api.post(PATHS.menuCreate, menuMutation, body),
    invalidates: [menuKeys.all, staffKeys.all],
  });
}

export function useUpdateMenu() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch, ...body }: { id: number; name?: string; title: string } & Change) =>
      api.patch(PATHS.menu(id), menuMutation, body, { ifMatch }),
    invalidates: [menuKeys.all, staffKeys.all],
  });
}

export function useDeleteMenu() {
  return useApiMutation({
    mutationFn: ({ id, ifMatch }: { id: number } & Change) =>
      api.delete(PATHS.menuRemove(id), deleteResponse, { ifMatch }),
    invalidates: [menuKeys.all, staffKeys.all],
  });
}

export function useMenuPermissions(menuId: number | undefined, accountId: number | undefined) {
  return useQuery({
    queryKey: staffKeys.menuPermissions(menuId ?? 0, accountId ?? 0),
    queryFn: () =>
      api.get(PATHS.menuPermissions(defined(menuId), defined(accountId)), menuPermissions),
    enabled: menuId !== undefined && accountId !== undefined,
  });
}

/**
 * One permission row on or off: "Status Updated Successfully". The spec has two calls for it:
 * `permissions/status` (one menu's screen) and `user-permissions/status` (the grid of every menu).
 */
export function useSetPermission(via: 'permissions' | 'user-permissions') {
  const path = via === 'permissions' ? PATHS.permissionStatus : PATHS.userPermissionStatus;
  return useApiMutation({
    mutationFn: ({ id, ifMatch, status }: { id: number; status: boolean } & Change) =>
      api.put(path(id), permissionMutation, { status }, { ifMatch }),
    invalidates: [staffKeys.all],
  });
}

/** Many rows of one account at once, all or nothing: "Successfully Updated.". */
export function useBulkPermissions() {
  return useApiMutation({
    mutationFn: ({
      accountId,
      items,
    }: {
      accountId: number;
      items: Array<{ id: number; status: boolean }>;
    }) => api.json('PUT', PATHS.userPermissionBulk(accountId), permissionBulkResponse, { items }),
    invalidates: [staffKeys.all],
  });
}

/** A staff member's signed-in sessions (SUPER_ADMIN). */
export function useStaffSessions(accountId: number) {
  return useQuery({
    queryKey: staffKeys.sessions(accountId),
    queryFn: () => api.get(PATHS.staffSessions(accountId), sessionList),
  });
}

export function useEndStaffSession() {
  return useApiMutation({
    mutationFn: ({ accountId, id }: { accountId: number; id: number }) =>
      api.delete(PATHS.staffSession(accountId, id), messageResponse),
    invalidates: [['staff', 'sessions']],
  });
}

/** The owner's security setting: whether every staff member must have a second factor. */
export function useSecuritySettings() {
  return useQuery({
    queryKey: staffKeys.security,
    queryFn: () => api.get(PATHS.security, securitySettings),
  });
}

export function useSetSecuritySettings() {
  return useApiMutation({
    mutationFn: (requireSecondFactor: boolean) =>
      api.put(PATHS.security, messageResponse, { requireSecondFactor }),
    invalidates: [staffKeys.security],
  });
}
