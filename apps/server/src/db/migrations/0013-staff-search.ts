/**
 * The staff list searches the users list's structure (issue #9's follow-up): both search the
 * name, email and phone number of `accounts`, and each kept a trigram index of every account of
 * its own, so every account written updated two. The staff list keeps its counts; its own search
 * structure goes (`ListSpec.searchIn`). Frozen.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { installList, uninstallList } from '../list-structures.ts';

export function staffSearch(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await uninstallList(db, d, { name: 'staff', table: 'accounts' });
      await installList(db, d, {
        name: 'staff',
        table: 'accounts',
        counts: [['role', 'status']],
        search: [],
      });
    },
  };
}
