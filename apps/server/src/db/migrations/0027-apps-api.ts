/**
 * The content apps' API (issue #34, API.md "Apps API"). Frozen.
 *
 * - `app_keys`: the key each master app's calls carry; a rotation gives the old one `retires_at`.
 * - `sessions` gain the app a session belongs to (null: a back-office session) and the device an
 *   app named at sign-in; `app_refresh_tokens` hold each refresh token's hash, and whether it was
 *   used (a used one sent again ends the session).
 * - `otp_codes`: one-time sign-in codes, kept as keyed hashes, with their tries.
 * - `user_activities`: what end users did (REGISTER, LOGIN, LIKE, UNLIKE, SHARED);
 *   `login_history` gains the device.
 * - `poster_likes`; `notification_reads` (who read which notification) and the notifications'
 *   `read_count`, kept with them.
 */
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { installList } from '../list-structures.ts';

export function appsApi(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('app_keys')
        .addColumn('key', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('master_app_id', 'integer', (c) =>
          c.notNull().references('master_apps.id').onDelete('cascade'),
        )
        .addColumn('created_at', d.timestampType, (c) => c.notNull())
        .addColumn('retires_at', d.timestampType)
        .execute();
      await db.schema
        .createIndex('app_keys_master_app')
        .on('app_keys')
        .columns(['master_app_id', 'created_at'])
        .execute();
      // Every app there is gets its key now; a new app gets one when it is created.
      const apps = await db.selectFrom('master_apps').select('id').execute();
      const at = new Date().toISOString();
      for (const app of apps as { id: number }[]) {
        await db
          .insertInto('app_keys')
          .values({ key: newAppKey(), master_app_id: app.id, created_at: at })
          .execute();
      }

      await db.schema.alterTable('sessions').addColumn('master_app_id', 'integer').execute();
      await db.schema.alterTable('sessions').addColumn('device_name', 'varchar(100)').execute();
      await db.schema.alterTable('sessions').addColumn('platform', 'varchar(16)').execute();

      await db.schema
        .createTable('app_refresh_tokens')
        // SHA-256 (hex) of the token's secret part.
        .addColumn('token_hash', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('session_id', 'varchar(64)', (c) =>
          c.notNull().references('sessions.id').onDelete('cascade'),
        )
        .addColumn('created_at', d.timestampType, (c) => c.notNull())
        .addColumn('used_at', d.timestampType)
        .execute();
      await db.schema
        .createIndex('app_refresh_tokens_session')
        .on('app_refresh_tokens')
        .column('session_id')
        .execute();

      await db.schema
        .createTable('otp_codes')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('master_app_id', 'integer', (c) =>
          c.notNull().references('master_apps.id').onDelete('cascade'),
        )
        .addColumn('phone_number', 'varchar(20)', (c) => c.notNull())
        // HMAC-SHA-256 (hex) of the code with the server's secret: six digits are too few for a
        // plain hash.
        .addColumn('code_hash', 'varchar(64)', (c) => c.notNull())
        .addColumn('ip', 'varchar(64)', (c) => c.notNull())
        .addColumn('tries', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('created_at', d.timestampType, (c) => c.notNull())
        .addColumn('expires_at', d.timestampType, (c) => c.notNull())
        .addColumn('used_at', d.timestampType)
        .execute();
      await db.schema
        .createIndex('otp_codes_number')
        .on('otp_codes')
        .columns(['master_app_id', 'phone_number', 'created_at'])
        .execute();
      await db.schema
        .createIndex('otp_codes_ip')
        .on('otp_codes')
        .columns(['ip', 'created_at'])
        .execute();

      await db.schema
        .createTable('user_activities')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('activity', 'varchar(20)', (c) => c.notNull())
        .addColumn('poster_id', 'integer')
        .addColumn('detail', 'varchar(40)')
        .addColumn('ip', 'varchar(64)')
        .addColumn('device', 'varchar(130)')
        .addColumn('created_at', d.timestampType, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('user_activities_account')
        .on('user_activities')
        .columns(['account_id', 'created_at', 'id'])
        .execute();
      await installList(db, d, {
        name: 'user_activities',
        table: 'user_activities',
        counts: [['account_id']],
        search: [],
      });
      await db.schema.alterTable('login_history').addColumn('device', 'varchar(130)').execute();

      await db.schema
        .createTable('poster_likes')
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('poster_id', 'integer', (c) =>
          c.notNull().references('posters.id').onDelete('cascade'),
        )
        .addColumn('created_at', d.timestampType, (c) => c.notNull())
        .addPrimaryKeyConstraint('poster_likes_pk', ['account_id', 'poster_id'])
        .execute();
      await db.schema
        .createIndex('poster_likes_poster')
        .on('poster_likes')
        .column('poster_id')
        .execute();

      await db.schema
        .createTable('notification_reads')
        .addColumn('notification_id', 'integer', (c) =>
          c.notNull().references('notifications.id').onDelete('cascade'),
        )
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('read_at', d.timestampType, (c) => c.notNull())
        .addPrimaryKeyConstraint('notification_reads_pk', ['notification_id', 'account_id'])
        .execute();
      await db.schema
        .alterTable('notifications')
        .addColumn('read_count', 'integer', (c) => c.notNull().defaultTo(0))
        .execute();
      // A user's feed: the app's broadcasts and their own, newest first.
      await db.schema
        .createIndex('notifications_app_account')
        .on('notifications')
        .columns(['master_app_id', 'account_id', 'created_at', 'id'])
        .execute();
    },
  };
}

/** A new app key: 32 URL-safe characters after a prefix that says what it is. */
export function newAppKey(): string {
  return `mak_${randomBytes(24).toString('base64url')}`;
}
