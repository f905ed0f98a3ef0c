/**
 * The content areas: banners, blogs, pages (with every existing app's standard pages), FAQs,
 * settings (logo per app), notifications and contact-us enquiries. Media columns hold storage
 * keys and are indexed, so "is this file still used?" is a lookup. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { LINK_TYPES, STANDARD_PAGES, STATUSES } from '@master-admin/contract';
import type { Dialect } from '../dialect.ts';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export function content(d: Dialect): Migration {
  const ts = d.timestampType;
  return {
    async up(db: Kysely<any>) {
      const index = (name: string, table: string, columns: string[]) =>
        db.schema.createIndex(name).on(table).columns(columns).execute();

      await db.schema
        .createTable('banners')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('master_app_id', 'integer', (c) =>
          c.notNull().references('master_apps.id').onDelete('cascade'),
        )
        .addColumn('image', 'varchar(300)', (c) => c.notNull())
        .addColumn('link', 'varchar(2048)')
        .addColumn('link_type', 'varchar(10)', (c) =>
          c.notNull().check(sql`link_type in (${list(LINK_TYPES)})`),
        )
        .addColumn('status', 'varchar(20)', (c) =>
          c.notNull().check(sql`status in (${list(STATUSES)})`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await index('banners_created', 'banners', ['created_at', 'id']);
      await index('banners_app_created', 'banners', ['master_app_id', 'created_at', 'id']);
      await index('banners_status_created', 'banners', ['status', 'created_at', 'id']);
      await index('banners_image', 'banners', ['image']);

      await db.schema
        .createTable('blogs')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('author', 'varchar(100)', (c) => c.notNull())
        .addColumn('short_desc', 'varchar(500)', (c) => c.notNull())
        .addColumn('desc', 'text', (c) => c.notNull())
        .addColumn('image', 'varchar(300)')
        .addColumn('date', d.dateType)
        .addColumn('popular', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('status', 'varchar(20)', (c) =>
          c.notNull().check(sql`status in (${list(STATUSES)})`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await index('blogs_created', 'blogs', ['created_at', 'id']);
      await index('blogs_status_created', 'blogs', ['status', 'created_at', 'id']);
      await index('blogs_image', 'blogs', ['image']);

      await db.schema
        .createTable('pages')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('master_app_id', 'integer', (c) =>
          c.notNull().references('master_apps.id').onDelete('cascade'),
        )
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('desc', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await index('pages_created', 'pages', ['created_at', 'id']);
      await index('pages_app_created', 'pages', ['master_app_id', 'created_at', 'id']);
      // Every existing app gets its standard pages, as a new one does.
      const apps = await db.selectFrom('master_apps').select('id').orderBy('id').execute();
      const at = new Date().toISOString();
      for (const app of apps as Array<{ id: number }>) {
        await db
          .insertInto('pages')
          .values(
            STANDARD_PAGES.map((title) => ({
              master_app_id: app.id,
              title,
              desc: '',
              created_at: at,
              updated_at: at,
            })),
          )
          .execute();
      }

      await db.schema
        .createTable('faqs')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('question', 'varchar(500)', (c) => c.notNull())
        .addColumn('answer', 'text', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await index('faqs_created', 'faqs', ['created_at', 'id']);

      await db.schema
        .createTable('settings')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('master_app_id', 'integer', (c) =>
          c.notNull().unique().references('master_apps.id').onDelete('cascade'),
        )
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('user_domain', 'varchar(255)')
        .addColumn('admin_domain', 'varchar(255)')
        .addColumn('mobile_domain', 'varchar(255)')
        .addColumn('logo', 'varchar(300)', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await index('settings_created', 'settings', ['created_at', 'id']);
      await index('settings_logo', 'settings', ['logo']);

      await db.schema
        .createTable('notifications')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('master_app_id', 'integer', (c) =>
          c.notNull().references('master_apps.id').onDelete('cascade'),
        )
        .addColumn('account_id', 'integer', (c) => c.references('accounts.id').onDelete('cascade'))
        .addColumn('title', 'varchar(200)', (c) => c.notNull())
        .addColumn('desc', 'varchar(2000)', (c) => c.notNull())
        .addColumn('type', 'varchar(50)', (c) => c.notNull())
        .addColumn('read', 'boolean', (c) => c.notNull().defaultTo(false))
        .addColumn('logo', 'varchar(300)')
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await index('notifications_created', 'notifications', ['created_at', 'id']);
      await index('notifications_app_created', 'notifications', [
        'master_app_id',
        'created_at',
        'id',
      ]);
      await index('notifications_account', 'notifications', ['account_id']);
      await index('notifications_logo', 'notifications', ['logo']);

      await db.schema
        .createTable('contact_us')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('f_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('l_name', 'varchar(100)', (c) => c.notNull())
        .addColumn('email', 'varchar(254)', (c) => c.notNull())
        .addColumn('phone_number', 'varchar(20)', (c) => c.notNull())
        .addColumn('query', 'varchar(5000)', (c) => c.notNull())
        .addColumn('created_at', ts, (c) => c.notNull())
        .execute();
      await index('contact_us_created', 'contact_us', ['created_at', 'id']);

      await index('special_days_status_month_day', 'special_days', [
        'status',
        'month',
        'day',
        'id',
      ]);
    },
  };
}
