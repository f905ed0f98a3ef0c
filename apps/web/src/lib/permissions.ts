/**
 * What the signed-in account may do, read once from the server (`account/me/permissions`) so
 * screens hide the buttons, actions and areas the server would refuse. The server still checks
 * every call; this only spares people a 403.
 */
import { useQuery } from '@tanstack/react-query';
import { PATHS, myPermissions, type BuiltInMenuName } from '@master-admin/contract';
import { api } from './api';
import { session } from './session';

/**
 * The caller's grants are kept per sign-in (its token): a new sign-in, as the same or another
 * account, reads them afresh. The shell also refreshes them whenever a call answers 403.
 */
export const permissionKeys = { mine: ['me', 'permissions'] as const };

export type Grants = { view: boolean; create: boolean; update: boolean; delete: boolean };

const NONE: Grants = { view: false, create: false, update: false, delete: false };

function usePermissionQuery() {
  return useQuery({
    queryKey: [...permissionKeys.mine, session.token()],
    queryFn: () => api.get(PATHS.myPermissions, myPermissions),
    staleTime: 5 * 60_000,
  });
}

/**
 * What the caller may do on one menu (API.md, Roles and permissions). Until the answer arrives
 * nothing is granted, so a button never shows and then vanishes.
 */
export function useGrants(menu: BuiltInMenuName): Grants {
  const { data } = usePermissionQuery();
  const kinds = data?.grants[menu];
  if (!kinds) return NONE;
  return {
    view: kinds.includes('VIEW'),
    create: kinds.includes('CREATE'),
    update: kinds.includes('UPDATE'),
    delete: kinds.includes('DELETE'),
  };
}

/** Who may open a screen: VIEW on its menu, only a SUPER_ADMIN, or (neither) anyone signed in. */
export type ScreenAccess = { menu?: BuiltInMenuName; superAdmin?: true };

/**
 * Whether the caller may open a screen; undefined until the answer arrives (or when it failed:
 * `error` then says why).
 */
export function useMayOpen(access: ScreenAccess): {
  allowed: boolean | undefined;
  error: unknown;
  retry: () => unknown;
} {
  const { data, error, refetch } = usePermissionQuery();
  const allowed = !data
    ? undefined
    : access.superAdmin
      ? data.role === 'SUPER_ADMIN'
      : access.menu
        ? (data.grants[access.menu]?.includes('VIEW') ?? false)
        : true;
  return { allowed, error, retry: refetch };
}
