/** Reading an account's per-menu permission rows, as the staff and permission calls answer them. */
import type { MenuPermissionGroup, PermissionEntry, PermissionKind } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';

type EntryRow = {
  id: number;
  accountId: number;
  menuId: number;
  permissionId: number;
  status: boolean | number;
  updatedAt: string;
  permissionName: PermissionKind;
};

/** The rows with their kind, ordered by menu then kind. */
export const selectEntries = (db: Db) =>
  db
    .selectFrom('userPermissions as up')
    .innerJoin('permissions as p', 'p.id', 'up.permissionId')
    .select([
      'up.id',
      'up.accountId',
      'up.menuId',
      'up.permissionId',
      'up.status',
      'up.updatedAt',
      'p.name as permissionName',
    ])
    .orderBy('up.menuId')
    .orderBy('up.permissionId');

export const toEntry = ({ permissionName, status, ...row }: EntryRow): PermissionEntry => ({
  ...row,
  status: Boolean(status),
  permission: { id: row.permissionId, name: permissionName },
});

/** One group per menu (by id), each with the account's rows on it. */
export async function permissionGroups(db: Db, accountId: number): Promise<MenuPermissionGroup[]> {
  const [menus, rows] = await Promise.all([
    db.selectFrom('menus').select(['id', 'version', 'name', 'title']).orderBy('id').execute(),
    selectEntries(db).where('up.accountId', '=', accountId).execute(),
  ]);
  const byMenu = new Map<number, PermissionEntry[]>();
  for (const row of rows) {
    const entry = toEntry(row);
    const list = byMenu.get(entry.menuId);
    if (list) list.push(entry);
    else byMenu.set(entry.menuId, [entry]);
  }
  return menus.map((m) => ({ ...m, userPermission: byMenu.get(m.id) ?? [] }));
}
