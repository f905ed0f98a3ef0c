/**
 * The dashboard's trends (issue #11): downloads, new posters and new users per day, week or month;
 * the top categories and posters by downloads; the next special days with their active posters.
 * Downloads are the per-day rows the content app writes (`poster_downloads`). The series read
 * the daily counts kept by triggers (`trend_counts`, migration 0014); the top lists the downloads
 * kept by triggers per category and per poster in days, weeks, months and years, and each
 * poster's all-time total (migration 0017); the special days the indexes named in migration 0012.
 */
import { sql } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  DATE_MAX,
  DATE_MIN,
  PATHS,
  TREND_MAX_BUCKETS,
  dashboardSpecialDays,
  dashboardSpecialDaysQuery,
  dashboardTop,
  dashboardTopQuery,
  dashboardTrend,
  dashboardTrendQuery,
  type TrendBucket,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { viewableMenus } from '../../auth/viewable.ts';
import { answers } from '../../http/schemas.ts';
import { invalidField } from '../../http/errors.ts';
import { withActivePosters } from '../special-days/active-posters.ts';
import {
  bucketCount,
  bucketStart,
  bucketStarts,
  bucketsBack,
  createdWindow,
  dayWindow,
  daysBetween,
  defaultBucket,
  today,
  addDays,
  coverDays,
  type Grain,
  type UnitRun,
} from './period.ts';

const PERIOD =
  'The period is that of `dashboard/getCount`: fromDate/toDate are whole UTC days, both included; ' +
  'inDays is the last N days (counted from now, as the counts are; downloads, recorded per day, ' +
  'from the whole day the window starts in), or with toDate the N whole days ending with it. ' +
  'Given together, every bound applies: the period starts at the later of fromDate and inDays. ' +
  'With none, all time. toDate must not be before fromDate (400 naming toDate). masterAppId ' +
  'narrows to one app. ';

/**
 * How many of the posters with the most downloads of all time, per poster asked for, a period's
 * top posters are first looked for among (each a primary-key range of its download days). At
 * the bench's million posters, 30 days' top 5 are found among the first 500 (0.25 ms on SQLite,
 * 2 on PostgreSQL, where summing the period's kept days and weeks takes 26 and 54), the top 20
 * among the first 2,000 (4 and 6 ms).
 */
const TOP_PROBE_PER_ROW = 100;

function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

const LAST_YEAR = Number(DATE_MAX.slice(0, 4));

/**
 * The first date on or after `from` (YYYY-MM-DD) that falls on month/day (29 February: in a leap
 * year), or undefined when that is after DATE_MAX, the last date the API writes.
 */
