/**
 * Dashboard trends, top lists, next special days and the special-day calendar: every number is
 * compared with SQL written here, bucket by bucket (plain range counts, no grouping by day).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import type { Status } from '@master-admin/contract';
import { startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());
const db = s.ctx.db;

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString();
const addDays = (day: string, n: number) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * DAY_MS).toISOString().slice(0, 10);

let appA: number;
let appB: number;
const categories: number[] = [];
const days: Record<string, number> = {};
let adminId: number;

async function insertApp(name: string) {
  const at = '2024-01-01T00:00:00.000Z';
  return (
    await db
      .insertInto('masterApps')
      .values({ name, createdAt: at, updatedAt: at })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

let phone = 0;
async function insertUser(masterAppId: number, createdAt: string, status: Status = 'ACTIVE') {
  phone += 1;
  const { id } = await db
    .insertInto('accounts')
    .values({
      role: 'USER',
      name: 'End User',
      email: null,
      phoneNumber: String(9000000000 + phone),
      passwordHash: null,
      status,
      masterAppId,
      dateLimit: null,
      createdAt,
      updatedAt: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

async function insertPoster(p: {
  app: number;
  category: number;
  day?: number;
  createdAt: string;
  status?: Status;
}) {
  return (
    await db
      .insertInto('posters')
      .values({
        masterAppId: p.app,
        categoryId: p.category,
        specialDayId: p.day ?? null,
        accountId: adminId,
        topDefNum: 1,
        selfDefNum: 1,
        bottomDefNum: 1,
        poster: `posters/aa/${p.createdAt}-${Math.random()}.webp`,
        videoThumb: null,
        date: null,
        status: p.status ?? 'ACTIVE',
        position: 'LEFT',
        createdAt: p.createdAt,
        updatedAt: p.createdAt,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

beforeAll(async () => {
  appA = await insertApp('Trend App A');
  appB = await insertApp('Trend App B');
  adminId = s.adminId;
  for (const name of ['Festivals', 'Greetings', 'Quotes']) {
    const at = '2025-01-01T00:00:00.000Z';
    categories.push(
      (
        await db
          .insertInto('categories')
          .values({ name, status: 'ACTIVE', createdAt: at, updatedAt: at })
          .returning('id')
          .executeTakeFirstOrThrow()
      ).id,
    );
  }
  for (const [name, month, day, status] of [
    ['Holi', 3, 10, 'ACTIVE'],
    ['Gudi Padwa', 3, 12, 'ACTIVE'],
    ['Old Fair', 3, 12, 'DEACTIVE'],
    ['Leap Day', 2, 29, 'ACTIVE'],
    ['Year End', 12, 31, 'ACTIVE'],
  ] as const) {
    const at = '2025-01-01T00:00:00.000Z';
    days[name] = (
      await db
        .insertInto('specialDays')
        .values({ name, month, day, year: null, status, createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
  }

  const [c1, c2, c3] = categories as [number, number, number];
  const posters: number[] = [];
  const specs: Array<Parameters<typeof insertPoster>[0]> = [
    { app: appA, category: c1, day: days.Holi, createdAt: '2025-03-01T00:00:00.000Z' },
    { app: appA, category: c1, day: days.Holi, createdAt: '2025-03-02T23:59:59.999Z' },
    { app: appB, category: c1, day: days.Holi, createdAt: '2025-03-03T00:00:00.000Z' },
    {
      app: appB,
      category: c2,
      day: days.Holi,
      createdAt: '2025-03-09T12:00:00.000Z',
      status: 'DEACTIVE',
    },
    { app: appA, category: c2, day: days['Gudi Padwa'], createdAt: '2025-03-10T08:00:00.000Z' },
    { app: appB, category: c3, createdAt: '2025-03-31T23:59:59.999Z' },
    { app: appA, category: c3, createdAt: '2025-04-01T00:00:00.000Z' },
    { app: appA, category: c2, createdAt: '2025-02-28T23:59:59.999Z' },
    { app: appB, category: c1, day: days['Old Fair'], createdAt: daysAgo(3) },
    { app: appA, category: c2, day: days['Year End'], createdAt: daysAgo(10), status: 'PENDING' },
  ];
  for (const spec of specs) posters.push(await insertPoster(spec));

  // Downloads on days of March (and around it), as the content app records them.
  const downloads: Array<[number, string, number]> = [];
  posters.forEach((id, i) => {
    for (let d = 0; d < 40; d += 3 + (i % 3)) {
      downloads.push([id, addDays('2025-02-25', d + i), (i * 7 + d) % 11]);
    }
  });
  downloads.push([posters[8]!, daysAgo(2).slice(0, 10), 50]);
  await db
    .insertInto('posterDownloads')
    .values(downloads.map(([posterId, day, n]) => ({ posterId, day, n })))
    .execute();

  await s.staff(); // back-office accounts are never counted as users
  await insertUser(appA, '2025-03-01T00:00:00.000Z');
  await insertUser(appA, '2025-03-03T10:00:00.000Z');
  await insertUser(appB, '2025-03-03T23:59:59.999Z');
  await insertUser(appA, '2025-03-05T12:00:00.000Z', 'DELETED');
  await insertUser(appA, '2025-03-06T12:00:00.000Z', 'DEACTIVE');
  await insertUser(appB, '2025-03-31T00:00:00.000Z');
  await insertUser(appB, '2025-02-27T00:00:00.000Z');
  await insertUser(appB, daysAgo(3));
  await insertUser(appA, daysAgo(12));
});

async function get(url: string, token = s.adminToken) {
  const res = await s.api({ method: 'GET', url, token });
  expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
  return res.json();
}

type Point = { start: string; downloads: number; posters: number; users: number };

/** What one bucket [start, next) within [from, to] holds, by plain range counts. */
async function expected(
  start: string,
  next: string,
  from: string,
  to: string,
  appId?: number,
  createdFrom?: string,
): Promise<Point> {
  const lo = start > from ? start : from;
  const hiExclusive = next <= to ? next : addDays(to, 1);
  const tsLo =
    createdFrom && createdFrom > `${lo}T00:00:00.000Z` ? createdFrom : `${lo}T00:00:00.000Z`;
  const tsHi = `${hiExclusive}T00:00:00.000Z`;
  const app = appId === undefined ? sql`` : sql` and master_app_id = ${appId}`;
  const posters = await sql<{ n: number }>`select count(*) as n from posters
    where created_at >= ${tsLo} and created_at < ${tsHi}${app}`.execute(db);
  const users = await sql<{ n: number }>`select count(*) as n from accounts
    where role = 'USER' and status <> 'DELETED' and created_at >= ${tsLo} and created_at < ${tsHi}${app}`.execute(
    db,
  );
  const dApp =
    appId === undefined
      ? sql``
      : sql` and poster_id in (select id from posters where master_app_id = ${appId})`;
  const downloads = await sql<{ n: number | null }>`select sum(n) as n from poster_downloads
    where day >= ${lo} and day < ${hiExclusive}${dApp}`.execute(db);
  return {
    start,
    downloads: Number(downloads.rows[0]?.n ?? 0),
    posters: Number(posters.rows[0]?.n ?? 0),
    users: Number(users.rows[0]?.n ?? 0),
  };
}

