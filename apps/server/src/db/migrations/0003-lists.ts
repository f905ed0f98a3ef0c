/**
 * Lists that stay fast at millions of rows (list-structures.ts): the counts table, pg_trgm on
 * PostgreSQL, and for each existing list its kept counts, its trigram search index and the
 * triggers that keep both; plus the (app, status, created) index banners lacked. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { createListCountsTable, installList, type ListStructure } from '../list-structures.ts';

const LISTS: ListStructure[] = [
  { name: 'master_apps', table: 'master_apps', counts: [[]], search: ['name'] },
  {
    name: 'banners',
    table: 'banners',
    counts: [['master_app_id', 'status', 'link_type']],
    search: ['link'],
  },
  {
    name: 'blogs',
    table: 'blogs',
    counts: [['status']],
    search: ['title', 'author', 'short_desc'],
  },
  { name: 'pages', table: 'pages', counts: [['master_app_id']], search: ['title'] },
  { name: 'faqs', table: 'faqs', counts: [[]], search: ['question', 'answer'] },
  { name: 'categories', table: 'categories', counts: [['status']], search: ['name'] },
  { name: 'special_days', table: 'special_days', counts: [['status']], search: ['name'] },
  {
    name: 'contact_us',
    table: 'contact_us',
    counts: [[]],
    search: ['f_name', 'l_name', 'email', 'phone_number', 'query'],
  },
  { name: 'settings', table: 'settings', counts: [['master_app_id']], search: ['title'] },
  {
    name: 'notifications',
    table: 'notifications',
    counts: [['master_app_id']],
    search: ['title', 'desc'],
  },
];

export function lists(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      if (d.kind === 'postgres') await sql`create extension if not exists pg_trgm`.execute(db);
      await createListCountsTable(db);
      for (const list of LISTS) await installList(db, d, list);
      await db.schema
        .createIndex('banners_app_status_created')
        .on('banners')
        .columns(['master_app_id', 'status', 'created_at', 'id'])
        .execute();
    },
  };
}