function nextDate(month: number, day: number, from: string): string | undefined {
  const date = (year: number) =>
    `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
  let year = Number(from.slice(0, 4));
  if (date(year) < from) year += 1;
  if (month === 2 && day === 29) while (!isLeapYear(year)) year += 1;
  return year > LAST_YEAR ? undefined : date(year);
}

const trendRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, media, database, dialect } = app.ctx;
  // The grouped counts may read many index entries: on the read pool, like list reads, so they
  // never hold the request thread (SQLite) or the pool of sign-in and writes (PostgreSQL).
  type Counted = { day: string; n: number | string };

  /** The first day any trend has data for (posters, live users, downloads); today if none. */
  async function firstDataDay(masterAppId?: number): Promise<string> {
    const [p, u, d] = await Promise.all([
      db
        .selectFrom('posters')
        .select((eb) => eb.fn.min('createdAt').as('first'))
        .$if(masterAppId !== undefined, (qb) => qb.where('masterAppId', '=', masterAppId!))
        .executeTakeFirst(),
      db
        .selectFrom('accounts')
        .select((eb) => eb.fn.min('createdAt').as('first'))
        .where('role', '=', sql.lit('USER'))
        .where('status', '<>', sql.lit('DELETED'))
        .$if(masterAppId !== undefined, (qb) => qb.where('masterAppId', '=', masterAppId!))
        .executeTakeFirst(),
      // Every app's: an early bound only adds empty buckets, and one app's would need a join.
      db
        .selectFrom('posterDownloads')
        .select((eb) => eb.fn.min('day').as('first'))
        .executeTakeFirst(),
    ]);
    const days = [p?.first, u?.first, d?.first]
      .filter((v): v is string => typeof v === 'string')
      .map((v) => (v.length > 10 ? new Date(v).toISOString().slice(0, 10) : v));
    return days.length === 0 ? today() : days.reduce((a, b) => (a < b ? a : b));
  }

  app.get(
    PATHS.dashboardTrends,
    {
      config: { access: access.menu('dashboard', 'VIEW') },
      schema: {
        tags: ['dashboard'],
        summary: 'Downloads, new posters and new users per day, week or month',
        description:
          PERIOD +
          'Buckets are UTC days, weeks starting on Monday, or calendar months; `start` is a ' +
          "bucket's first day (a week's Monday, a month's 1st, possibly before the period, " +
          `never before ${DATE_MIN}: the week holding that day starts there) and ` +
          'only rows within the period are counted in it. Every bucket from the one holding ' +
          '`from` to the one holding `to` is answered, zeros included. Without bucket: day for ' +
          'up to 92 days, week up to 730, month beyond. `to` is toDate, or today; `from` is ' +
          'the later of fromDate and the first day of inDays, or (all time or toDate alone) the ' +
          'first day with ' +
          `data, at most ${TREND_MAX_BUCKETS} buckets back. A period of more than ` +
          `${TREND_MAX_BUCKETS} buckets → 400 naming bucket. downloads sums the per-day ` +
          'downloads the content app records (`poster_downloads`); posters counts posters ' +
          'created (any status); users counts end users created that are not DELETED, and is ' +
          'left out for a staff account that may not VIEW users.',
        querystring: dashboardTrendQuery,
        response: answers(dashboardTrend),
      },
    },
    async (request) => {
      const q = request.query;
      const appId = q.masterAppId;
      const days = dayWindow(q);
      const to = days.to ?? (days.from && days.from > today() ? days.from : today());
      const given = days.from;
      let from = given ?? (await firstDataDay(appId));
      if (from > to) from = to;
      const bucket: TrendBucket = q.bucket ?? defaultBucket(daysBetween(from, to));
      if (bucketCount(bucket, from, to) > TREND_MAX_BUCKETS) {
        if (given !== undefined) {
          throw invalidField(
            'bucket',
            `The period spans more than ${TREND_MAX_BUCKETS} ${bucket}s: choose a longer bucket or a shorter period`,
          );
        }
        from = bucketsBack(bucket, bucketStart(bucket, to), TREND_MAX_BUCKETS - 1);
      }
      // Creation times: the period's own bounds (inDays from now), or from the first day shown.
      const created = createdWindow(q);
      const createdFrom = given !== undefined ? created.from : `${from}T00:00:00.000Z`;
      const createdTo = created.to;

      // Whole days come from the kept counts (trend_counts, migration 0014); a period that starts
      // within a day (inDays, from now) counts that first day's rows from its start.
      const firstDay = createdFrom!.slice(0, 10);
      const partial = !createdFrom!.endsWith('T00:00:00.000Z');
      const keptFrom = partial ? addDays(firstDay, 1) : firstDay;
      const keptTo = createdTo === undefined ? to : createdTo.slice(0, 10);
      const kept = (metrics: Array<'posters' | 'users' | 'downloads'>, lo: string, hi: string) =>
        db
          .selectFrom('trendCounts')
          .select((eb) => ['metric', 'day', eb.fn.sum<number>('n').as('n')])
          .where('metric', 'in', metrics)
          .where('day', '>=', lo)
          .where('day', '<=', hi)
          .$if(appId !== undefined, (qb) => qb.where('masterAppId', '=', appId!))
          .groupBy(['metric', 'day'])
          .compile();
      const partialDay = (table: 'posters' | 'accounts') =>
        db
          .selectFrom(table)
          .select((eb) => [sql.lit(firstDay).as('day'), eb.fn.countAll<number>().as('n')])
          .$if(table === 'accounts', (qb) =>
            qb.where('role', '=', sql.lit('USER')).where('status', '<>', sql.lit('DELETED')),
          )
          .$if(appId !== undefined, (qb) => qb.where('masterAppId', '=', appId!))
          .where('createdAt', '>=', createdFrom!)
          .where('createdAt', '<', `${keptFrom}T00:00:00.000Z`)
          .compile();
      const [counted = [], downloads = [], postersFirst = [], usersFirst = []] =
        (await database.reads.run([
          kept(['posters', 'users'], keptFrom, keptTo),
          kept(['downloads'], from, to),
          ...(partial ? [partialDay('posters'), partialDay('accounts')] : []),
        ])) as Array<Array<Counted & { metric?: string }>>;
      const posters = [...counted.filter((r) => r.metric === 'posters'), ...postersFirst];
      const users = [...counted.filter((r) => r.metric === 'users'), ...usersFirst];

      // Keyed by the bucket's first day; a week beginning before DATE_MIN shows DATE_MIN.
      const starts = bucketStarts(bucket, from, to);
      const points = new Map(
        starts.map((start) => [
          start,
          { start: start < DATE_MIN ? DATE_MIN : start, downloads: 0, posters: 0, users: 0 },
        ]),
      );
      const add = (rows: Counted[], key: 'downloads' | 'posters' | 'users') => {
        for (const r of rows) {
          const point = points.get(bucketStart(bucket, String(r.day)));
          // A day outside the shown buckets (all time capped) is not shown.
          if (point) point[key] += Number(r.n);
        }
      };
      add(downloads, 'downloads');
      add(posters, 'posters');
      add(users, 'users');
      const mayViewUsers = (await viewableMenus(db, request.account, ['users'])).has('users');
      const shown = [...points.values()].map(({ users, ...rest }) =>
        mayViewUsers ? { ...rest, users } : rest,
      );
      return { bucket, from, to, points: shown };
    },
  );

  app.get(
    PATHS.dashboardTop,
    {
      config: { access: access.menu('dashboard', 'VIEW') },
      schema: {
        tags: ['dashboard'],
        summary: 'The categories and posters downloaded most in the period',
        description:
          PERIOD +
          'Downloads are the per-day rows the content app records (`poster_downloads`) on the ' +
          "period's days; a category's are those of its posters (in the app, when given). A " +
          "poster's downloads count for its current category and app, all of them (a poster " +
          'moved to another category or app takes its past downloads along). Only ' +
          'rows with downloads are listed, most first, ties by id; `limit` (1..20, default 5) ' +
          'each.',
        querystring: dashboardTopQuery,
        response: answers(dashboardTop),
      },
    },
    async (request) => {
      const q = request.query;
      const appId = q.masterAppId;
      const days = dayWindow(q);
      type Ranked = { id: number; name?: string; downloads: number | string };
      const none = { categories: [], posters: [] };
      // The days that hold downloads: the period is clamped to them, and a period holding them
      // all is all time (each poster's kept total).
      const [[bounds] = []] = (await database.reads.run([
        db
          .selectNoFrom((eb) => [
            eb
              .selectFrom('posterDownloads')
              .select((e) => e.fn.min('day').as('d'))
              .as('lo'),
            eb
              .selectFrom('posterDownloads')
              .select((e) => e.fn.max('day').as('d'))
              .as('hi'),
          ])
          .compile(),
      ])) as Array<Array<{ lo: string | null; hi: string | null }>>;
      if (!bounds?.lo || !bounds.hi) return none;
      const from = days.from !== undefined && days.from > bounds.lo ? days.from : bounds.lo;
      const to = days.to !== undefined && days.to < bounds.hi ? days.to : bounds.hi;
      if (from > to) return none;
      const allTime = from === bounds.lo && to === bounds.hi;
      // Units may reach past the clamped days up to the period's own bounds (no data there).
      const cover = (grains: readonly Grain[]) =>
        coverDays(from, to, grains, days.from ?? DATE_MIN, days.to ?? DATE_MAX);
      const ofApp = (column: string) =>
        appId !== undefined
          ? sql<boolean>`${sql.ref(column)} = ${appId}`
          : dialect.inIds(column, db.selectFrom('masterApps').select('id'));
      /** The kept rows of the period's units, the key and n of each (primary-key ranges). */
      const unitRows = (table: 'topCategoryDownloads' | 'topPosterDownloads', runs: UnitRun[]) => {
        const key = table === 'topCategoryDownloads' ? 'categoryId' : 'posterId';
        const [first, ...rest] = runs.map((r) =>
          db
            .selectFrom(table)
            .select([`${key} as id`, 'n'])
            .where('grain', '=', r.grain)
            .where(ofApp('masterAppId'))
            .where('start', '>=', r.first)
            .where('start', '<=', r.last),
        );
        return rest.reduce((all, one) => all.unionAll(one), first!);
      };
      const downloads = sql<number>`sum(${sql.ref('t.n')})`;
      const ranked = (table: 'topCategoryDownloads' | 'topPosterDownloads', runs: UnitRun[]) =>
        db
          .selectFrom(unitRows(table, runs).as('t'))
          .select(['t.id', downloads.as('downloads')])
          .groupBy('t.id')
          .having(downloads, '>', 0)
          .orderBy(downloads, 'desc')
          .orderBy('t.id')
          .limit(q.limit);
      const totals = db
        .selectFrom('topPosterTotals')
        .where('n', '>', 0)
        .$if(appId !== undefined, (qb) => qb.where('masterAppId', '=', appId!))
        .orderBy('n', 'desc')
        .orderBy('posterId');
      // A period's top posters, first tried from the posters with the most downloads of all
      // time: a poster's downloads in the period are at most its total, so once the k-th best
      // period sum among the `probed` largest totals exceeds the smallest of them, no other
      // poster can rank. Each probe is a primary-key range of its download days. When the bound
      // does not hold (fewer than k of them downloaded in the period, or the period's best are
      // not among the all-time best), the period's kept units are summed instead.
      const probed = TOP_PROBE_PER_ROW * q.limit;
      const probe = db
        .with('c', () => totals.select(['posterId', 'n']).limit(probed))
        .with('s', (qb) =>
          qb.selectFrom('c').select((eb) => [
            'c.posterId as id',
            eb
              .selectFrom('posterDownloads as d')
              .select(sql<number>`sum(${sql.ref('d.n')})`.as('n'))
              .whereRef('d.posterId', '=', 'c.posterId')
              .where('d.day', '>=', from)
              .where('d.day', '<=', to)
              .as('downloads'),
          ]),
        )
        .selectFrom('s')
        .select((eb) => [
          's.id',
          's.downloads',
          eb
            .selectFrom('c')
            .select((e) => e.fn.countAll().as('k'))
            .as('probed'),
          eb
            .selectFrom('c')
            .select((e) => e.fn.min('c.n').as('b'))
            .as('bound'),
        ])
        .where('s.downloads', '>', 0)
        .orderBy('s.downloads', 'desc')
        .orderBy('s.id')
        .limit(q.limit);
      type Probed = Ranked & { probed: number | string; bound: number | string };
      const [categories = [], first = []] = (await database.reads.run([
        db
          .selectFrom(ranked('topCategoryDownloads', cover(['d', 'w', 'm', 'y'])).as('r'))
          .innerJoin('categories as c', 'c.id', 'r.id')
          .select(['c.id as id', 'c.name as name', 'r.downloads as downloads'])
          .orderBy('r.downloads', 'desc')
          .orderBy('c.id')
          .compile(),
        allTime
          ? totals.select(['posterId as id', 'n as downloads']).limit(q.limit).compile()
          : probe.compile(),
      ])) as [Ranked[], Probed[]];
      const last = first[first.length - 1];
      const exact =
        allTime ||
        (last !== undefined &&
          (Number(last.probed) < probed ||
            (first.length === q.limit && Number(last.bound) < Number(last.downloads))));
      const posters = exact
        ? first
        : ((
            await database.reads.run([
              ranked('topPosterDownloads', cover(['d', 'w', 'm'])).compile(),
            ])
          )[0] as Ranked[]);
      const rows =
        posters.length === 0
          ? []
          : await db
              .selectFrom('posters as p')
              .innerJoin('categories as c', 'c.id', 'p.categoryId')
              .innerJoin('masterApps as a', 'a.id', 'p.masterAppId')
              .leftJoin('specialDays as s', 's.id', 'p.specialDayId')
              .select([
                'p.id',
                'p.poster',
                'c.id as categoryId',
                'c.name as categoryName',
                'a.id as appId',
                'a.name as appName',
                's.id as dayId',
                's.name as dayName',
              ])
              .where(
                'p.id',
                'in',
                posters.map((p) => p.id),
              )
              .execute();
      const byId = new Map(rows.map((r) => [r.id, r]));
      return {
        categories: categories.map((c) => ({
          id: c.id,
          name: c.name!,
          downloads: Number(c.downloads),
        })),
        posters: posters.flatMap((p) => {
          const r = byId.get(p.id);
          if (!r) return [];
          return [
            {
              id: r.id,
              poster: media.url(r.poster),
              category: { id: r.categoryId, name: r.categoryName },
              masterApp: { id: r.appId, name: r.appName },
              specialDay:
                r.dayId === null || r.dayName === null ? null : { id: r.dayId, name: r.dayName },
              downloads: Number(p.downloads),
            },
          ];
        }),
      };
    },
  );

  app.get(
    PATHS.dashboardSpecialDays,
    {
      config: { access: access.menu('dashboard', 'VIEW') },
      schema: {
        tags: ['dashboard'],
        summary: 'The next special days, with their ACTIVE posters in all and per app',
        description:
          'ACTIVE special days by their next date on or after fromDate (default: today, UTC), ' +
          'soonest first, ties by id; 29 February falls on the next leap year. `limit` 1..50, ' +
          'default 6. `activePosters` counts ACTIVE posters made for the day; `apps` holds ' +
          'every master app (or the one masterAppId names) with its count, zeros included, so ' +
          `a day or an app without posters shows. A day whose next date would be after ${DATE_MAX} ` +
          '(the last date the API writes) is left out: from 9999-12-31 on, only 31 December ' +
          'comes.',
        querystring: dashboardSpecialDaysQuery,
        response: answers(dashboardSpecialDays),
      },
    },
    async (request) => {
      const from = request.query.fromDate ?? today();
      const { limit, masterAppId } = request.query;
      // The next days in SQL, as nextDate orders them: this year's from `from` on (rank 0), then
      // next year's before it (1), then a 29 February whose year (or next year) has none: it
      // falls on a later leap year (2); ties by id. Ranks whose dates would be after DATE_MAX
      // are left out.
      const year = Number(from.slice(0, 4));
      const fromDay = Number(from.slice(5, 7)) * 100 + Number(from.slice(8, 10));
      const leap = (y: number) => (isLeapYear(y) ? 1 : 0);
      const lastRank = year === LAST_YEAR ? 0 : nextDate(2, 29, from) === undefined ? 1 : 2;
      const rank = sql<number>`case
        when month * 100 + day >= ${fromDay} and (month <> 2 or day <> 29 or ${leap(year)} = 1) then 0
        when month * 100 + day < ${fromDay} and (month <> 2 or day <> 29 or ${leap(year + 1)} = 1) then 1
        else 2 end`;
      const next = () =>
        db
          .selectFrom('specialDays')
          .select(['id', 'name', 'month', 'day', 'status'])
          .where('status', '=', 'ACTIVE')
          .where(rank, '<=', lastRank)
          .orderBy(rank)
          .orderBy('month')
          .orderBy('day')
          .orderBy('id')
          .limit(limit);
      const days = await withActivePosters(
        db,
        database.reads,
        `next ${from} ${limit}`,
        next,
        masterAppId,
      );
      return {
        result: days.flatMap((d) => {
          const date = nextDate(d.month, d.day, from);
          return date === undefined ? [] : [{ ...d, date }];
        }),
      };
    },
  );
};
export default trendRoutes;
