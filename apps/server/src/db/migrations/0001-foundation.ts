/**
 * Accounts, sessions, login history and throttling, master apps, menus and permissions, and the
 * content tables the dashboard counts (categories, special days, posters). Frozen: later changes
 * go in new migrations.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import {
  BUILT_IN_MENUS,
  LOGIN_DIRECTIONS,
  PERMISSION_KINDS,
  ROLES,
  SIDES,
  STATUSES,
} from '@master-admin/contract';
import type { Dialect } from '../dialect.ts';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export function foundation(d: Dialect): Migration {
  const ts = d.timestampType;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('master_apps')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('master_apps_name_unique')
        .on('master_apps')
        .expression(sql`lower(name)`)
        .unique()
        .execute();
      await db.schema
        .createIndex('master_apps_created')
        .on('master_apps')
        .columns(['created_at', 'id'])
        .execute();

      await db.schema
        .createTable('accounts')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('role', 'varchar(20)', (c) => c.notNull().check(sql`role in (${list(ROLES)})`))
        .addColumn('name', 'varchar(100)')
        .addColumn('email', 'varchar(254)')
        .addColumn('phone_number', 'varchar(20)')
        .addColumn('password_hash', 'varchar(255)')
        .addColumn('status', 'varchar(20)', (c) =>
          c.notNull().check(sql`status in (${list(STATUSES)})`),
        )
        .addColumn('master_app_id', 'integer', (c) => c.references('master_apps.id'))
        .addColumn('date_limit', d.dateType)
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      // Staff and admins sign in by email, so it is unique among them.
      await db.schema
        .createIndex('accounts_staff_email_unique')
        .on('accounts')
        .expression(sql`lower(email)`)
        .unique()
        .where(sql.ref('role'), '<>', 'USER')
        .execute();
      await db.schema
        .createIndex('accounts_user_phone_unique')
        .on('accounts')
        .columns(['master_app_id', 'phone_number'])
        .unique()
        .where(sql.ref('role'), '=', 'USER')
        .execute();
      await db.schema
        .createIndex('accounts_role_created')
        .on('accounts')
        .columns(['role', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('accounts_app_role_created')
        .on('accounts')
        .columns(['master_app_id', 'role', 'created_at'])
        .execute();
      await db.schema.createIndex('accounts_phone').on('accounts').column('phone_number').execute();

      await db.schema
        .createTable('sessions')
        .addColumn('id', 'varchar(64)', (c) => c.primaryKey())
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('ip', 'varchar(64)')
        .addColumn('user_agent', 'varchar(512)')
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('expires_at', ts, (c) => c.notNull())
        .addColumn('revoked_at', ts)
        .execute();
      await db.schema.createIndex('sessions_account').on('sessions').column('account_id').execute();

      await db.schema
        .createTable('login_history')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('ip', 'varchar(64)')
        .addColumn('latitude', 'double precision')
        .addColumn('longitude', 'double precision')
        .addColumn('status', 'varchar(3)', (c) =>
          c.notNull().check(sql`status in (${list(LOGIN_DIRECTIONS)})`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_history_account_created')
        .on('login_history')
        .columns(['account_id', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('login_failures')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('key', 'varchar(300)', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('login_failures_key_created')
        .on('login_failures')
        .columns(['key', 'created_at'])
        .execute();
      await db.schema
        .createIndex('login_failures_created')
        .on('login_failures')
        .column('created_at')
        .execute();

      await db.schema
        .createTable('menus')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('name', 'varchar(50)', (c) => c.notNull().unique())
        .addColumn('title', 'varchar(100)', (c) => c.notNull())
        .addColumn('built_in', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable('permissions')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('name', 'varchar(20)', (c) => c.notNull().unique())
        .execute();

      await db.schema
        .createTable('user_permissions')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('account_id', 'integer', (c) =>
          c.notNull().references('accounts.id').onDelete('cascade'),
        )
        .addColumn('menu_id', 'integer', (c) =>
          c.notNull().references('menus.id').onDelete('cascade'),
        )
        .addColumn('permission_id', 'integer', (c) =>
          c.notNull().references('permissions.id').onDelete('cascade'),
        )
        .addColumn('status', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('updated_at', ts, (c) => c.notNull())
        .addUniqueConstraint('user_permissions_unique', ['account_id', 'menu_id', 'permission_id'])
        .execute();
      await db.schema
        .createIndex('user_permissions_menu')
        .on('user_permissions')
        .column('menu_id')
        .execute();

      await db.schema
        .createTable('categories')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(20)', (c) =>
          c.notNull().check(sql`status in (${list(STATUSES)})`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('categories_name_unique')
        .on('categories')
        .expression(sql`lower(name)`)
        .unique()
        .execute();
      await db.schema
        .createIndex('categories_created')
        .on('categories')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('categories_status_created')
        .on('categories')
        .columns(['status', 'created_at', 'id'])
        .execute();

      await db.schema
        .createTable('special_days')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('name', 'varchar(100)', (c) => c.notNull())
        .addColumn('month', 'integer', (c) => c.notNull().check(sql`month between 1 and 12`))
        .addColumn('day', 'integer', (c) => c.notNull().check(sql`day between 1 and 31`))
        .addColumn('year', 'integer')
        .addColumn('status', 'varchar(20)', (c) =>
          c.notNull().check(sql`status in (${list(STATUSES)})`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('special_days_month_day')
        .on('special_days')
        .columns(['month', 'day', 'id'])
        .execute();

      await db.schema
        .createTable('posters')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('master_app_id', 'integer', (c) => c.notNull().references('master_apps.id'))
        .addColumn('category_id', 'integer', (c) => c.notNull().references('categories.id'))
        .addColumn('special_day_id', 'integer', (c) => c.references('special_days.id'))
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        .addColumn('top_def_num', 'integer', (c) => c.notNull())
        .addColumn('self_def_num', 'integer', (c) => c.notNull())
        .addColumn('bottom_def_num', 'integer', (c) => c.notNull())
        .addColumn('poster', 'varchar(300)', (c) => c.notNull())
        .addColumn('video_thumb', 'varchar(300)')
        .addColumn('date', d.dateType)
        .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(20)', (c) =>
          c.notNull().check(sql`status in (${list(STATUSES)})`),
        )
        .addColumn('position', 'varchar(5)', (c) =>
          c.notNull().check(sql`position in (${list(SIDES)})`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('posters_created')
        .on('posters')
        .columns(['created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('posters_app_created')
        .on('posters')
        .columns(['master_app_id', 'created_at', 'id'])
        .execute();
      await db.schema
        .createIndex('posters_category')
        .on('posters')
        .columns(['category_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('posters_special_day')
        .on('posters')
        .columns(['special_day_id', 'created_at'])
        .execute();
      await db.schema
        .createIndex('posters_status_created')
        .on('posters')
        .columns(['status', 'created_at', 'id'])
        .execute();

      const at = new Date().toISOString();
      await db
        .insertInto('menus')
        .values(
          BUILT_IN_MENUS.map((m) => ({
            name: m.name,
            title: m.title,
            built_in: d.kind === 'postgres' ? true : 1,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
      await db
        .insertInto('permissions')
        .values(PERMISSION_KINDS.map((name) => ({ name })))
        .execute();
    },
  };
}
