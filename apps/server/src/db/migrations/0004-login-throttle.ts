/**
 * Sign-in throttling counts kept as one row per key, raised in one atomic statement
 * (auth/throttle.ts), instead of one row per failure counted apart. Frozen.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function loginThrottle(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('login_throttle')
        .addColumn('key', 'varchar(300)', (c) => c.primaryKey())
        .addColumn('window_start', d.timestampType, (c) => c.notNull())
        .addColumn('count', 'integer', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_throttle_window')
        .on('login_throttle')
        .column('window_start')
        .execute();
      await db.schema.dropTable('login_failures').execute();
    },
  };
}