async function checkTrend(
  answer: { from: string; to: string; points: Point[] },
  nextOf: (start: string) => string,
  appId?: number,
  createdFrom?: string,
) {
  for (const point of answer.points) {
    expect(point).toEqual(
      await expected(point.start, nextOf(point.start), answer.from, answer.to, appId, createdFrom),
    );
  }
  for (let i = 1; i < answer.points.length; i++) {
    expect(answer.points[i]!.start).toBe(nextOf(answer.points[i - 1]!.start));
  }
}

const nextMonth = (start: string) => {
  const d = new Date(`${start}T00:00:00Z`);
  d.setUTCMonth(d.getUTCMonth() + 1);
  return d.toISOString().slice(0, 10);
};

describe('dashboard trends', () => {
  it('count each UTC day of a date range, zeros included', async () => {
    const t = await get('/dashboard/trends?fromDate=2025-03-01&toDate=2025-03-31&bucket=day');
    expect(t.bucket).toBe('day');
    expect([t.from, t.to]).toEqual(['2025-03-01', '2025-03-31']);
    expect(t.points).toHaveLength(31);
    await checkTrend(t, (d) => addDays(d, 1));
    // By hand: a poster at the last millisecond of 2 March, users on 3 March (one DELETED not).
    expect(t.points[1]).toMatchObject({ start: '2025-03-02', posters: 1 });
    expect(t.points[2]).toMatchObject({ start: '2025-03-03', posters: 1, users: 2 });
    const total = t.points.reduce((n: number, p: Point) => n + p.posters, 0);
    expect(total).toBe(6);
  });

  it('buckets weeks from Monday and months from the 1st, within the period only', async () => {
    const w = await get('/dashboard/trends?fromDate=2025-03-01&toDate=2025-03-31&bucket=week');
    // 1 March 2025 is a Saturday: its week starts on Monday 24 February.
    expect(w.points.map((p: Point) => p.start)).toEqual([
      '2025-02-24',
      '2025-03-03',
      '2025-03-10',
      '2025-03-17',
      '2025-03-24',
      '2025-03-31',
    ]);
    // The poster of 28 February is before the period: not in the first week's count.
    expect(w.points[0]).toMatchObject({ posters: 2 });
    await checkTrend(w, (d) => addDays(d, 7));
    const m = await get('/dashboard/trends?fromDate=2025-02-15&toDate=2025-04-15&bucket=month');
    expect(m.points.map((p: Point) => p.start)).toEqual(['2025-02-01', '2025-03-01', '2025-04-01']);
    await checkTrend(m, nextMonth);
  });

  it('stay within 1000-01-01 ..= 9999-12-31 at the range’s edges', async () => {
    const starts = async (query: string) =>
      ((await get(`/dashboard/trends?${query}`)).points as Point[]).map((p) => p.start);
    // 1 January 1000 is a Wednesday: its week starts there, not on Monday 30 December 999.
    expect(await starts('fromDate=1000-01-01&toDate=1000-01-12&bucket=week')).toEqual([
      '1000-01-01',
      '1000-01-06',
    ]);
    expect(await starts('fromDate=9999-12-20&toDate=9999-12-31&bucket=week')).toEqual([
      '9999-12-20',
      '9999-12-27',
    ]);
    const months = await starts('fromDate=9999-01-15&toDate=9999-12-31&bucket=month');
    expect(months).toHaveLength(12);
    expect(months.at(-1)).toBe('9999-12-01');
    expect(await starts('fromDate=9999-12-31')).toEqual(['9999-12-31']);
    const last = await get('/dashboard/trends?fromDate=9999-12-30&bucket=day');
    expect([last.from, last.to]).toEqual(['9999-12-30', '9999-12-30']);
  });

  it('narrow every series to one app', async () => {
    for (const app of [appA, appB]) {
      const t = await get(
        `/dashboard/trends?fromDate=2025-02-20&toDate=2025-04-10&masterAppId=${app}`,
      );
      expect(t.bucket).toBe('day');
      await checkTrend(t, (d) => addDays(d, 1), app);
    }
  });

  it('count the last inDays days as the counts do', async () => {
    const t = await get('/dashboard/trends?inDays=7');
    const counts = await get('/dashboard/getCount?inDays=7');
    const sum = (k: keyof Point) =>
      t.points.reduce((n: number, p: Point) => n + (p[k] as number), 0);
    expect(sum('posters')).toBe(counts.totalPoster);
    expect(sum('users')).toBe(counts.totalUser);
    expect(sum('downloads')).toBe(50);
    expect(t.to).toBe(new Date().toISOString().slice(0, 10));
    expect(t.points).toHaveLength(8);
  });

  it('take inDays with toDate as the days ending with it, and the later of it and fromDate', async () => {
    const ending = await get('/dashboard/trends?inDays=10&toDate=2025-03-10');
    expect([ending.from, ending.to, ending.points.length]).toEqual([
      '2025-03-01',
      '2025-03-10',
      10,
    ]);
    expect(ending).toEqual(await get('/dashboard/trends?fromDate=2025-03-01&toDate=2025-03-10'));
    await checkTrend(ending, (d) => addDays(d, 1));
    expect(await get('/dashboard/trends?fromDate=2025-03-05&toDate=2025-03-10&inDays=10')).toEqual(
      await get('/dashboard/trends?fromDate=2025-03-05&toDate=2025-03-10'),
    );
    expect(await get('/dashboard/trends?fromDate=2025-01-01&inDays=7')).toEqual(
      await get('/dashboard/trends?inDays=7'),
    );
    expect(await get('/dashboard/top?inDays=10&toDate=2025-03-10&limit=20')).toEqual(
      await get('/dashboard/top?fromDate=2025-03-01&toDate=2025-03-10&limit=20'),
    );
    const early = await get('/dashboard/trends?inDays=3650&toDate=1000-01-05&bucket=day');
    expect([early.from, early.to, early.points.length]).toEqual(['1000-01-01', '1000-01-05', 5]);
  });

  it('start all time at the first day with data, and cap it at 400 buckets', async () => {
    const all = await get('/dashboard/trends?bucket=month');
    expect(all.from).toBe('2025-02-25');
    const counts = await get('/dashboard/getCount');
    expect(all.points.reduce((n: number, p: Point) => n + p.posters, 0)).toBe(counts.totalPoster);
    expect(all.points.reduce((n: number, p: Point) => n + p.users, 0)).toBe(counts.totalUser);
    await checkTrend(all, nextMonth);
    const days = await get('/dashboard/trends?bucket=day');
    expect(days.points).toHaveLength(400);
    expect(days.from).toBe(addDays(days.to, -399));
    await checkTrend(days, (d) => addDays(d, 1));
    // No bucket chosen: weeks for a span of a year or two.
    expect((await get('/dashboard/trends')).bucket).toBe('week');
  });

  it('refuse a period of more than 400 buckets, naming bucket', async () => {
    const res = await s.api({
      method: 'GET',
      url: '/dashboard/trends?fromDate=2020-01-01&toDate=2025-01-01&bucket=day',
      token: s.adminToken,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toEqual(['bucket']);
    expect((await get('/dashboard/trends?fromDate=2020-01-01&toDate=2025-01-01')).bucket).toBe(
      'month',
    );
  });
});

/** The top lists as SQL over the download rows and their posters computes them. */
async function topSql(from?: string, to?: string, appId?: number, limit = 5) {
  const where = sql.join(
    [
      sql`1 = 1`,
      ...(from ? [sql`d.day >= ${from}`] : []),
      ...(to ? [sql`d.day <= ${to}`] : []),
      ...(appId ? [sql`p.master_app_id = ${appId}`] : []),
    ],
    sql` and `,
  );
  const cats = await sql<{ id: number; downloads: number }>`select p.category_id as id,
    sum(d.n) as downloads from poster_downloads d join posters p on p.id = d.poster_id
    where ${where} group by p.category_id having sum(d.n) > 0
    order by sum(d.n) desc, p.category_id limit ${limit}`.execute(db);
  const posters = await sql<{ id: number; downloads: number }>`select d.poster_id as id,
    sum(d.n) as downloads from poster_downloads d join posters p on p.id = d.poster_id
    where ${where} group by d.poster_id having sum(d.n) > 0
    order by sum(d.n) desc, d.poster_id limit ${limit}`.execute(db);
  const norm = (rows: Array<{ id: number; downloads: number }>) =>
    rows.map((r) => ({ id: Number(r.id), downloads: Number(r.downloads) }));
  return { categories: norm(cats.rows), posters: norm(posters.rows) };
}
const pick = (t: {
  categories: Array<{ id: number; downloads: number }>;
  posters: Array<{ id: number; downloads: number }>;
}) => ({
  categories: t.categories.map((c) => ({ id: c.id, downloads: c.downloads })),
  posters: t.posters.map((p) => ({ id: p.id, downloads: p.downloads })),
});

describe('dashboard top downloads', () => {
  it('rank categories and posters by the downloads of the period', async () => {
    const t = await get('/dashboard/top?fromDate=2025-03-01&toDate=2025-03-15');
    expect(pick(t)).toEqual(await topSql('2025-03-01', '2025-03-15'));
    expect(t.categories.length).toBeGreaterThan(1);
    expect(t.posters).toHaveLength(5);
    expect(t.posters[0]).toMatchObject({
      poster: expect.stringMatching(/^\/media\/posters\//),
      category: { id: expect.any(Number), name: expect.any(String) },
      masterApp: { id: expect.any(Number), name: expect.stringMatching(/^Trend App/) },
    });
    expect(t.categories[0].name).toEqual(expect.any(String));
  });

  it('narrow to an app, all time, and the last days', async () => {
    expect(pick(await get(`/dashboard/top?masterAppId=${appB}`))).toEqual(
      await topSql(undefined, undefined, appB),
    );
    expect(pick(await get('/dashboard/top?toDate=2025-03-05'))).toEqual(
      await topSql(undefined, '2025-03-05'),
    );
    const recent = await get('/dashboard/top?inDays=7&limit=20');
    expect(recent.posters).toEqual([expect.objectContaining({ downloads: 50 })]);
    expect(recent.posters[0].specialDay).toEqual({ id: days['Old Fair'], name: 'Old Fair' });
    expect(await get('/dashboard/top?fromDate=2030-01-01')).toEqual({
      categories: [],
      posters: [],
    });
  });
});

describe('next special days and the calendar', () => {
  async function activeSql(dayId: number, appId: number) {
    const r = await sql<{ n: number }>`select count(*) as n from posters
      where special_day_id = ${dayId} and master_app_id = ${appId} and status = 'ACTIVE'`.execute(
      db,
    );
    return Number(r.rows[0]?.n ?? 0);
  }

  it('list ACTIVE special days by next date with active posters per app', async () => {
    const { result } = await get('/dashboard/special-days?fromDate=2025-03-11&limit=10');
    const ours = result.filter((d: { id: number }) => Object.values(days).includes(d.id));
    expect(ours.map((d: { name: string; date: string }) => [d.name, d.date])).toEqual([
      ['Gudi Padwa', '2025-03-12'],
      ['Year End', '2025-12-31'],
      ['Holi', '2026-03-10'],
      ['Leap Day', '2028-02-29'],
    ]);
    for (const d of ours) {
      let total = 0;
      for (const a of d.apps) {
        expect(a.activePosters, `${d.name} ${a.name}`).toBe(await activeSql(d.id, a.id));
        total += a.activePosters;
      }
      expect(d.activePosters).toBe(total);
    }
    const holi = ours.find((d: { name: string }) => d.name === 'Holi');
    expect(holi.activePosters).toBe(3);
    // Year End's only poster is PENDING: flagged by zero.
    expect(ours.find((d: { name: string }) => d.name === 'Year End').activePosters).toBe(0);
  });

  it('order the next days by their next date from any day, 29 February included', async () => {
    type Next = { id: number; date: string };
    const order = (d: Next) => `${d.date} ${String(d.id).padStart(9, '0')}`;
    for (const fromDate of [
      '2025-03-11',
      '2027-03-01',
      '2027-12-31',
      '2028-02-01',
      '2028-02-29',
      '2028-03-01',
    ]) {
      const all = (await get(`/dashboard/special-days?fromDate=${fromDate}&limit=50`))
        .result as Next[];
      const sorted = [...all].sort((a, b) => (order(a) < order(b) ? -1 : 1));
      expect(
        all.map((d) => d.id),
        fromDate,
      ).toEqual(sorted.map((d) => d.id));
      expect(all.every((d) => d.date >= fromDate)).toBe(true);
      const first = (await get(`/dashboard/special-days?fromDate=${fromDate}&limit=3`))
        .result as Next[];
      expect(first.map((d) => d.id)).toEqual(all.slice(0, 3).map((d) => d.id));
    }
    // In a leap year before 29 February, the leap day is this year's.
    const leap = (await get('/dashboard/special-days?fromDate=2028-02-01&limit=50'))
      .result as Array<Next & { name: string }>;
    expect(leap.find((d) => d.name === 'Leap Day')?.date).toBe('2028-02-29');
  });

  it('stop at 9999-12-31: a day whose next date would come later is left out', async () => {
    type Next = { name: string; date: string };
    const from = async (fromDate: string, limit = 50) =>
      ((await get(`/dashboard/special-days?fromDate=${fromDate}&limit=${limit}`)).result as Next[])
        .filter((d) => Object.keys(days).includes(d.name))
        .map((d) => [d.name, d.date]);
    expect(await from('9999-12-31')).toEqual([['Year End', '9999-12-31']]);
    expect(await from('9999-12-31', 1)).toEqual([['Year End', '9999-12-31']]);
    // 9996 is the last leap year: from March 9997 on, 29 February has no next date.
    expect(await from('9997-03-01')).toEqual([
      ['Holi', '9997-03-10'],
      ['Gudi Padwa', '9997-03-12'],
      ['Year End', '9997-12-31'],
    ]);
    // 1000 is not a leap year (a century not divisible by 400): 29 February comes in 1004.
    expect(await from('1000-01-01')).toEqual([
      ['Holi', '1000-03-10'],
      ['Gudi Padwa', '1000-03-12'],
      ['Year End', '1000-12-31'],
      ['Leap Day', '1004-02-29'],
    ]);
  });

  it('narrow the apps to one and take the limit', async () => {
    const { result } = await get(
      `/dashboard/special-days?fromDate=2025-03-10&limit=1&masterAppId=${appA}`,
    );
    expect(result).toHaveLength(1);
    expect(result[0]).toMatchObject({ name: 'Holi', date: '2025-03-10', activePosters: 2 });
    expect(result[0].apps).toEqual([{ id: appA, name: 'Trend App A', activePosters: 2 }]);
  });

  it('answer a month of special days, every status, with their counts', async () => {
    const march = await get('/special-day/calendar?month=3');
    expect(march.month).toBe(3);
    expect(march.result.map((d: { name: string }) => d.name)).toEqual([
      'Holi',
      'Gudi Padwa',
      'Old Fair',
    ]);
    for (const d of march.result) {
      expect(d.apps).toHaveLength(2);
      for (const a of d.apps) expect(a.activePosters).toBe(await activeSql(d.id, a.id));
    }
    expect(march.result[2]).toMatchObject({ status: 'DEACTIVE', activePosters: 1 });
    expect((await get('/special-day/calendar?month=2')).result).toEqual([
      expect.objectContaining({ name: 'Leap Day', day: 29, activePosters: 0 }),
    ]);
    expect((await get('/special-day/calendar?month=7')).result).toEqual([]);
  });
});

describe('input and access', () => {
  it('refuse bad values with 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['/dashboard/trends?bucket=year', 'bucket'],
      ['/dashboard/trends?inDays=0', 'inDays'],
      ['/dashboard/trends?fromDate=2025-02-30', 'fromDate'],
      ['/dashboard/trends?fromDate=2025-03-02&toDate=2025-03-01', 'toDate'],
      ['/dashboard/trends?masterAppId=x', 'masterAppId'],
      ['/dashboard/trends?limit=5', 'limit'],
      ['/dashboard/top?limit=0', 'limit'],
      ['/dashboard/top?limit=21', 'limit'],
      ['/dashboard/top?bucket=day', 'bucket'],
      ['/dashboard/special-days?limit=51', 'limit'],
      ['/dashboard/special-days?fromDate=soon', 'fromDate'],
      ['/dashboard/special-days?inDays=3', 'inDays'],
      ['/special-day/calendar?month=13', 'month'],
      ['/special-day/calendar?month=0', 'month'],
      ['/special-day/calendar', 'month'],
      ['/special-day/calendar?month=3&year=2025', 'year'],
    ];
    for (const [url, field] of cases) {
      const res = await s.api({ method: 'GET', url, token: s.adminToken });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(400);
      const body = res.json();
      expect(
        body.details.map((d: { path: string }) => d.path),
        url,
      ).toEqual([field]);
      expect(body.message, url).toContain(field);
    }
  });

  it('need dashboard VIEW for the trends and specialDay VIEW for the calendar', async () => {
    const dashboardCalls = ['/dashboard/trends', '/dashboard/top', '/dashboard/special-days'];
    const none = await s.staff({ specialDay: ['VIEW'], poster: ['VIEW'] });
    for (const url of dashboardCalls) {
      expect((await s.api({ method: 'GET', url, token: none.token })).statusCode, url).toBe(403);
      expect((await s.api({ method: 'GET', url })).statusCode, url).toBe(401);
    }
    const viewer = await s.staff({ dashboard: ['VIEW'] });
    for (const url of dashboardCalls) await get(url, viewer.token);
    const calendar = '/special-day/calendar?month=3';
    expect((await s.api({ method: 'GET', url: calendar, token: viewer.token })).statusCode).toBe(
      403,
    );
    await get(calendar, none.token);
  });

  it('drop a poster’s downloads with the poster', async () => {
    const id = await insertPoster({
      app: appA,
      category: categories[0]!,
      createdAt: '2024-06-01T00:00:00.000Z',
    });
    await db
      .insertInto('posterDownloads')
      .values({ posterId: id, day: '2024-06-02', n: 4 })
      .execute();
    await db.deleteFrom('posters').where('id', '=', id).execute();
    const left = await db
      .selectFrom('posterDownloads')
      .select('day')
      .where('posterId', '=', id)
      .execute();
    expect(left).toEqual([]);
  });
});

describe('the trends’ kept daily counts', () => {
  it('follow new, moved and deleted posters, downloads and users', async () => {
    const range = '/dashboard/trends?fromDate=2024-06-01&toDate=2024-06-30&bucket=day';
    const check = async () => {
      for (const app of [undefined, appA, appB]) {
        const t = await get(app === undefined ? range : `${range}&masterAppId=${app}`);
        await checkTrend(t, (d) => addDays(d, 1), app);
      }
    };
    const first = await insertPoster({
      app: appA,
      category: categories[0]!,
      createdAt: '2024-06-03T10:00:00.000Z',
    });
    const second = await insertPoster({
      app: appA,
      category: categories[1]!,
      createdAt: '2024-06-04T23:59:59.999Z',
    });
    await db
      .insertInto('posterDownloads')
      .values([
        { posterId: first, day: '2024-06-05', n: 4 },
        { posterId: first, day: '2024-06-06', n: 2 },
        { posterId: second, day: '2024-06-06', n: 9 },
      ])
      .execute();
    const user = await insertUser(appB, '2024-06-07T08:00:00.000Z');
    await check();
    const june = await get(range);
    expect(june.points[5]).toMatchObject({ start: '2024-06-06', downloads: 11 });

    // The content app adds to a day's downloads; a poster moves to another app; a user is
    // deleted (status) and another's creation is corrected; a poster with downloads is deleted.
    await db
      .updateTable('posterDownloads')
      .set((eb) => ({ n: eb('n', '+', 5) }))
      .where('posterId', '=', first)
      .where('day', '=', '2024-06-05')
      .execute();
    await db.updateTable('posters').set({ masterAppId: appB }).where('id', '=', second).execute();
    await db.updateTable('accounts').set({ status: 'DELETED' }).where('id', '=', user).execute();
    const other = await insertUser(appA, '2024-06-09T08:00:00.000Z');
    await db
      .updateTable('accounts')
      .set({ createdAt: '2024-06-10T08:00:00.000Z' })
      .where('id', '=', other)
      .execute();
    await check();
    await db.deleteFrom('posters').where('id', '=', first).execute();
    await check();
    const after = await get(range);
    expect(after.points[4]).toMatchObject({ start: '2024-06-05', downloads: 0 });
    expect(after.points[5]).toMatchObject({ start: '2024-06-06', downloads: 9 });
  });
});

describe('the top lists’ kept downloads', () => {
  // Periods on and off the units the downloads are kept in: days, weeks from Monday, months and
  // (categories) years, across a year's end and a leap day; open at either end; all time.
  const periods: Array<[string | undefined, string | undefined]> = [
    ['2023-12-18', '2024-03-05'],
    ['2023-12-25', '2024-01-07'],
    ['2023-12-27', '2024-01-03'],
    ['2024-01-01', '2024-01-31'],
    ['2024-01-02', '2024-02-29'],
    ['2023-01-01', '2023-12-31'],
    ['2024-02-28', '2024-03-01'],
    ['2024-01-10', '2024-01-10'],
    [undefined, '2024-01-15'],
    ['2024-01-15', undefined],
    ['2020-01-01', undefined],
    [undefined, '2099-12-31'],
    [undefined, undefined],
  ];
  const url = (from: string | undefined, to: string | undefined, app?: number) =>
    '/dashboard/top?limit=20' +
    (from ? `&fromDate=${from}` : '') +
    (to ? `&toDate=${to}` : '') +
    (app ? `&masterAppId=${app}` : '');
  async function checkAll(label: string) {
    for (const app of [undefined, appA, appB]) {
      for (const [from, to] of periods) {
        expect(pick(await get(url(from, to, app))), `${label}: ${url(from, to, app)}`).toEqual(
          await topSql(from, to, app, 20),
        );
      }
      for (const n of [1, 7, 30, 400]) {
        const t = await get(
          `/dashboard/top?limit=20&inDays=${n}${app ? `&masterAppId=${app}` : ''}`,
        );
        expect(pick(t), `${label}: inDays=${n} app ${app}`).toEqual(
          await topSql(daysAgo(n).slice(0, 10), undefined, app, 20),
        );
      }
    }
  }

  it('follow new and changed downloads, moved and deleted posters', async () => {
    const [c1, c2, c3] = categories as [number, number, number];
    const made: number[] = [];
    for (const [i, [app, category]] of (
      [
        [appA, c1],
        [appA, c2],
        [appB, c1],
        [appB, c3],
        [appA, c3],
        [appB, c2],
        [appA, c1],
        [appB, c1],
      ] as const
    ).entries()) {
      made.push(
        await insertPoster({ app, category, createdAt: `2023-12-${String(10 + i)}T10:00:00.000Z` }),
      );
    }
    // Each poster on some days from mid-December to early March; equal sums here and there, so
    // ties are broken by id.
    const rows: Array<{ posterId: number; day: string; n: number }> = [];
    made.forEach((posterId, i) => {
      for (let d = i; d < 80; d += 2 + (i % 4)) {
        rows.push({ posterId, day: addDays('2023-12-16', d), n: ((i + d) % 5) * 10 });
      }
    });
    await db.insertInto('posterDownloads').values(rows).execute();
    await checkAll('inserted');

    // The content app adds to days (an upsert, as it records downloads) and writes new ones.
    await db
      .insertInto('posterDownloads')
      .values([
        { posterId: made[0]!, day: '2024-01-01', n: 35 },
        { posterId: made[1]!, day: '2023-12-31', n: 7 },
        { posterId: made[2]!, day: daysAgo(0).slice(0, 10), n: 12 },
        { posterId: made[3]!, day: daysAgo(5).slice(0, 10), n: 30 },
      ])
      .onConflict((oc) =>
        oc
          .columns(['posterId', 'day'])
          .doUpdateSet((eb) => ({ n: eb('posterDownloads.n', '+', eb.ref('excluded.n')) })),
      )
      .execute();
    await db
      .updateTable('posterDownloads')
      .set({ n: 3 })
      .where('posterId', '=', made[4]!)
      .where('day', '>=', '2024-01-20')
      .execute();
    await db
      .deleteFrom('posterDownloads')
      .where('posterId', '=', made[5]!)
      .where('day', '<', '2024-01-05')
      .execute();
    await checkAll('changed');

    // A poster moves to another category and app; every poster of a category moves to another.
    await db
      .updateTable('posters')
      .set({ categoryId: c2, masterAppId: appB })
      .where('id', '=', made[0]!)
      .execute();
    await db
      .updateTable('posters')
      .set({ categoryId: c1 })
      .where('categoryId', '=', c3)
      .where('id', 'in', made)
      .execute();
    await checkAll('moved');

    // Posters deleted, one alone and two in one statement.
    await db.deleteFrom('posters').where('id', '=', made[1]!).execute();
    await db.deleteFrom('posters').where('id', 'in', [made[6]!, made[7]!]).execute();
    await checkAll('deleted');
    const left = await db
      .selectFrom('topPosterTotals')
      .select('posterId')
      .where('posterId', 'in', [made[1]!, made[6]!, made[7]!])
      .execute();
    expect(left).toEqual([]);
  });

  it('are exact when the period’s best are not among the all-time best', async () => {
    // More posters than the route first probes (the largest totals, 100 per row asked: 2,000
    // for 20), each with more downloads of all time than any poster has in the later periods:
    // the probe cannot decide those, and the period's kept units are summed instead.
    const at = '2023-05-01T00:00:00.000Z';
    const old: number[] = [];
    for (let chunk = 0; chunk < 5; chunk++) {
      const made = await db
        .insertInto('posters')
        .values(
          Array.from({ length: 420 }, (_, i) => ({
            masterAppId: i % 2 ? appA : appB,
            categoryId: categories[i % 3]!,
            specialDayId: null,
            accountId: adminId,
            topDefNum: 1,
            selfDefNum: 1,
            bottomDefNum: 1,
            poster: `posters/aa/old-${chunk}-${i}.webp`,
            videoThumb: null,
            date: null,
            status: 'ACTIVE' as const,
            position: 'LEFT' as const,
            createdAt: at,
            updatedAt: at,
          })),
        )
        .returning('id')
        .execute();
      old.push(...made.map((r) => r.id));
    }
    for (let i = 0; i < old.length; i += 500) {
      await db
        .insertInto('posterDownloads')
        .values(
          old.slice(i, i + 500).map((posterId, j) => ({
            posterId,
            day: addDays('2023-06-01', (i + j) % 20),
            n: 900 + ((i + j) % 7),
          })),
        )
        .execute();
    }
    await checkAll('old posters');
    // A few recent posters outdo them all: now the probe's bound decides.
    const recent = [];
    for (const app of [appA, appB, appA]) {
      recent.push(await insertPoster({ app, category: categories[1]!, createdAt: daysAgo(4) }));
    }
    await db
      .insertInto('posterDownloads')
      .values(
        recent.map((posterId, i) => ({ posterId, day: daysAgo(3 + i).slice(0, 10), n: 2000 })),
      )
      .execute();
    const t = await get('/dashboard/top?inDays=30&limit=3');
    expect(t.posters.map((p: { id: number }) => p.id)).toEqual(recent);
    await checkAll('recent posters');
  });
});
