/**
 * The users list's sorts (issue #22): an index for each field it may be sorted by, after the
 * list's role (every users list asks for role USER), ties broken by id; name and email sort
 * whatever the letter case, so their index is on lower(). The created-at order has its index
 * since 0001 (`accounts_role_created`). Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

const SORT_INDEXES: Array<[column: string, caseless?: true]> = [
  ['name', true],
  ['email', true],
  ['status'],
  ['date_limit'],
];

export function usersSorts(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const [column, caseless] of SORT_INDEXES) {
        const key = caseless ? sql`lower(${sql.ref(column)})` : sql.ref(column);
        await db.schema
          .createIndex(`accounts_sort_${column}`)
          .on('accounts')
          .expression(sql`role, ${key}, id`)
          .execute();
      }
    },
  };
}
