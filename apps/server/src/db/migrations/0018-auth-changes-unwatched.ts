/**
 * PostgreSQL: the access check no longer keeps sessions and grants between calls (it reads them on
 * every call, db/changes.ts), so nothing listens to 0005's notifications. Its triggers go: each
 * sent a notification per statement on sessions, accounts and grants, and a notifying transaction
 * takes a lock that every other notifying commit waits for. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function authChangesUnwatched(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (d.kind !== 'postgres') return;
      for (const table of ['sessions', 'accounts', 'user_permissions']) {
        await sql.raw(`drop trigger if exists ${table}_auth_changed on ${table}`).execute(db);
      }
      await sql`drop function if exists master_admin_auth_changed()`.execute(db);
    },
  };
}
