/**
 * Row versions (issue #23, API.md "Versions"): every table whose rows a call can change gets a
 * `version` that starts at 1 and that every change moves (db/versions.ts adds `version + 1` to
 * each UPDATE of these tables). Adding a column with a constant default rewrites no row on either
 * engine, so this is quick at a million rows. Frozen.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export const VERSIONED_TABLES_0021 = [
  'accounts',
  'master_apps',
  'menus',
  'categories',
  'special_days',
  'posters',
  'videos',
  'banners',
  'blogs',
  'pages',
  'faqs',
  'settings',
  'notifications',
  'contact_us',
  'user_images',
] as const;

export function versions(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const table of VERSIONED_TABLES_0021) {
        await db.schema
          .alterTable(table)
          .addColumn('version', 'integer', (c) => c.notNull().defaultTo(1))
          .execute();
      }
    },
  };
}
