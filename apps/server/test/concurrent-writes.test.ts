/**
 * Writes at the same time (issue #21). For every bulk call, 100 concurrent calls on overlapping,
 * shuffled rows answer no 5xx, PostgreSQL counts no deadlock, and the rows end as the calls in
 * one serial order would leave them: the order of their audit entries, whose before and after
 * values must chain. Then 200 mixed writes at once. The harness's close() checks every kept
 * count against the tables. And the transaction helper's retry, on a real conflict of each
 * database. Run on SQLite and PostgreSQL.
 */
import SQLite from 'better-sqlite3';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { MESSAGES, PATHS, STATUSES } from '@master-admin/contract';
import { TEST_DB, multipart, newDatabase, startServer } from './harness.ts';
import { images } from './images.ts';
import { videos } from '../src/seed/video-files.ts';
import { inTransaction, TRANSACTION_ATTEMPTS, type RetryLog } from '../src/db/transaction.ts';
import { isForeignKeyViolation } from '../src/db/dialect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { checkTrendCounts } from '../src/features/dashboard/trend-counts.ts';
import { checkTopDownloads } from '../src/features/dashboard/top-downloads.ts';

const s = await startServer();
afterAll(() => s.close());
const { db } = s.ctx;

const CALLS = 100;
/** The client address of call `i`, which its audit entries record. */
const ipOf = (i: number) => `10.21.${Math.floor(i / 256)}.${i % 256}`;

