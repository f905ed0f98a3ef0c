/**
 * Videos (issue #8): one row per upload to one master app, pointing at a stored file by its media
 * key; rows of identical bytes share the file. A list (list-structures.ts): kept counts for the
 * app and status filters, an index for each filter that also serves the newest-first order
 * (ties by id), and one for each field the list may be sorted by. The keyword searches the master
 * app's name through that list's own search index, so videos have none of their own. Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import { SIDES, STATUSES } from '@master-admin/contract';
import type { Dialect } from '../dialect.ts';
import { installList } from '../list-structures.ts';

const list = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(', '));

export function videos(d: Dialect): Migration {
  const ts = d.timestampType;
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('videos')
        .addColumn('id', 'integer', d.idColumn)
        .addColumn('master_app_id', 'integer', (c) => c.notNull().references('master_apps.id'))
        // The staff or admin account that uploaded it.
        .addColumn('account_id', 'integer', (c) => c.notNull().references('accounts.id'))
        // Media key of the stored file.
        .addColumn('video', 'varchar(300)', (c) => c.notNull())
        .addColumn('top_def_num', 'integer', (c) => c.notNull())
        .addColumn('self_def_num', 'integer', (c) => c.notNull())
        .addColumn('bottom_def_num', 'integer', (c) => c.notNull())
        .addColumn('position', 'varchar(5)', (c) =>
          c.notNull().check(sql`position in (${list(SIDES)})`),
        )
        .addColumn('date', d.dateType)
        .addColumn('download_count', 'integer', (c) => c.notNull().defaultTo(0))
        .addColumn('status', 'varchar(20)', (c) =>
          c.notNull().check(sql`status in (${list(STATUSES)})`),
        )
        .addColumn('created_at', ts, (c) => c.notNull())
        .addColumn('updated_at', ts, (c) => c.notNull())
        .execute();
      await installList(db, d, {
        name: 'videos',
        table: 'videos',
        counts: [['master_app_id', 'status']],
        search: [],
      });
      for (const [name, columns] of [
        ['videos_created', ['created_at', 'id']],
        ['videos_app_created', ['master_app_id', 'created_at', 'id']],
        ['videos_status_created', ['status', 'created_at', 'id']],
        ['videos_app_status_created', ['master_app_id', 'status', 'created_at', 'id']],
        ['videos_sort_date', ['date', 'id']],
        ['videos_sort_download_count', ['download_count', 'id']],
        ['videos_sort_status', ['status', 'id']],
        // Files shared by rows of identical bytes: found when one row goes, and by the embed page.
        ['videos_video', ['video']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('videos')
          .columns([...columns])
          .execute();
      }
    },
  };
}
