/**
 * Second factors, passkeys and sessions one can see (issue #24, API.md "Second factors, passkeys,
 * sessions, device tokens"). Frozen.
 *
 * - sessions: `public_id`, the number a session is shown and ended by (its `id` is the secret the
 *   token carries, never shown); `last_seen_at`, written at most once a minute; `sign_in_method`;
 *   `enrolment_only`, a session that may only enrol a second factor (the owner requires one).
 * - totp_factors: one per account; `confirmed_at` null until a code confirmed it; `last_step`, the
 *   last RFC 6238 time step accepted, so a code is accepted once.
 * - recovery_codes: SHA-256 of each code (the codes are random, 50 bits each), used once.
 * - passkeys: WebAuthn credentials (public key, signature counter, transports) with a name.
 * - auth_challenges: one row per challenge handed out (a sign-in's second step, a WebAuthn
 *   ceremony): its kind, account, expiry, and when it was used (once).
 * - security_settings: the owner's settings, one row.
 * - audit_log.device: the browser and system an entry's request came from (security events).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function secondFactors(d: Dialect): Migration {
  const ts = d.timestampType;
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('sessions').addColumn('public_id', 'integer').execute();
      await db.schema.alterTable('sessions').addColumn('last_seen_at', ts).execute();
      await db.schema.alterTable('sessions').addColumn('sign_in_method', 'varchar(20)').execute();
      await db.schema
        .alterTable('sessions')
        .addColumn('enrolment_only', 'boolean', (c) => c.notNull().defaultTo(false))
        .execute();
      // Sessions before this one: numbered 1..N (new ones take random numbers, retrying on a clash).
      await sql`update sessions set public_id = n.num, last_seen_at = sessions.created_at
        from (select id, row_number() over (order by created_at, id) as num from sessions) as n
        where n.id = sessions.id`.execute(db);
      await db.schema
        .createIndex('sessions_public_id')
        .on('sessions')
        .column('public_id')
        .unique()
        .execute();

      await db.schema
        .createTable('totp_factors')
        .addColumn('account_id', 'integer', (c) =>
          c.primaryKey().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('secret', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('confirmed_at', ts)
        .addColumn('last_step', 'integer')
        .execute();

      await db.schema
        .createTable('recovery_codes')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .execute();
      await db.schema
        .createIndex('recovery_codes_account')
        .on('recovery_codes')
        .column('account_id')
        .execute();

      await db.schema
        .createTable('passkeys')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('credential_id', 'varchar(1400)', (c) => c.notNull().unique())
        .addColumn('public_key', 'text', (c) => c.notNull())
        .addColumn('counter', 'bigint', (c) => c.notNull().defaultTo(0))
        .addColumn('transports', 'varchar(200)')
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('last_used_at', ts)
        .execute();
      await db.schema.createIndex('passkeys_account').on('passkeys').column('account_id').execute();

      await db.schema
        .createTable('auth_challenges')
        .addColumn('id', 'varchar(128)', (c) => c.primaryKey())
        .addColumn('kind', 'varchar(30)', (c) => c.notNull())
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('used_at', ts)
        .execute();
      await db.schema
        .createIndex('auth_challenges_expires')
        .on('auth_challenges')
        .column('expires_at')
        .execute();

      await db.schema
        .createTable('security_settings')
        .addColumn('id', 'integer', (c) => c.primaryKey().check(sql`id = 1`))
        .addColumn('require_second_factor', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('updated_at', ts)
        .execute();
      await db.insertInto('security_settings').values({ id: 1 }).execute();

      await db.schema.alterTable('audit_log').addColumn('device', 'varchar(120)').execute();
    },
  };
}