const random = (n: number) => Math.floor(Math.random() * n);
const shuffled = <T>(list: readonly T[]): T[] => {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = random(i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
};
const some = <T>(list: readonly T[], n: number) => shuffled(list).slice(0, n);
const STATUS_CHOICES = STATUSES.filter((st) => st !== 'DELETED');

/** How many deadlocks PostgreSQL has counted in this database (0 on SQLite, which has none). */
async function deadlocks(): Promise<number> {
  if (TEST_DB !== 'postgres') return 0;
  // A session reports its counts when idle, at most once a second (else up to ten seconds
  // later): make each of the main pool's ten connections report now (all ten at once, so each
  // query holds a different one).
  await Promise.all(
    Array.from({ length: 10 }, () =>
      sql`select pg_stat_force_next_flush(), pg_sleep(0.05)`.execute(db),
    ),
  );
  const { rows } = await sql<{ n: number | string }>`
    select deadlocks as n from pg_stat_database where datname = current_database()`.execute(db);
  return Number(rows[0]!.n);
}

/**
 * Sends `calls` all at once, as the admin, each from its own address; expects no 5xx and no
 * deadlock. Answers the responses in the order of `calls`.
 */
async function race(
  calls: Array<{ method: 'PUT' | 'DELETE'; url: string; payload: object }>,
): Promise<LightMyRequestResponse[]> {
  const before = await deadlocks();
  const responses = await Promise.all(
    calls.map((call, i) => s.api({ ...call, token: s.adminToken, remoteAddress: ipOf(i) })),
  );
  const failed = responses.filter((r) => r.statusCode >= 500).map((r) => r.body);
  expect(failed, `${failed.length} of ${calls.length} answered 5xx`).toEqual([]);
  expect(await deadlocks(), 'deadlocks PostgreSQL counted').toBe(before);
  return responses;
}

type Entry = { id: number; ip: string; rowId: number; changes: unknown[] };

/**
 * The audit entries the race's calls recorded for `area` and `action`, in commit order (each race
 * has its own pair).
 */
async function entries(area: string, action: string): Promise<Entry[]> {
  const rows = await db
    .selectFrom('auditLog')
    .select(['id', 'ip', 'rowId', 'changes'])
    .where('area', '=', area)
    .where('action', '=', action)
    .where('ip', 'like', '10.21.%')
    .orderBy('id')
    .execute();
  return rows.map((r) => ({ ...r, ip: r.ip!, rowId: r.rowId!, changes: JSON.parse(r.changes) }));
}

const FIELDS = { position: 'LEFT', topDefNum: '1', selfDefNum: '2', bottomDefNum: '3' };
const pngFile = async () => ({ name: 'p.png', data: await images.png(48), type: 'image/png' });

let apps: number[];
let categories: number[];
const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });
async function made(url: string, payload: object): Promise<number> {
  const res = await admin({ method: 'POST', url, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
}

/** Posters for every app, `rounds` times in each category; answers their ids. */
async function posters(rounds: number): Promise<number[]> {
  const ids: number[] = [];
  for (let r = 0; r < rounds; r++) {
    for (const category of categories) {
      const res = await admin({
        method: 'POST',
        url: PATHS.posterCreateAll(category),
        ...(await multipart(FIELDS, { file: await pngFile() })),
      });
      expect(res.statusCode, res.body).toBe(200);
      ids.push(...(res.json().result.ids as number[]));
    }
  }
  return ids;
}

async function uploadVideos(n: number): Promise<number[]> {
  const ids: number[] = [];
  for (let i = 0; i < n; i++) {
    const res = await admin({
      method: 'POST',
      url: PATHS.videoCreate,
      ...(await multipart(
        { ...FIELDS, masterAppId: String(apps[i % apps.length]) },
        { file: { name: 'v.mp4', data: videos.mp4(), type: 'video/mp4' } },
      )),
    });
    expect(res.statusCode, res.body).toBe(200);
    ids.push(res.json().videoId as number);
  }
  return ids;
}

/** Downloads on two to four days of most of `ids`, as the content app records them. */
async function download(ids: number[]) {
  const days = ['2026-01-30', '2026-02-02', '2026-02-15', '2026-03-01', '2026-03-31'];
  const rows = ids
    .filter((id) => id % 5 !== 0)
    .flatMap((posterId) =>
      some(days, 2 + random(3)).map((day) => ({ posterId, day, n: 1 + random(9) })),
    );
  await db.insertInto('posterDownloads').values(rows).execute();
}

beforeAll(async () => {
  apps = [];
  for (let i = 0; i < 4; i++) apps.push(await made(PATHS.masterAppCreate, { name: `Race ${i}` }));
  categories = [];
  for (const name of ['Race Wishes', 'Race Quotes', 'Race Festivals']) {
    categories.push(await made(PATHS.categoryCreate, { name }));
  }
});

/**
 * A bulk status race: every row's status is that of the last call, in commit order, that named
 * it, and each entry's old status is the one the call before it left.
 */
async function statusRace(
  area: 'posters' | 'videos' | 'users',
  url: string,
  ids: number[],
  table: 'posters' | 'videos' | 'accounts' = area === 'users' ? 'accounts' : area,
) {
  const initial = new Map(
    (await db.selectFrom(table).select(['id', 'status']).where('id', 'in', ids).execute()).map(
      (r) => [r.id, r.status as string],
    ),
  );
  const calls = Array.from({ length: CALLS }, () => ({
    ids: some(ids, 5 + random(30)),
    status: STATUS_CHOICES[random(STATUS_CHOICES.length)]!,
  }));
  const responses = await race(calls.map((payload) => ({ method: 'PUT', url, payload })));
  for (const r of responses) expect(r.statusCode, r.body).toBe(200);

  const byIp = new Map(calls.map((call, i) => [ipOf(i), call]));
  const state = new Map(initial);
  const recorded = await entries(area, 'STATUS');
  for (const entry of recorded) {
    const call = byIp.get(entry.ip)!;
    expect(call.ids).toContain(entry.rowId);
    const old = state.get(entry.rowId)!;
    expect(entry.changes, `row ${entry.rowId}`).toEqual(
      old === call.status ? [] : [{ field: 'status', old, new: call.status }],
    );
    state.set(entry.rowId, call.status);
  }
  expect(recorded.length).toBe(calls.reduce((n, call) => n + call.ids.length, 0));
  const now = await db.selectFrom(table).select(['id', 'status']).where('id', 'in', ids).execute();
  expect(new Map(now.map((r) => [r.id, r.status as string]))).toEqual(state);
}

/**
 * A bulk delete race: each call deletes all its rows (200) or, when a call before it deleted one
 * of them, none (404 naming them); every row a 200 named is gone with one entry, the others stay.
 */
async function deleteRace(area: 'posters' | 'videos', url: string, ids: number[]) {
  const calls = Array.from({ length: CALLS }, () => ({ ids: some(ids, 2 + random(4)) }));
  const responses = await race(calls.map((payload) => ({ method: 'DELETE', url, payload })));
  const deleted = new Set<number>();
  calls.forEach((call, i) => {
    expect([200, 404], responses[i]!.body).toContain(responses[i]!.statusCode);
    if (responses[i]!.statusCode === 200) call.ids.forEach((id) => deleted.add(id));
  });
  // A 404 names the ids that were gone when it ran: each deleted by a call that answered 200.
  calls.forEach((call, i) => {
    if (responses[i]!.statusCode !== 404) return;
    const named = responses[i]!.json<{ message: string }>().message.match(/\d+/g)!.map(Number);
    expect(named.length).toBeGreaterThan(0);
    for (const id of named) {
      expect(call.ids).toContain(id);
      expect(deleted).toContain(id);
    }
  });
  const recorded = await entries(area, 'DELETE');
  expect(recorded.map((e) => e.rowId).sort((a, b) => a - b)).toEqual(
    [...deleted].sort((a, b) => a - b),
  );
  const callOf = new Map(calls.map((_, i) => [ipOf(i), i]));
  for (const entry of recorded) {
    const i = callOf.get(entry.ip)!;
    expect(responses[i]!.statusCode).toBe(200);
    expect(calls[i]!.ids).toContain(entry.rowId);
  }
  const left = await db.selectFrom(area).select('id').where('id', 'in', ids).execute();
  expect(left.map((r) => r.id).sort((a, b) => a - b)).toEqual(
    ids.filter((id) => !deleted.has(id)).sort((a, b) => a - b),
  );
}

describe('100 concurrent overlapping bulk calls', () => {
  it('poster/bulk-status', async () => {
    await statusRace('posters', PATHS.posterBulkStatus, await posters(4));
  });

  it('video/bulk-status', async () => {
    await statusRace('videos', PATHS.videoBulkStatus, await uploadVideos(40));
  });

  it('account/user/bulk-status', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 40; i++) {
      ids.push(
        await made(PATHS.userRegister, {
          name: `Race User ${i}`,
          phoneNumber: String(8_200_000_000 + i),
          masterAppId: apps[i % apps.length],
        }),
      );
    }
    await statusRace('users', PATHS.userBulkStatus, ids);
  });

  it('poster/bulkDelete, of posters with downloads', async () => {
    const ids = await posters(8);
    await download(ids);
    await deleteRace('posters', PATHS.posterBulkDelete, ids);
  });

  it('video/remove-all-app', async () => {
    await deleteRace('videos', PATHS.videoRemoveMany, await uploadVideos(60));
  });

  it('user-permissions/bulk', async () => {
    const member = await s.staff();
    const rows = await db
      .selectFrom('userPermissions as up')
      .innerJoin('menus as m', 'm.id', 'up.menuId')
      .innerJoin('permissions as p', 'p.id', 'up.permissionId')
      .select(['up.id', 'up.status', 'm.name as menu', 'p.name as kind'])
      .where('up.accountId', '=', member.id)
      .orderBy('m.name')
      .orderBy('p.id')
      .execute();
    const calls = Array.from({ length: CALLS }, () => ({
      items: some(rows, 5 + random(20)).map((r) => ({ id: r.id, status: random(2) === 1 })),
    }));
    const url = PATHS.userPermissionBulk(member.id);
    const responses = await race(calls.map((payload) => ({ method: 'PUT', url, payload })));
    for (const r of responses) expect(r.statusCode, r.body).toBe(200);

    // The log holds the grants by menu (`permissions.<menu>`: the kinds held), before and after.
    const state = new Map(rows.map((r) => [r.id, Boolean(r.status)]));
    const grants = () => {
      const held = new Map<string, string[]>();
      for (const r of rows) {
        const kinds = held.get(`permissions.${r.menu}`) ?? [];
        if (state.get(r.id)) kinds.push(r.kind);
        held.set(`permissions.${r.menu}`, kinds);
      }
      return held;
    };
    const byIp = new Map(calls.map((call, i) => [ipOf(i), call]));
    const recorded = await entries('staff', 'PERMISSIONS');
    expect(recorded.length).toBe(CALLS);
    for (const entry of recorded) {
      const before = grants();
      for (const item of byIp.get(entry.ip)!.items) state.set(item.id, item.status);
      const after = grants();
      const expected = [...after]
        .filter(([field, kinds]) => kinds.join() !== before.get(field)!.join())
        .map(([field, kinds]) => ({ field, old: before.get(field), new: kinds }));
      const sortByField = (l: unknown[]) =>
        [...(l as Array<{ field: string }>)].sort((a, b) => a.field.localeCompare(b.field));
      expect(sortByField(entry.changes)).toEqual(sortByField(expected));
    }
    const now = await db
      .selectFrom('userPermissions')
      .select(['id', 'status'])
      .where('accountId', '=', member.id)
      .execute();
    expect(new Map(now.map((r) => [r.id, Boolean(r.status)]))).toEqual(state);
  });
});

