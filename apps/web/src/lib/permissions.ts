/**
 * What the signed-in account may do, read once from the server (`account/me/permissions`) so
 * screens hide the buttons, actions and areas the server would refuse. The server still checks
 * every call; this only spares people a 403.
 */
import { useQuery } from '@tanstack/react-query';
import {
  PATHS,
  myPermissions,
  type BuiltInMenuName,
  type MyPermissions,
} from '@master-admin/contract';
import { api } from './api';
import { GRANTS_KEY, session } from './session';
import { appQueryClient } from '../app/app-providers';

/**
 * The caller's grants are kept per sign-in (its token): a new sign-in, as the same or another
 * account, reads them afresh. The shell also refreshes them whenever a call answers 403.
 */
export const permissionKeys = { mine: ['me', 'permissions'] as const };

export type Grants = { view: boolean; create: boolean; update: boolean; delete: boolean };

const NONE: Grants = { view: false, create: false, update: false, delete: false };

/**
 * The grants this sign-in was last told, kept in the browser: a later visit shows its first
 * screen at once on them instead of waiting a round trip, while they are read again. Should they
 * have been taken away meanwhile, the screen's first call answers 403 and the shell reads them
 * anew (the server decides every call in any case).
 */
function rememberedGrants(token: string | null): MyPermissions | undefined {
  try {
    const kept = JSON.parse(localStorage.getItem(GRANTS_KEY) ?? 'null') as {
      token?: unknown;
      grants?: unknown;
    } | null;
    if (!kept || kept.token !== token) return undefined;
    const parsed = myPermissions.safeParse(kept.grants);
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

/** Grants known before the first render (the preload script read them): remembered as fresh. */
export function seedGrants(grants: MyPermissions) {
  const token = session.token();
  localStorage.setItem(GRANTS_KEY, JSON.stringify({ token, grants }));
  appQueryClient().setQueryData([...permissionKeys.mine, token], grants);
}

function usePermissionQuery() {
  const token = session.token();
  return useQuery({
    queryKey: [...permissionKeys.mine, token],
    queryFn: async () => {
      const grants = await api.get(PATHS.myPermissions, myPermissions);
      localStorage.setItem(GRANTS_KEY, JSON.stringify({ token, grants }));
      return grants;
    },
    // Remembered grants count as stale: shown at once, and read again straight away.
    initialData: () => rememberedGrants(token),
    initialDataUpdatedAt: 0,
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

/**
 * Who may open a screen: VIEW on its menu, only a SUPER_ADMIN, DELETE on at least one of
 * `anyDelete` (the trash), or (none of them) anyone signed in.
 */
export type ScreenAccess = {
  menu?: BuiltInMenuName;
  superAdmin?: true;
  anyDelete?: readonly BuiltInMenuName[];
};

/** Whether `grants` let the caller open a screen of `access`. */
export function allows(grants: MyPermissions, access: ScreenAccess): boolean {
  if (access.superAdmin) return grants.role === 'SUPER_ADMIN';
  if (access.anyDelete) {
    return (
      grants.role === 'SUPER_ADMIN' ||
      access.anyDelete.some((menu) => grants.grants[menu]?.includes('DELETE'))
    );
  }
  if (access.menu) return grants.grants[access.menu]?.includes('VIEW') ?? false;
  return true;
}

/** The caller's grants; undefined until the answer arrives. */
export function useMyPermissions(): MyPermissions | undefined {
  return usePermissionQuery().data;
}

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
  const allowed = data ? allows(data, access) : undefined;
  return { allowed, error, retry: refetch };
}

/** Whether the caller is the SUPER_ADMIN (false until the answer arrives). */
export function useIsSuperAdmin(): boolean {
  return usePermissionQuery().data?.role === 'SUPER_ADMIN';
}

/** The menus on which the caller holds DELETE (every menu for a SUPER_ADMIN). */
export function useDeleteMenus(): ReadonlySet<string> | 'all' {
  const { data } = usePermissionQuery();
  if (data?.role === 'SUPER_ADMIN') return 'all';
  return new Set(
    Object.entries(data?.grants ?? {})
      .filter(([, kinds]) => kinds.includes('DELETE'))
      .map(([menu]) => menu),
  );
}
