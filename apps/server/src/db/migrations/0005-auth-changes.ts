/**
 * PostgreSQL: a notification on every committed change to what the access check reads, so every
 * instance knows when what it keeps is stale (db/changes.ts). SQLite needs nothing: its own
 * change counters say it. Frozen (its triggers are dropped by 0018: every call now reads).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function authChanges(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (d.kind !== 'postgres') return;
      await sql
        .raw(
          `create function master_admin_auth_changed() returns trigger language plpgsql as $$ ` +
            `begin perform pg_notify('master_admin_auth', ''); return null; end $$`,
        )
        .execute(db);
      for (const [table, events] of [
        ['sessions', 'update or delete'],
        ['accounts', 'update or delete'],
        ['user_permissions', 'insert or update or delete'],
      ] as const) {
        await sql
          .raw(
            `create trigger ${table}_auth_changed after ${events} on ${table} ` +
              `for each statement execute function master_admin_auth_changed()`,
          )
          .execute(db);
      }
    },
  };
}