describe('the kept downloads of deleted posters', () => {
  it('stay in step on a database made before 0019, once upgraded', async () => {
    const { handle, dispose } = await newDatabase();
    try {
      await migrateToLatest(handle, '0017-top-downloads');
      const old = handle.db;
      const at = new Date(Date.UTC(2026, 0, 5)).toISOString();
      const stamps = { createdAt: at, updatedAt: at };
      const one = async (rows: Promise<Array<{ id: number }>>) => (await rows)[0]!.id;
      const app = await one(
        old
          .insertInto('masterApps')
          .values({ name: 'Gone', ...stamps })
          .returning('id')
          .execute(),
      );
      const account = await one(
        old
          .insertInto('accounts')
          .values({ role: 'STAFF', status: 'ACTIVE', email: 'gone@test.local', ...stamps })
          .returning('id')
          .execute(),
      );
      const posterIds: number[] = [];
      for (const name of ['Gone A', 'Gone B']) {
        const category = await one(
          old
            .insertInto('categories')
            .values({ name, downloadCount: 0, status: 'ACTIVE', ...stamps })
            .returning('id')
            .execute(),
        );
        const rows = await old
          .insertInto('posters')
          .values(
            Array.from({ length: 6 }, () => ({
              masterAppId: app,
              categoryId: category,
              specialDayId: null,
              accountId: account,
              topDefNum: 1,
              selfDefNum: 2,
              bottomDefNum: 3,
              poster: 'posters/gone.webp',
              videoThumb: null,
              date: null,
              status: 'ACTIVE' as const,
              position: 'LEFT' as const,
              ...stamps,
            })),
          )
          .returning('id')
          .execute();
        posterIds.push(...rows.map((r) => r.id));
      }
      // Every fifth poster has no downloads: a statement's first deleted poster may have none.
      const days = ['2026-01-30', '2026-02-02', '2026-02-15'];
      await old
        .insertInto('posterDownloads')
        .values(
          posterIds
            .filter((id) => id % 5 !== 0)
            .flatMap((posterId) => days.map((day, i) => ({ posterId, day, n: i + 1 }))),
        )
        .execute();
      await migrateToLatest(handle);
      const inStep = async () => [
        ...(await checkTrendCounts(handle.db, handle.dialect)),
        ...(await checkTopDownloads(handle.db, handle.dialect)),
      ];
      expect(await inStep()).toEqual([]);
      await handle.db.deleteFrom('posters').where('id', 'in', some(posterIds, 7)).execute();
      expect(await inStep()).toEqual([]);
      await handle.db.deleteFrom('posters').execute();
      const left = await handle.db.selectFrom('posterDownloads').select('posterId').execute();
      expect(left).toEqual([]);
      expect(await inStep()).toEqual([]);
    } finally {
      await dispose();
    }
  });
});

