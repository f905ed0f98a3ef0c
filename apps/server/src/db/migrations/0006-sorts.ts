/**
 * An index for every field a list may be sorted by (`sort`, API.md), ties broken by id; text
 * fields sort whatever the letter case, so their index is on lower(). Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

const SORT_INDEXES: Array<[table: string, column: string, caseless?: true]> = [
  ['master_apps', 'name', true],
  ['banners', 'status'],
  ['banners', 'link_type'],
  ['blogs', 'title', true],
  ['blogs', 'date'],
  ['blogs', 'status'],
  ['pages', 'title', true],
  ['pages', 'updated_at'],
  ['faqs', 'question', true],
  ['categories', 'name', true],
  ['categories', 'download_count'],
  ['categories', 'status'],
  ['special_days', 'name', true],
  ['special_days', 'created_at'],
  ['contact_us', 'f_name', true],
  ['contact_us', 'email', true],
  ['settings', 'title', true],
  ['settings', 'updated_at'],
  ['notifications', 'title', true],
];

export function sorts(): Migration {
  return {
    async up(db: Kysely<any>) {
      for (const [table, column, caseless] of SORT_INDEXES) {
        await db.schema
          .createIndex(`${table}_sort_${column}`)
          .on(table)
          .expression(caseless ? sql`lower(${sql.ref(column)}), id` : sql`${sql.ref(column)}, id`)
          .execute();
      }
    },
  };
}
