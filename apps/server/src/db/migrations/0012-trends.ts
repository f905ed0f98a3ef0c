/**
 * Dashboard trends and the special-day calendar (issue #11). `poster_downloads` holds a poster's
 * downloads per UTC day, written by the content app (nothing in the back-office writes it); its
 * rows go with their poster. What each trend query reads:
 *
 * - `poster_downloads_day` (day, poster_id, n): downloads per day and the top lists in a window.
 * - new posters per day read the foundation's `posters_created` (created_at, id) and
 *   `posters_app_created` (master_app_id, created_at, id).
 * - new users per day read `accounts_role_created` (role, created_at, id) and
 *   `accounts_app_role_created` (master_app_id, role, created_at) within a window (the status of
 *   each match looked up), and `accounts_role_status_created` alone for all time. Partial indexes
 *   on live users were tried: SQLite's planner preferred these.
 * - `posters_special_day_active` (special_day_id, status, master_app_id): active posters per
 *   special day and app, for the next special days and the calendar.
 *
 * Frozen.
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';
import type { Dialect } from '../dialect.ts';

export function trends(d: Dialect): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable('poster_downloads')
        .addColumn('poster_id', 'integer', (c) =>
          c.notNull().references('posters.id').onDelete('cascade'),
        )
        .addColumn('day', d.dateType, (c) => c.notNull())
        .addColumn('n', 'integer', (c) => c.notNull().check(sql`n >= 0`))
        .addPrimaryKeyConstraint('poster_downloads_pk', ['poster_id', 'day'])
        .execute();
      await db.schema
        .createIndex('poster_downloads_day')
        .on('poster_downloads')
        .columns(['day', 'poster_id', 'n'])
        .execute();

      await db.schema
        .createIndex('posters_special_day_active')
        .on('posters')
        .columns(['special_day_id', 'status', 'master_app_id'])
        .execute();
    },
  };
}