describe('200 concurrent mixed writes', () => {
  it('answer 200, or 404 for a row another call deleted; never 5xx', async () => {
    const posterIds = await posters(3);
    await download(posterIds);
    const videoIds = await uploadVideos(20);
    const days: number[] = [];
    for (let i = 0; i < 6; i++) {
      days.push(
        await made(PATHS.specialDayCreate, { name: `Race Day ${i}`, month: 1 + i, day: 9 }),
      );
    }
    // Menus the owner added, deleted during the race with their rows of every staff member.
    const menus: number[] = [];
    for (let i = 0; i < 3; i++) {
      menus.push(await made(PATHS.menuCreate, { name: `raceMenu${i}`, title: `Race ${i}` }));
    }
    const member = await s.staff();
    const grantIds = (
      await db
        .selectFrom('userPermissions')
        .select('id')
        .where('accountId', '=', member.id)
        .execute()
    ).map((r) => r.id);
    const poster = () => posterIds[random(posterIds.length)]!;
    const video = () => videoIds[random(videoIds.length)]!;
    const status = () => STATUS_CHOICES[random(STATUS_CHOICES.length)]!;
    const upload = await multipart(FIELDS, { file: await pngFile() });

    type Write = { method: 'POST' | 'PUT' | 'PATCH' | 'DELETE'; url: string; payload?: object };
    const writes: Array<Write & { headers?: Record<string, string> }> = [];
    const add = (n: number, make: (i: number) => Write & { headers?: Record<string, string> }) => {
      for (let i = 0; i < n; i++) writes.push(make(i));
    };
    const defNums = { topDefNum: 4, selfDefNum: 5, bottomDefNum: 6 };
    add(8, () => ({ method: 'PATCH', url: PATHS.posterDefNums(poster()), payload: defNums }));
    add(8, () => ({ method: 'PATCH', url: PATHS.posterDate(poster()), payload: { date: '' } }));
    add(10, () => ({
      method: 'PUT',
      url: PATHS.posterStatus(poster()),
      payload: { status: status() },
    }));
    add(6, () => ({
      method: 'PUT',
      url: PATHS.posterPosition(poster()),
      payload: { position: 'RIGHT' },
    }));
    add(40, () => ({
      method: 'PUT',
      url: PATHS.posterBulkStatus,
      payload: { ids: some(posterIds, 25), status: status() },
    }));
    add(6, () => ({ method: 'DELETE', url: PATHS.posterRemove(poster()) }));
    add(5, () => ({
      method: 'DELETE',
      url: PATHS.posterBulkDelete,
      payload: { ids: some(posterIds, 3) },
    }));
    add(6, (i) => ({
      method: 'POST',
      url: PATHS.posterCreateAll(categories[i % categories.length]!),
      payload: upload.payload,
      headers: upload.headers,
    }));
    add(12, () => ({
      method: 'PUT',
      url: PATHS.videoStatus(video()),
      payload: { status: status() },
    }));
    add(6, () => ({ method: 'PATCH', url: PATHS.videoDefNums(video()), payload: defNums }));
    add(20, () => ({
      method: 'PUT',
      url: PATHS.videoBulkStatus,
      payload: { ids: some(videoIds, 12), status: status() },
    }));
    add(4, () => ({ method: 'DELETE', url: PATHS.videoRemove(video()) }));
    add(3, () => ({
      method: 'DELETE',
      url: PATHS.videoRemoveMany,
      payload: { ids: some(videoIds, 3) },
    }));
    add(8, (i) => ({ method: 'POST', url: PATHS.categoryCreate, payload: { name: `Mixed ${i}` } }));
    add(4, (i) => ({
      method: 'PATCH',
      url: PATHS.category(categories[i % categories.length]!),
      payload: { name: `Race Renamed ${i}` },
    }));
    add(4, (i) => ({
      method: 'PUT',
      url: PATHS.categoryStatus(categories[i % categories.length]!),
      payload: { status: status() },
    }));
    add(4, (i) => ({
      method: 'POST',
      url: PATHS.specialDayCreate,
      payload: { name: `Mixed Day ${i}`, month: 1 + i, day: 20 },
    }));
    add(6, (i) => ({
      method: 'PUT',
      url: PATHS.specialDayStatus(days[i % days.length]!),
      payload: { status: status() },
    }));
    add(6, (i) => ({ method: 'PUT', url: PATHS.specialDayYear(2030 + i) }));
    add(8, () => ({
      method: 'PUT',
      url: PATHS.permissionStatus(grantIds[random(grantIds.length)]!),
      payload: { status: random(2) === 1 },
    }));
    add(3, (i) => ({ method: 'DELETE', url: PATHS.menuRemove(menus[i]!) }));
    add(3, () => ({
      method: 'PUT',
      url: PATHS.userPermissionBulk(member.id),
      payload: { items: some(grantIds, 8).map((id) => ({ id, status: random(2) === 1 })) },
    }));

    /** The content app recording a download of a poster (which may be gone by then). */
    const DOWNLOADS = 20;
    const recordDownload = async () => {
      try {
        await db
          .insertInto('posterDownloads')
          .values({ posterId: poster(), day: '2026-02-15', n: 1 })
          .onConflict((oc) =>
            oc
              .columns(['posterId', 'day'])
              .doUpdateSet((eb) => ({ n: eb('posterDownloads.n', '+', eb.ref('excluded.n')) })),
          )
          .execute();
      } catch (err) {
        if (!isForeignKeyViolation(err)) throw err;
      }
    };

    const before = await deadlocks();
    const order = shuffled(writes);
    const [responses] = await Promise.all([
      Promise.all(order.map((write) => s.api({ ...write, token: s.adminToken }))),
      Promise.all(Array.from({ length: DOWNLOADS }, recordDownload)),
    ]);
    const unexpected = responses
      .map((r, i) => ({
        call: `${order[i]!.method} ${order[i]!.url}`,
        status: r.statusCode,
        body: r.body,
      }))
      .filter((r) => r.status !== 200 && r.status !== 404);
    expect(unexpected).toEqual([]);
    expect(writes.length + DOWNLOADS).toBe(200);
    expect(await deadlocks(), 'deadlocks PostgreSQL counted').toBe(before);
  });
});

