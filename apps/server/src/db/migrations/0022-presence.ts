/**
 * Presence (issue #23, API.md "Events"): who is editing which row, one row per (area, row,
 * account) until `expires_at` (renewed by the editor's `PUT presence`). In the database so every
 * instance sees the same editors; the sweeper removes expired rows by `presence_expires` and
 * announces them (events/presence.ts). Frozen.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function presence(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('presence')
        // A menu name (`poster`, `users` …), as the event stream names areas.
        .addColumn('area', 'varchar(30)', (c) => c.notNull())
        .addColumn('row_id', 'integer', (c) => c.notNull())
        // No foreign key, as the audit log: accounts are never removed, and a row held here
        // expires by itself.
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('expires_at', d.timestampType, (c) => c.notNull())
        .addPrimaryKeyConstraint('presence_key', ['area', 'row_id', 'account_id'])
        .execute();
      await db.schema.createIndex('presence_expires').on('presence').column('expires_at').execute();
    },
  };
}
