/**
 * Coverage (API.md "Planning festivals"): per day and master app, how many posters and videos
 * will be live that day for its special days.
 *
 * Cheap at a million posters: the special days and apps are small tables, read first; then one
 * batch on the read pool reads (1) the posters list's kept ACTIVE totals by special day and app
 * (`list_counts`, a few rows a special day), (2) only the ACTIVE posters that have a schedule,
 * grouped by special day, app and window (partial index `posters_scheduled`, migration 0030), and
 * (3) the ACTIVE videos dated inside the period grouped by app, date and window (index
 * `videos_planned`). A poster without a window is live all day; a scheduled one counts when its
 * window overlaps the day in the app's time zone, so posters = kept total − scheduled + scheduled
 * and live that day.
 */
import { sql } from 'kysely';
import type { Coverage, CoverageQuery } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import type { ReadPool } from '../../db/reads.ts';
import { COUNT_KEYS } from '../../db/list-structures.ts';
import { POSTER_COUNTS } from '../posters/counts.ts';
import { zonedDayRange } from '@master-admin/contract';
import { effectiveTimeZone } from '../master-apps/time-zones.ts';

/** The next calendar date after `date` (YYYY-MM-DD). */
function nextDate(date: string): string {
  return new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
}

const BY_DAY = POSTER_COUNTS.findIndex(
  (set) => set.length === 3 && set[0] === 'specialDayId' && set.includes('status'),
);
const key = (name: 'specialDayId' | 'status' | 'masterAppId') =>
  COUNT_KEYS[(POSTER_COUNTS[BY_DAY] as readonly string[]).indexOf(name)]!;

type SpecialDayRow = { id: number; name: string; month: number; day: number; year: number | null };
type AppRow = { id: number; name: string; time_zone: string | null };
type Windowed = { live_from: string | null; live_until: string | null; n: number | string };

/** The dates of the period, in order. */
export function datesOf(from: string, days: number): string[] {
  const dates = [from];
  // The calendar's dates end at 9999-12-31 (dates.ts): a period asked past it stops there.
  while (dates.length < days && dates[dates.length - 1]! < LAST_DATE) {
    dates.push(nextDate(dates[dates.length - 1]!));
  }
  return dates;
}
const LAST_DATE = '9999-12-31';

/**
 * Whether a special day falls on `date`: same month and day, in every year when its `year` is
 * null, else in that year only. 29 February falls on leap years only (there is no such date else).
 */
export function fallsOn(day: Pick<SpecialDayRow, 'month' | 'day' | 'year'>, date: string): boolean {
  const [y, m, d] = date.split('-').map(Number);
  return day.month === m && day.day === d && (day.year === null || day.year === y);
}

/** Whether a window (either end open when null) overlaps [start, end). */
function overlaps(row: Windowed, start: number, end: number): boolean {
  if (row.live_from !== null && Date.parse(row.live_from) >= end) return false;
  if (row.live_until !== null && Date.parse(row.live_until) <= start) return false;
  return true;
}

