/**
 * Idempotency keys (issue #32, API.md "Operations"): one row per `Idempotency-Key` a change call
 * sent, per account (0 for calls made without a session), holding the request's fingerprint, how
 * far it got ('running', 'committed' with the change, 'done' once its answer is kept) and that
 * answer, for 24 hours (http/idempotency.ts). Shared by every instance through the database.
 * Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function idempotencyKeys(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('idempotency_keys')
        // No foreign key: 0 stands for the calls made without a session.
        .addColumn('account_id', 'integer', (c) => c.notNull())
        .addColumn('key', 'varchar(128)', (c) => c.notNull())
        // SHA-256 (keyed) of the method, path and query, body and uploads, in hex.
        .addColumn('fingerprint', 'varchar(64)', (c) => c.notNull())
        .addColumn('state', 'varchar(16)', (c) =>
          c.notNull().check(sql`state in ('running', 'committed', 'done')`),
        )
        .addColumn('status', 'integer')
        .addColumn('content_type', 'varchar(255)')
        .addColumn('body', 'text')
        .addColumn('created_at', d.timestampType, (c) => c.notNull())
        .addColumn('expires_at', d.timestampType, (c) => c.notNull())
        .addPrimaryKeyConstraint('idempotency_keys_pk', ['account_id', 'key'])
        .execute();
      // The sweep deletes expired rows by it.
      await db.schema
        .createIndex('idempotency_keys_expires_at')
        .on('idempotency_keys')
        .column('expires_at')
        .execute();
    },
  };
}
