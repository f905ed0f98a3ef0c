/**
 * Proof of presence (issue #31, API.md "Proof of presence for what a stolen token must not do"):
 * `sessions.proved_at`, when the session last proved who it is (its sign-in, or a later
 * `auth/reauth`). A change that would let someone keep or take an account needs it recent.
 * Sessions from before: proved when they signed in. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function recentProof(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sessions').addColumn('proved_at', d.timestampType).execute();
      await sql`update sessions set proved_at = created_at`.execute(db);
    },
  };
}
