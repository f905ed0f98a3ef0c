import { sql } from 'kysely';
import { Migrator, type Migration, type MigrationResultSet } from 'kysely/migration';
import type { DatabaseHandle } from './connect.ts';
import type { Dialect } from './dialect.ts';
import { foundation } from './migrations/0001-foundation.ts';
import { content } from './migrations/0002-content.ts';
import { lists } from './migrations/0003-lists.ts';
import { loginThrottle } from './migrations/0004-login-throttle.ts';
import { authChanges } from './migrations/0005-auth-changes.ts';
import { sorts } from './migrations/0006-sorts.ts';
import { posters } from './migrations/0007-posters.ts';
import { videos } from './migrations/0008-videos.ts';
import { users } from './migrations/0009-users.ts';
import { staff } from './migrations/0010-staff.ts';
import { audit } from './migrations/0011-audit.ts';
import { trends } from './migrations/0012-trends.ts';
import { staffSearch } from './migrations/0013-staff-search.ts';
import { trendCounts } from './migrations/0014-trend-counts.ts';
import { listCountsStatistics } from './migrations/0015-list-counts-statistics.ts';
import { usersSearch } from './migrations/0016-users-search.ts';
import { topDownloads } from './migrations/0017-top-downloads.ts';
import { authChangesUnwatched } from './migrations/0018-auth-changes-unwatched.ts';
import { downloadsGoneInOrder } from './migrations/0019-downloads-gone-in-order.ts';
import { usersSorts } from './migrations/0020-users-sorts.ts';
import { versions } from './migrations/0021-versions.ts';
import { presence } from './migrations/0022-presence.ts';
import { secondFactors } from './migrations/0023-second-factors.ts';
import { recentProof } from './migrations/0024-recent-proof.ts';
import { eventStreams } from './migrations/0025-event-streams.ts';
import { idempotencyKeys } from './migrations/0026-idempotency-keys.ts';
import { appsApi } from './migrations/0027-apps-api.ts';
import { schedules } from './migrations/0028-schedules.ts';
import { trash } from './migrations/0029-trash.ts';
import { planning } from './migrations/0030-planning.ts';

/** Every migration in order. Names sort; a migration, once shipped, never changes. */
function migrations(d: Dialect): Record<string, Migration> {
  return {
    '0001-foundation': foundation(d),
    '0002-content': content(d),
    '0003-lists': lists(d),
    '0004-login-throttle': loginThrottle(d),
    '0005-auth-changes': authChanges(d),
    '0006-sorts': sorts(),
    '0007-posters': posters(d),
    '0008-videos': videos(d),
    '0009-users': users(d),
    '0010-staff': staff(d),
    '0011-audit': audit(d),
    '0012-trends': trends(d),
    '0013-staff-search': staffSearch(d),
    '0014-trend-counts': trendCounts(d),
    '0015-list-counts-statistics': listCountsStatistics(d),
    '0016-users-search': usersSearch(d),
    '0017-top-downloads': topDownloads(d),
    '0018-auth-changes-unwatched': authChangesUnwatched(d),
    '0019-downloads-gone-in-order': downloadsGoneInOrder(d),
    '0020-users-sorts': usersSorts(),
    '0021-versions': versions(),
    '0022-presence': presence(d),
    '0023-second-factors': secondFactors(d),
    '0024-recent-proof': recentProof(d),
    '0025-event-streams': eventStreams(d),
    '0026-idempotency-keys': idempotencyKeys(d),
    '0027-apps-api': appsApi(d),
    '0028-schedules': schedules(d),
    '0029-trash': trash(d),
    '0030-planning': planning(),
  };
}

/**
 * Brings the schema up to date (or to `target`, for tests of an upgrade). Safe to run from
 * several instances at once (migration lock).
 */
export async function migrateToLatest(handle: DatabaseHandle, target?: string): Promise<string[]> {
  // Migrations speak snake_case on their own, without the CamelCasePlugin.
  const migrator = new Migrator({
    db: handle.db.withoutPlugins(),
    provider: { getMigrations: async () => migrations(handle.dialect) },
  });
  const { error, results }: MigrationResultSet = await (target
    ? migrator.migrateTo(target)
    : migrator.migrateToLatest());
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    throw new Error(
      `Migration ${failed} failed: ${error instanceof Error ? error.message : 'unknown error'}`,
      { cause: error },
    );
  }
  const applied = (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
  if (applied.length > 0 && handle.sqlite) refreshPlannerStatistics(handle.sqlite);
  if (applied.length > 0 && handle.dialect.kind === 'postgres') await refreshPgStatistics(handle);
  return applied;
}

/**
 * The same on PostgreSQL, whose autovacuum may come late or, where it is turned off (as on the
 * machine these figures come from), never: the tables 0016 and 0017 filled with a million rows
 * each were planned without statistics, and the users' keyword fell from 35 requests a second
 * to 6. `analyze` samples (30,000 rows a table by default): seconds at millions of rows.
 */
async function refreshPgStatistics(handle: DatabaseHandle) {
  const analyzed = await sql`
    select 1 from pg_stat_user_tables
    where last_analyze is not null or last_autoanalyze is not null limit 1`.execute(handle.db);
  if (analyzed.rows.length > 0) await sql`analyze`.execute(handle.db);
}

/**
 * A database whose statistics were gathered (`analyze`: the bench's loader, an operator) gets
 * them again after a migration, so the planner knows the new indexes too: without their
 * statistics SQLite preferred a new index it knew nothing of (0012's, on special days) to the one
 * serving a list's order, and a page of posters by special day and app went from 2,000 to 900
 * requests a second. Sampled (`analysis_limit`), so it takes seconds at millions of rows. A
 * database never analyzed keeps planning without statistics, as it always has.
 */
function refreshPlannerStatistics(sqlite: NonNullable<DatabaseHandle['sqlite']>) {
  const analyzed = sqlite
    .prepare("select 1 from sqlite_master where type = 'table' and name = 'sqlite_stat1'")
    .get();
  if (!analyzed) return;
  sqlite.pragma('analysis_limit = 1000');
  sqlite.exec('analyze');
}
