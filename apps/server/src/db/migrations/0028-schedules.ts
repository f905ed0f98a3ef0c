/**
 * Festival planning (issue #35, API.md "Planning festivals"): schedules and time zones. Frozen.
 *
 * - `master_apps.time_zone`: the IANA zone the app's special days, poster dates and schedules are
 *   read in; null means the server's DEFAULT_TIME_ZONE.
 * - `live_from` / `live_until` on posters, videos and banners: the window in which an ACTIVE row
 *   is live (either end open when null). Read at query time; no job flips statuses.
 * - Partial indexes on each end, holding only rows that have it (most rows have no window): the
 *   `live` lists count the rows outside or past their window there, whatever the table's size
 *   (db/lists.ts, LiveSpec), with the app and status in the entry so a count by app reads no row.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

const SCHEDULED = ['posters', 'videos', 'banners'] as const;

export function schedules(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable('master_apps').addColumn('time_zone', 'varchar(64)').execute();
      for (const table of SCHEDULED) {
        await db.schema.alterTable(table).addColumn('live_from', d.timestampType).execute();
        await db.schema.alterTable(table).addColumn('live_until', d.timestampType).execute();
        for (const end of ['live_from', 'live_until']) {
          await db.schema
            .createIndex(`${table}_${end}`)
            .on(table)
            .columns([end, 'master_app_id', 'status'])
            .where(sql.ref(end), 'is not', null)
            .execute();
        }
      }
    },
  };
}