describe('the transaction helper', () => {
  const warnings = () => {
    const logged: Array<{ details: { code?: string }; message: string }> = [];
    const log: RetryLog = { warn: (details, message) => logged.push({ details, message }) };
    return { log, logged };
  };
  const conflict = () =>
    Object.assign(new Error('deadlock detected'), {
      code: TEST_DB === 'postgres' ? '40P01' : 'SQLITE_BUSY_SNAPSHOT',
    });
  let x: number;
  let y: number;
  beforeAll(async () => {
    x = await made(PATHS.categoryCreate, { name: 'Helper X' });
    y = await made(PATHS.categoryCreate, { name: 'Helper Y' });
  });
  const nameOf = async (id: number) =>
    (
      await db
        .selectFrom('categories')
        .select('name')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).name;

  it.runIf(TEST_DB === 'postgres')(
    'runs a transaction PostgreSQL cancelled in a deadlock again, and both commit',
    async () => {
      const { log, logged } = warnings();
      let arrived = 0;
      let bothHold!: () => void;
      const holding = new Promise<void>((resolve) => (bothHold = resolve));
      const hold = async () => {
        if (++arrived === 2) bothHold();
        await holding;
      };
      const lock = (trx: typeof db, id: number) =>
        sql`select id from categories where id = ${id} for update`.execute(trx);
      let runsA = 0;
      let runsB = 0;
      // Each locks its first row, waits until the other holds its own, then asks for the
      // other's: a deadlock. A looks for it first (a shorter deadlock_timeout): A is cancelled.
      const a = inTransaction(db, log, async (trx) => {
        runsA += 1;
        await sql`set local deadlock_timeout = '50ms'`.execute(trx);
        await lock(trx, x);
        if (runsA === 1) await hold();
        await lock(trx, y);
        await trx
          .updateTable('categories')
          .set({ name: 'Helper X by A' })
          .where('id', '=', x)
          .execute();
      });
      const b = inTransaction(db, log, async (trx) => {
        runsB += 1;
        await lock(trx, y);
        if (runsB === 1) await hold();
        await lock(trx, x);
        await trx
          .updateTable('categories')
          .set({ name: 'Helper Y by B' })
          .where('id', '=', y)
          .execute();
      });
      await Promise.all([a, b]);
      expect([runsA, runsB]).toEqual([2, 1]);
      expect(logged.map((l) => l.details.code)).toEqual(['40P01']);
      expect(logged[0]!.message).toMatch(/deadlock detected/);
      expect([await nameOf(x), await nameOf(y)]).toEqual(['Helper X by A', 'Helper Y by B']);
    },
  );

  it.runIf(TEST_DB === 'sqlite')(
    'runs a SQLite transaction another process wrote past again, and it commits',
    async () => {
      if (s.config.database.kind !== 'sqlite') throw new Error('SQLite only');
      const other = new SQLite(s.config.database.file);
      other.pragma('busy_timeout = 5000');
      const { log, logged } = warnings();
      let runs = 0;
      try {
        await inTransaction(db, log, async (trx) => {
          runs += 1;
          await trx.selectFrom('categories').select('name').where('id', '=', x).execute();
          if (runs === 1) {
            other
              .prepare('update categories set name = ? where id = ?')
              .run('Helper X elsewhere', x);
          }
          await trx
            .updateTable('categories')
            .set({ name: 'Helper Y here' })
            .where('id', '=', y)
            .execute();
        });
      } finally {
        other.close();
      }
      expect(runs).toBe(2);
      expect(logged.map((l) => l.details.code)).toEqual(['SQLITE_BUSY_SNAPSHOT']);
      expect([await nameOf(x), await nameOf(y)]).toEqual(['Helper X elsewhere', 'Helper Y here']);
    },
  );

  it(`gives up after ${TRANSACTION_ATTEMPTS} runs, with the conflict`, async () => {
    const { log, logged } = warnings();
    let runs = 0;
    const failing = inTransaction(db, log, async (trx) => {
      runs += 1;
      await trx.updateTable('categories').set({ name: 'Never' }).where('id', '=', x).execute();
      throw conflict();
    });
    await expect(failing).rejects.toMatchObject({ code: conflict().code });
    expect(runs).toBe(TRANSACTION_ATTEMPTS);
    expect(logged).toHaveLength(TRANSACTION_ATTEMPTS - 1);
    expect(await nameOf(x)).not.toBe('Never');
  });

  it('runs a nested transaction once per run of the outer one, which is the one retried', async () => {
    const { log, logged } = warnings();
    let outer = 0;
    let inner = 0;
    await inTransaction(db, log, async (trx) => {
      outer += 1;
      await inTransaction(trx, log, async (nested) => {
        inner += 1;
        await nested
          .updateTable('categories')
          .set({ name: `Nested ${inner}` })
          .where('id', '=', y)
          .execute();
        if (inner === 1) throw conflict();
      });
    });
    expect([outer, inner]).toEqual([2, 2]);
    expect(logged).toHaveLength(1);
    expect(await nameOf(y)).toBe('Nested 2');
  });

  it.runIf(TEST_DB === 'postgres')(
    'a call whose write the database keeps cancelling answers 503 with Retry-After, and changes nothing',
    async () => {
      const [id] = await posters(1);
      await sql`create sequence race_attempts`.execute(db);
      await sql
        .raw(
          `create function race_conflict() returns trigger language plpgsql as $$ begin ` +
            `perform nextval('race_attempts'); ` +
            `raise exception 'deadlock detected' using errcode = '40P01'; end $$`,
        )
        .execute(db);
      await sql
        .raw(
          `create trigger race_conflict before update on posters for each row ` +
            `when (old.id = ${id}) execute function race_conflict()`,
        )
        .execute(db);
      try {
        const res = await admin({
          method: 'PUT',
          url: PATHS.posterStatus(id!),
          payload: { status: 'PENDING' },
        });
        expect(res.statusCode, res.body).toBe(503);
        expect(res.headers['retry-after']).toBe('1');
        expect(res.json()).toMatchObject({ statusCode: 503, message: MESSAGES.databaseBusy });
        const { rows } = await sql<{
          n: string;
        }>`select last_value as n from race_attempts`.execute(db);
        expect(Number(rows[0]!.n)).toBe(TRANSACTION_ATTEMPTS);
        const row = await db
          .selectFrom('posters')
          .select('status')
          .where('id', '=', id!)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('ACTIVE');
        const logged = await db
          .selectFrom('auditLog')
          .select('id')
          .where('area', '=', 'posters')
          .where('rowId', '=', id!)
          .where('action', '=', 'STATUS')
          .execute();
        expect(logged).toEqual([]);
      } finally {
        await sql`drop trigger race_conflict on posters`.execute(db);
        await sql`drop function race_conflict()`.execute(db);
        await sql`drop sequence race_attempts`.execute(db);
      }
    },
  );
});
