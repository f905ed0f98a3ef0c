import type { Db } from '../db/connect.ts';
import type { SignedIn } from './sessions.ts';

/**
 * Which of `menus` the signed-in account may VIEW (every one for a SUPER_ADMIN): for an answer
 * that gathers several areas (the dashboard), so it leaves out what the account may not see.
 */
export async function viewableMenus(
  db: Db,
  account: Pick<SignedIn, 'id' | 'role'>,
  menus: readonly string[],
): Promise<Set<string>> {
  if (account.role === 'SUPER_ADMIN') return new Set(menus);
  if (menus.length === 0) return new Set();
  const rows = await db
    .selectFrom('userPermissions as up')
    .innerJoin('menus as m', 'm.id', 'up.menuId')
    .innerJoin('permissions as p', 'p.id', 'up.permissionId')
    .select('m.name')
    .where('up.accountId', '=', account.id)
    .where('up.status', '=', true)
    .where('p.name', '=', 'VIEW')
    .where('m.name', 'in', menus)
    .execute();
  return new Set(rows.map((r) => r.name));
}