export async function readCoverage(
  db: Db,
  reads: ReadPool,
  query: Required<Pick<CoverageQuery, 'from'>> & { days: number; masterAppId?: number | undefined },
  /** The zone of an app whose own is null (config DEFAULT_TIME_ZONE). */
  defaultTimeZone: string,
): Promise<{ coverage: Coverage; appFound: boolean }> {
  const { masterAppId } = query;
  const dates = datesOf(query.from, query.days);
  const first = dates[0]!;
  const last = dates[dates.length - 1]!;
  const months = [...new Set(dates.map((d) => Number(d.slice(5, 7))))];

  const [specialRows = [], appRows = []] = (await reads.run([
    db
      .selectFrom('specialDays')
      .select(['id', 'name', 'month', 'day', 'year'])
      .where('status', '=', 'ACTIVE')
      .where('month', 'in', months)
      .orderBy('month')
      .orderBy('day')
      .orderBy('id')
      .compile(),
    db
      .selectFrom('masterApps')
      .select(['id', 'name', 'timeZone'])
      .$if(masterAppId !== undefined, (qb) => qb.where('id', '=', masterAppId!))
      .orderBy('name')
      .orderBy('id')
      .compile(),
  ])) as [SpecialDayRow[], AppRow[]];

  const byDate = dates.map((date) => ({
    date,
    specialDays: specialRows.filter((s) => fallsOn(s, date)),
  }));
  const ids = [...new Set(byDate.flatMap((d) => d.specialDays.map((s) => s.id)))];

  const [kept = [], scheduled = [], videos = []] = (await reads.run([
    db
      .selectFrom('listCounts')
      .select([
        `${key('specialDayId')} as specialDayId`,
        `${key('masterAppId')} as masterAppId`,
        'n',
      ])
      .where('list', '=', 'posters')
      .where('grp', '=', BY_DAY)
      .where(key('status'), '=', 'ACTIVE')
      .where(key('specialDayId'), 'in', ids.length ? ids.map(String) : ['0'])
      .$if(masterAppId !== undefined, (qb) =>
        qb.where(key('masterAppId'), '=', String(masterAppId)),
      )
      .compile(),
    db
      .selectFrom('posters')
      .select(['specialDayId', 'masterAppId', 'liveFrom', 'liveUntil'])
      .select((eb) => eb.fn.countAll().as('n'))
      // Literal terms, as the partial index states them, so SQLite's planner can use it.
      .where(sql<boolean>`status = 'ACTIVE' and (live_from is not null or live_until is not null)`)
      .where('specialDayId', 'in', ids.length ? ids : [0])
      .$if(masterAppId !== undefined, (qb) => qb.where('masterAppId', '=', masterAppId!))
      .groupBy(['specialDayId', 'masterAppId', 'liveFrom', 'liveUntil'])
      .compile(),
    db
      .selectFrom('videos')
      .select(['masterAppId', 'date', 'liveFrom', 'liveUntil'])
      .select((eb) => eb.fn.countAll().as('n'))
      .where(sql<boolean>`status = 'ACTIVE'`)
      .where('date', '>=', first)
      .where('date', '<=', last)
      .$if(masterAppId !== undefined, (qb) => qb.where('masterAppId', '=', masterAppId!))
      .groupBy(['masterAppId', 'date', 'liveFrom', 'liveUntil'])
      .compile(),
  ])) as [
    Array<{ special_day_id: string; master_app_id: string; n: number | string }>,
    Array<Windowed & { special_day_id: number; master_app_id: number }>,
    Array<Windowed & { master_app_id: number; date: string }>,
  ];

  const pair = (a: number | string, b: number | string) => `${a}|${b}`;
  const keptBy = new Map<string, number>();
  for (const c of kept) keptBy.set(pair(c.special_day_id, c.master_app_id), Number(c.n));
  const scheduledBy = new Map<string, Windowed[]>();
  for (const s of scheduled) {
    const k = pair(s.special_day_id, s.master_app_id);
    const list = scheduledBy.get(k) ?? [];
    list.push(s);
    scheduledBy.set(k, list);
  }
  const videosBy = new Map<string, Windowed[]>();
  for (const v of videos) {
    const k = pair(v.master_app_id, v.date);
    const list = videosBy.get(k) ?? [];
    list.push(v);
    videosBy.set(k, list);
  }

  const days = byDate.map(({ date, specialDays }) => ({
    date,
    specialDays: specialDays.map((s) => ({ id: s.id, name: s.name })),
    apps: appRows.map((app) => {
      const range = zonedDayRange(date, effectiveTimeZone(app.time_zone, defaultTimeZone));
      const [start, end] = [Date.parse(range.start), Date.parse(range.end)];
      let posters = 0;
      for (const s of specialDays) {
        const k = pair(s.id, app.id);
        posters += keptBy.get(k) ?? 0;
        for (const w of scheduledBy.get(k) ?? []) {
          // The kept total counts every ACTIVE poster; take back the scheduled ones not live.
          if (!overlaps(w, start, end)) posters -= Number(w.n);
        }
      }
      let videoCount = 0;
      for (const w of videosBy.get(pair(app.id, date)) ?? []) {
        if (overlaps(w, start, end)) videoCount += Number(w.n);
      }
      return { masterAppId: app.id, name: app.name, posters, videos: videoCount };
    }),
  }));
  return { coverage: { days }, appFound: masterAppId === undefined || appRows.length > 0 };
}
