/**
 * Master apps' time zones (API.md, "Planning festivals"): an app's special days, poster dates and
 * schedules are read in its zone; an app without one follows the server's DEFAULT_TIME_ZONE.
 * For the calls that read days per app (the coverage call): one indexed read, no cache, so a
 * zone changed on any instance counts at once.
 */
import { zonedDayRange } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';

/** The zone an app follows: its own, else the server's default. */
export function effectiveTimeZone(own: string | null, fallback: string): string {
  return own ?? fallback;
}

/** A master app row with its zone as answers show it (the effective one, and whether default). */
export function withTimeZone<R extends { timeZone: string | null }>(row: R, fallback: string) {
  return {
    ...row,
    timeZone: effectiveTimeZone(row.timeZone, fallback),
    timeZoneIsDefault: row.timeZone === null,
  };
}

/** The zone of master app `masterAppId` (undefined when there is no such app). */
export async function appTimeZone(
  db: Db,
  masterAppId: number,
  fallback: string,
): Promise<string | undefined> {
  const row = await db
    .selectFrom('masterApps')
    .select('timeZone')
    .where('id', '=', masterAppId)
    .executeTakeFirst();
  return row && effectiveTimeZone(row.timeZone, fallback);
}

/** Every master app's zone, by id. */
export async function appTimeZones(db: Db, fallback: string): Promise<Map<number, string>> {
  const rows = await db.selectFrom('masterApps').select(['id', 'timeZone']).execute();
  return new Map(rows.map((r) => [r.id, effectiveTimeZone(r.timeZone, fallback)]));
}

/** The app's local day `date` (YYYY-MM-DD) as [start, end) instants, in its zone. */
export async function appDayRange(
  db: Db,
  masterAppId: number,
  date: string,
  fallback: string,
): Promise<{ start: string; end: string } | undefined> {
  const zone = await appTimeZone(db, masterAppId, fallback);
  return zone === undefined ? undefined : zonedDayRange(date, zone);
}
