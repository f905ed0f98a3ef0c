/**
 * Festival planning (issue #35): what the coverage call (features/planning/coverage.ts) reads.
 * Frozen.
 *
 * - `posters_scheduled`: the ACTIVE posters that have a window, by special day and app. Those
 *   without one are counted from the posters list's kept totals; only scheduled ones are read.
 * - `videos_planned`: videos by status, date and app, with their window, so a period's ACTIVE
 *   videos are counted from the index alone. Not partial: with status as its first column the
 *   planners see an equality and a range on it, where a partial index lost to (status, id).
 */
import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export function planning(): Migration {
  return {
    async up(db: Kysely<any>) {
      await sql`create index posters_scheduled on posters (special_day_id, master_app_id, live_from, live_until) where status = 'ACTIVE' and (live_from is not null or live_until is not null)`.execute(
        db,
      );
      await sql`create index videos_planned on videos (status, date, master_app_id, live_from, live_until)`.execute(
        db,
      );
    },
  };
}
