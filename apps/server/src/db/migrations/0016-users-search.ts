/**
 * The users list's keyword at a million users (issue #9): its search structure is split in two
 * (`searchWhere`, list-structures.ts). `users_search` now holds only the accounts the list shows
 * by default (role USER, not DELETED), so a keyword's exact total is a count on that index alone
 * instead of a look-up of each match in `accounts`; `users_rest_search` holds every other account
 * (DELETED users, staff, admins), searched by the staff list and by status=DELETED. Each account
 * is in one of the two, so a write still updates one index; the triggers move a row when its role
 * or status moves it. Both are filled from the existing rows. Frozen.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { installList, uninstallList } from '../list-structures.ts';

export function usersSearch(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await uninstallList(db, d, { name: 'users', table: 'accounts' });
      await installList(db, d, {
        name: 'users',
        table: 'accounts',
        counts: [['role', 'status', 'master_app_id']],
        search: ['name', 'email', 'phone_number'],
        searchWhere: [
          { column: 'role', op: '=', value: 'USER' },
          { column: 'status', op: '<>', value: 'DELETED' },
        ],
      });
    },
  };
}
