import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Status } from '@master-admin/contract';
import { startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

const DAY_MS = 86_400_000;
const daysAgo = (n: number) => new Date(Date.now() - n * DAY_MS).toISOString();

let appA: number;
let appB: number;

async function insertApp(name: string) {
  const at = '2024-01-01T00:00:00.000Z';
  const row = await s.ctx.db
    .insertInto('masterApps')
    .values({ name, createdAt: at, updatedAt: at })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function insertUser(masterAppId: number, createdAt: string, status: Status = 'ACTIVE') {
  await s.ctx.db
    .insertInto('accounts')
    .values({
      role: 'USER',
      name: 'An End User',
      email: null,
      phoneNumber: String(Math.floor(Math.random() * 1e10)),
      passwordHash: null,
      status,
      masterAppId,
      dateLimit: null,
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
}

let categoryCount = 0;
async function insertCategory(createdAt: string) {
  categoryCount += 1;
  const row = await s.ctx.db
    .insertInto('categories')
    .values({
      name: `Category ${categoryCount}`,
      status: 'ACTIVE',
      createdAt,
      updatedAt: createdAt,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

let categoryId: number;
let adminId: number;
async function insertPoster(masterAppId: number, createdAt: string, downloadCount: number) {
  await s.ctx.db
    .insertInto('posters')
    .values({
      masterAppId,
      categoryId,
      specialDayId: null,
      accountId: adminId,
      topDefNum: 1,
      selfDefNum: 1,
      bottomDefNum: 1,
      poster: `posters/${createdAt}-${downloadCount}.webp`,
      videoThumb: null,
      date: null,
      downloadCount,
      status: 'ACTIVE',
      position: 'LEFT',
      createdAt,
      updatedAt: createdAt,
    })
    .execute();
}

beforeAll(async () => {
  appA = await insertApp('App A');
  appB = await insertApp('App B');
  adminId = s.adminId;
  // Staff and admins are accounts too, but never counted as users.
  await s.staff();

  await insertUser(appA, '2025-03-01T00:00:00.000Z');
  await insertUser(appA, '2025-03-10T23:59:59.999Z');
  await insertUser(appB, '2025-03-11T00:00:00.000Z');
  await insertUser(appA, '2025-03-05T12:00:00.000Z', 'DELETED');
  await insertUser(appA, '2025-03-06T12:00:00.000Z', 'DEACTIVE');
  await insertUser(appB, '2024-12-31T23:59:59.999Z');
  await insertUser(appB, daysAgo(3));
  await insertUser(appB, daysAgo(10));

  categoryId = await insertCategory('2025-03-01T00:00:00.000Z');
  await insertCategory('2025-03-10T23:59:59.999Z');
  await insertCategory('2025-03-11T00:00:00.000Z');
  await insertCategory(daysAgo(3));
  await insertCategory(daysAgo(10));

  await insertPoster(appA, '2025-03-01T00:00:00.000Z', 5);
  await insertPoster(appB, '2025-03-10T23:59:59.999Z', 7);
  await insertPoster(appA, '2025-03-11T00:00:00.000Z', 11);
  await insertPoster(appA, '2025-02-28T23:59:59.999Z', 13);
  await insertPoster(appB, daysAgo(3), 17);
  await insertPoster(appB, daysAgo(10), 19);
});

async function counts(query: string) {
  const res = await s.api({
    method: 'GET',
    url: `/dashboard/getCount${query}`,
    token: s.adminToken,
  });
  expect(res.statusCode, `${query}: ${res.body}`).toBe(200);
  return res.json();
}

describe('dashboard counts', () => {
  it('count everything created, all time, without a window', async () => {
    expect(await counts('')).toEqual({
      // Seven users but one DELETED; a DEACTIVE user still counts.
      totalUser: 7,
      totalCategory: 5,
      totalPoster: 6,
      downloadPoster: 5 + 7 + 11 + 13 + 17 + 19,
    });
  });

  it('take fromDate and toDate as whole UTC days, both included', async () => {
    expect(await counts('?fromDate=2025-03-01&toDate=2025-03-10')).toEqual({
      totalUser: 3,
      totalCategory: 2,
      totalPoster: 2,
      downloadPoster: 12,
    });
    // One day: from its first to its last millisecond.
    expect(await counts('?fromDate=2025-03-10&toDate=2025-03-10')).toEqual({
      totalUser: 1,
      totalCategory: 1,
      totalPoster: 1,
      downloadPoster: 7,
    });
    expect(await counts('?fromDate=2025-03-11&toDate=2025-03-11')).toEqual({
      totalUser: 1,
      totalCategory: 1,
      totalPoster: 1,
      downloadPoster: 11,
    });
  });

  it('take the last day there is as toDate', async () => {
    expect(await counts('?toDate=9999-12-31')).toEqual(await counts(''));
    expect((await counts('?fromDate=2025-03-11&toDate=9999-12-31')).totalPoster).toBe(3);
  });

  it('take either end alone', async () => {
    expect(await counts('?toDate=2025-02-28')).toEqual({
      totalUser: 1,
      totalCategory: 0,
      totalPoster: 1,
      downloadPoster: 13,
    });
    expect(await counts('?fromDate=2025-03-11')).toEqual({
      totalUser: 3,
      totalCategory: 3,
      totalPoster: 3,
      downloadPoster: 11 + 17 + 19,
    });
  });

  it('count the last inDays days', async () => {
    expect(await counts('?inDays=7')).toEqual({
      totalUser: 1,
      totalCategory: 1,
      totalPoster: 1,
      downloadPoster: 17,
    });
    expect(await counts('?inDays=30')).toEqual({
      totalUser: 2,
      totalCategory: 2,
      totalPoster: 2,
      downloadPoster: 17 + 19,
    });
  });

  it('narrow users and posters, but not categories, to one master app', async () => {
    expect(await counts(`?masterAppId=${appA}`)).toEqual({
      totalUser: 3,
      totalCategory: 5,
      totalPoster: 3,
      downloadPoster: 5 + 11 + 13,
    });
    expect(await counts(`?masterAppId=${appA}&fromDate=2025-03-01&toDate=2025-03-10`)).toEqual({
      totalUser: 3,
      totalCategory: 2,
      totalPoster: 1,
      downloadPoster: 5,
    });
    expect(await counts(`?masterAppId=${appB}&inDays=7`)).toEqual({
      totalUser: 1,
      totalCategory: 1,
      totalPoster: 1,
      downloadPoster: 17,
    });
  });

  it('answer zeros, not null, when nothing is counted', async () => {
    expect(await counts('?fromDate=2030-01-01')).toEqual({
      totalUser: 0,
      totalCategory: 0,
      totalPoster: 0,
      downloadPoster: 0,
    });
    expect(await counts('?masterAppId=2000000000')).toEqual({
      totalUser: 0,
      totalCategory: 5,
      totalPoster: 0,
      downloadPoster: 0,
    });
  });

  it('take inDays with the dates, every bound applying', async () => {
    // With toDate: the inDays whole days that end with it.
    expect(await counts('?inDays=10&toDate=2025-03-10')).toEqual(
      await counts('?fromDate=2025-03-01&toDate=2025-03-10'),
    );
    expect(await counts('?inDays=1&toDate=2025-03-10')).toEqual(
      await counts('?fromDate=2025-03-10&toDate=2025-03-10'),
    );
    // With fromDate: from the later start.
    expect(await counts('?inDays=7&fromDate=2025-01-01')).toEqual(await counts('?inDays=7'));
    const fiveDaysAgo = daysAgo(5).slice(0, 10);
    expect(await counts(`?inDays=30&fromDate=${fiveDaysAgo}`)).toEqual(
      await counts(`?fromDate=${fiveDaysAgo}`),
    );
    // All three.
    // A DEACTIVE user of 6 March and one of 10 March (the one of 5 March is DELETED).
    expect(await counts('?fromDate=2025-03-05&toDate=2025-03-10&inDays=10')).toEqual({
      totalUser: 2,
      totalCategory: 1,
      totalPoster: 1,
      downloadPoster: 7,
    });
    expect(await counts('?fromDate=2025-03-01&toDate=2025-03-10&inDays=7')).toEqual(
      await counts('?fromDate=2025-03-04&toDate=2025-03-10'),
    );
    // Counted back from the first day there is, no further.
    expect(await counts('?toDate=1000-01-05&inDays=3650')).toEqual({
      totalUser: 0,
      totalCategory: 0,
      totalPoster: 0,
      downloadPoster: 0,
    });
  });

  it('take empty values as absent', async () => {
    expect(await counts('?fromDate=&toDate=&inDays=&masterAppId=')).toEqual(await counts(''));
  });
});

describe('dashboard input', () => {
  it('refuses bad values with 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['fromDate=2026-02-30', 'fromDate'],
      ['toDate=2026-13-01', 'toDate'],
      ['fromDate=20260101', 'fromDate'],
      ['fromDate=yesterday', 'fromDate'],
      ['inDays=0', 'inDays'],
      ['inDays=3651', 'inDays'],
      ['inDays=-7', 'inDays'],
      ['inDays=1.5', 'inDays'],
      ['inDays=abc', 'inDays'],
      ['inDays=7&fromDate=2026-01-03&toDate=2026-01-02', 'toDate'],
      ['fromDate=0999-12-31', 'fromDate'],
      ['toDate=10000-01-01', 'toDate'],
      ['fromDate=1900-02-29', 'fromDate'],
      ['fromDate=2026-03-02&toDate=2026-03-01', 'toDate'],
      ['masterAppId=x', 'masterAppId'],
      ['masterAppId=0', 'masterAppId'],
      ['masterAppId=99999999999', 'masterAppId'],
      ['userId=1', 'userId'],
    ];
    for (const [query, field] of cases) {
      const res = await s.api({
        method: 'GET',
        url: `/dashboard/getCount?${query}`,
        token: s.adminToken,
      });
      expect(res.statusCode, `${query}: ${res.body}`).toBe(400);
      const body = res.json();
      expect(
        body.details.map((d: { path: string }) => d.path),
        query,
      ).toEqual(field.split(','));
      for (const name of field.split(',')) expect(body.message, query).toContain(name);
    }
  });

  it('takes the widest inDays, and leap days', async () => {
    expect((await counts('?inDays=3650')).totalCategory).toBe(5);
    expect((await counts('?fromDate=2024-02-29&toDate=2024-02-29')).totalUser).toBe(0);
  });
});

describe('what a staff member’s grants let the dashboard tell', () => {
  const as = async (token: string, url: string) => {
    const res = await s.api({ method: 'GET', url, token });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('counts users only for an account that may view them', async () => {
    const content = { totalCategory: 5, totalPoster: 6, downloadPoster: 5 + 7 + 11 + 13 + 17 + 19 };
    const dashboardOnly = await s.staff({ dashboard: ['VIEW'] });
    expect(await as(dashboardOnly.token, '/dashboard/getCount')).toEqual(content);
    const withUsers = await s.staff({ dashboard: ['VIEW'], users: ['VIEW'] });
    expect(await as(withUsers.token, '/dashboard/getCount')).toEqual({ ...content, totalUser: 7 });
    // A grant other than VIEW does not count.
    const createOnly = await s.staff({ dashboard: ['VIEW'], users: ['CREATE'] });
    expect(await as(createOnly.token, '/dashboard/getCount')).toEqual(content);
  });

  it('leaves the new users out of the trend without VIEW on users', async () => {
    const url = '/dashboard/trends?fromDate=2025-03-01&toDate=2025-03-11';
    const admin = await as(s.adminToken, url);
    expect(admin.points.some((p: { users?: number }) => (p.users ?? 0) > 0)).toBe(true);
    const viewer = await s.staff({ dashboard: ['VIEW'] });
    const trend = await as(viewer.token, url);
    expect(trend.points).toHaveLength(admin.points.length);
    for (const point of trend.points) expect(point).not.toHaveProperty('users');
    const withUsers = await s.staff({ dashboard: ['VIEW'], users: ['VIEW'] });
    expect(await as(withUsers.token, url)).toEqual(admin);
  });
});
