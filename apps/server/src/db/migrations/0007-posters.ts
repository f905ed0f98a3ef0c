/**
 * Posters as a list (list-structures.ts): kept counts for every filter the list takes, an index
 * for each filter that also serves the newest-first order (ties by id), and one for each field
 * the list may be sorted by. The keyword searches the names of the poster's category and special
 * day through those lists' own search indexes, so posters have none of their own. Frozen.
 */
import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';
import { installList } from '../list-structures.ts';

export function posters(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await installList(db, d, {
        name: 'posters',
        table: 'posters',
        counts: [
          ['master_app_id', 'status'],
          ['category_id', 'status', 'master_app_id'],
          ['special_day_id', 'status', 'master_app_id'],
          ['category_id', 'special_day_id', 'status', 'master_app_id'],
        ],
        search: [],
      });
      // The foundation's category and special-day indexes lacked the id that breaks ties.
      await db.schema.dropIndex('posters_category').execute();
      await db.schema.dropIndex('posters_special_day').execute();
      for (const [name, columns] of [
        ['posters_category_created', ['category_id', 'created_at', 'id']],
        ['posters_special_day_created', ['special_day_id', 'created_at', 'id']],
        ['posters_sort_date', ['date', 'id']],
        ['posters_sort_download_count', ['download_count', 'id']],
        ['posters_sort_status', ['status', 'id']],
        // Files shared by the rows of a poster made for all apps: found when one row goes.
        ['posters_poster', ['poster']],
        ['posters_video_thumb', ['video_thumb']],
      ] as const) {
        await db.schema
          .createIndex(name)
          .on('posters')
          .columns([...columns])
          .execute();
      }
    },
  };
}
