/**
 * How many ACTIVE posters each special day has, in all and per master app: for the calendar and
 * the dashboard's next special days. One grouped count over the index `posters_special_day_active`
 * (special_day_id, status, master_app_id), read from the index alone.
 */
import { sql } from 'kysely';
import type { SpecialDayPosters, Status } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import type { ReadPool } from '../../db/reads.ts';

type Day = { id: number; name: string; month: number; day: number; status: Status };

export async function withActivePosters<T extends Day>(
  db: Db,
  reads: ReadPool,
  days: readonly T[],
  masterAppId?: number,
): Promise<Array<T & SpecialDayPosters>> {
  const apps = await db
    .selectFrom('masterApps')
    .select(['id', 'name'])
    .$if(masterAppId !== undefined, (qb) => qb.where('id', '=', masterAppId!))
    .orderBy('name')
    .orderBy('id')
    .execute();
  // On the read pool: a day with many posters is a long index range.
  const [counts = []] =
    days.length === 0
      ? []
      : ((await reads.run([
          db
            .selectFrom('posters')
            .select((eb) => ['specialDayId', 'masterAppId', eb.fn.countAll<number>().as('n')])
            // A literal, like the index's leading columns are probed: one range per day.
            .where('status', '=', sql.lit('ACTIVE'))
            .where(
              'specialDayId',
              'in',
              days.map((d) => d.id),
            )
            .$if(masterAppId !== undefined, (qb) => qb.where('masterAppId', '=', masterAppId!))
            .groupBy(['specialDayId', 'masterAppId'])
            .compile(),
        ])) as Array<Array<{ special_day_id: number; master_app_id: number; n: number | string }>>);
  const byDay = new Map<number, Map<number, number>>();
  for (const c of counts) {
    let perApp = byDay.get(c.special_day_id);
    if (!perApp) byDay.set(c.special_day_id, (perApp = new Map<number, number>()));
    perApp.set(c.master_app_id, Number(c.n));
  }
  return days.map((d) => {
    const perApp = byDay.get(d.id);
    const appCounts = apps.map((a) => ({
      id: a.id,
      name: a.name,
      activePosters: perApp?.get(a.id) ?? 0,
    }));
    return {
      ...d,
      activePosters: appCounts.reduce((sum, a) => sum + a.activePosters, 0),
      apps: appCounts,
    };
  });
}
