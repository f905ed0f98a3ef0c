/**
 * Open event streams (issue #31, API.md "Proof of presence"): one row per stream open on any
 * instance, so that an account holds at most a few (events/streams.ts, MAX_STREAMS_PER_ACCOUNT)
 * however many instances share the database. Ids rise in the order streams open: an account's
 * lowest ids are its oldest streams, the first pushed out (a row left by an instance that was
 * killed is among them). Frozen.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function eventStreams(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('event_streams')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        // For an operator: how long a stream (or a row an instance left behind) has been there.
        .addColumn('opened_at', d.timestampType, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('event_streams_account')
        .on('event_streams')
        .columns(['account_id', 'id'])
        .execute();
    },
  };
}
