/**
 * What the signed-in account may do, read once from the server (`account/me/permissions`) so
 * screens hide the buttons, actions and areas the server would refuse. The server still checks
 * every call; this only spares people a 403.
 */
import { useQuery } from '@tanstack/react-query';
import { PATHS, myPermissions, type BuiltInMenuName } from '@master-admin/contract';
import { api } from './api';

export const permissionKeys = { mine: ['me', 'permissions'] as const };

export type Grants = { view: boolean; create: boolean; update: boolean; delete: boolean };

const NONE: Grants = { view: false, create: false, update: false, delete: false };

function usePermissionQuery() {
  return useQuery({
    queryKey: permissionKeys.mine,
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

/** Whether the caller may open a sidebar area; undefined until the answer arrives. */
export function useMayOpen():
  ((item: { menu?: string; superAdmin?: true }) => boolean) | undefined {
  const { data } = usePermissionQuery();
  if (!data) return undefined;
  return (item) => {
    if (item.superAdmin) return data.role === 'SUPER_ADMIN';
    if (!item.menu) return true;
    return data.grants[item.menu]?.includes('VIEW') ?? false;
  };
}
