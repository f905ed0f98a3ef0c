/**
 * The trash (API.md "Planning festivals"): every area's delete moves rows there with their files
 * and what went with them; lists, kept counts and the apps API leave them out; restore (one or
 * 500, all or nothing, 409 on a taken name), purge at once (SUPER_ADMIN) or by the sweep after
 * TRASH_DAYS; each account sees the areas it may delete in.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { APP_API_BASE, APP_PATHS, MESSAGES, type TrashRow } from '@master-admin/contract';
import fs from 'node:fs';
import pg from 'pg';
import { TEST_DB, multipart, posterRow, startServer } from './harness.ts';
import { images } from './images.ts';
import { sweepTrash } from '../src/features/trash/service.ts';

const logLines: Array<Record<string, unknown>> = [];
const s = await startServer({ LOG_LEVEL: 'error' }, { logLines });
afterAll(() => s.close());

const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });
const ok = async (res: { statusCode: number; body: string; json(): unknown }) => {
  expect(res.statusCode, `${res.body} ${JSON.stringify(logLines.slice(-1))}`).toBe(200);
  return res.json() as { message: string; result: { id: number } & Record<string, unknown> };
};

let appId: number;
let appKey: string;
let categoryId: number;
beforeAll(async () => {
  appId = (
    await ok(await admin({ method: 'POST', url: '/master-app', payload: { name: 'Trash App' } }))
  ).result.id;
  categoryId = (
    await ok(await admin({ method: 'POST', url: '/category', payload: { name: 'Trash Festival' } }))
  ).result.id;
  const key = await admin({ method: 'GET', url: `/master-app/${appId}/app-key` });
  appKey = key.json<{ result: { key: string } }>().result.key;
});

let size = 41;
async function newPoster(): Promise<{ id: number; poster: string }> {
  const form = await multipart(
    {
      position: 'LEFT',
      topDefNum: '1',
      selfDefNum: '2',
      bottomDefNum: '3',
      masterAppId: String(appId),
    },
    { file: { name: 'p.png', data: await images.png(size++, 50), type: 'image/png' } },
  );
  const res = await admin({ method: 'POST', url: `/poster/only-cat/${categoryId}`, ...form });
  return (await ok(res)).result as unknown as { id: number; poster: string };
}

const posterIds = async (query = '') => {
  const res = await admin({
    method: 'GET',
    url: `/poster/list?masterAppId=${appId}&limit=100${query}`,
  });
  const body = res.json<{ result: Array<{ id: number; version: number }>; total: number }>();
  return { ids: body.result.map((r) => r.id), total: body.total, rows: body.result };
};
const trash = async (query = '', token = s.adminToken) => {
  const res = await s.api({ method: 'GET', url: `/trash${query}`, token });
  return res;
};
const restore = (items: unknown, token = s.adminToken) =>
  s.api({ method: 'POST', url: '/trash/restore', token, payload: { items } });
const purge = (items: unknown, token = s.adminToken) =>
  s.api({ method: 'DELETE', url: '/trash', token, payload: { items } });
const served = async (url: string) => (await s.app.inject({ method: 'GET', url })).statusCode;
const appFeed = async () => {
  const res = await s.app.inject({
    method: 'GET',
    url: `${APP_API_BASE}${APP_PATHS.posters}?limit=100`,
    headers: { 'x-app-key': appKey },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: Array<{ id: number }> }>().result.map((r) => r.id);
};

describe('a poster deleted, restored, purged', () => {
  it('leaves lists, counts and the apps API with its files kept, comes back whole, then goes for good', async () => {
    const { id, poster } = await newPoster();
    await s.ctx.db
      .insertInto('posterDownloads')
      .values({ posterId: id, day: '2026-11-01', n: 7 })
      .execute();
    const before = await posterIds();
    expect(before.ids).toContain(id);
    const version = before.rows.find((r) => r.id === id)!.version;
    expect(await appFeed()).toContain(id);

    const del = await admin({ method: 'DELETE', url: `/poster/remove/${id}` });
    expect(await ok(del)).toEqual({ message: MESSAGES.posterDeleted, result: { id } });
    const after = await posterIds();
    expect(after.ids).not.toContain(id);
    expect(after.total).toBe(before.total - 1);
    expect(await appFeed()).not.toContain(id);
    expect(await s.rowCount('posterDownloads')).toBe(0);
    // The file stays while the row is in the trash, and the media sweep leaves it.
    expect(await served(poster)).toBe(200);
    await s.ctx.media.release([poster.replace(/^\/media\//, '')]);
    expect(fs.existsSync(s.mediaFile(poster))).toBe(true);

    const listed = await trash('?area=posters');
    expect(listed.statusCode, listed.body).toBe(200);
    const row = listed.json<{ result: TrashRow[] }>().result.find((r) => r.id === id)!;
    expect(row).toMatchObject({
      area: 'posters',
      id,
      title: 'Trash Festival · Trash App',
      thumbnail: poster,
      deletedBy: { id: s.adminId, name: expect.any(String) },
    });

    expect(await ok(await restore([{ area: 'posters', id }]))).toMatchObject({
      message: MESSAGES.restored,
    });
    const back = await posterIds();
    expect(back.ids).toContain(id);
    expect(back.total).toBe(before.total);
    expect(back.rows.find((r) => r.id === id)!.version).toBe(version + 1);
    expect(await appFeed()).toContain(id);
    expect(await served(poster)).toBe(200);
    expect(await s.rowCount('posterDownloads')).toBe(1);
    expect((await trash('?area=posters')).json()).toMatchObject({ total: 0 });
    expect((await s.auditOf(s.adminId, 'RESTORE')).map((e) => e.rowId)).toContain(id);

    // Deleted again, then purged: the row and its file are gone.
    await ok(await admin({ method: 'DELETE', url: `/poster/remove/${id}` }));
    expect(await ok(await purge([{ area: 'posters', id }]))).toMatchObject({
      message: MESSAGES.purged,
    });
    expect(fs.existsSync(s.mediaFile(poster))).toBe(false);
    expect(await served(poster)).toBe(404);
    expect((await restore([{ area: 'posters', id }])).statusCode).toBe(404);
    expect((await s.auditOf(s.adminId, 'PURGE')).map((e) => e.rowId)).toContain(id);
  });
});

describe('in bulk', () => {
  it('deletes 500 posters and restores them in one call', async () => {
    const { poster } = await newPoster();
    const key = poster.replace(/^\/media\//, '');
    const at = new Date().toISOString();
    const rows = Array.from({ length: 500 }, () => ({
      masterAppId: appId,
      categoryId,
      accountId: s.adminId,
      topDefNum: 1,
      selfDefNum: 1,
      bottomDefNum: 1,
      poster: key,
      status: 'ACTIVE' as const,
      position: 'LEFT' as const,
      createdAt: at,
      updatedAt: at,
    }));
    const ids: number[] = [];
    for (let i = 0; i < rows.length; i += 100) {
      const made = await s.ctx.db
        .insertInto('posters')
        .values(rows.slice(i, i + 100))
        .returning('id')
        .execute();
      ids.push(...made.map((r) => r.id));
    }
    const before = (await posterIds()).total;
    const del = await admin({ method: 'DELETE', url: '/poster/bulkDelete', payload: { ids } });
    expect((await ok(del)).result).toEqual({ ids, count: 500 });
    expect((await posterIds()).total).toBe(before - 500);
    expect((await trash('?area=posters&limit=1')).json()).toMatchObject({ total: 500 });

    const res = await restore(ids.map((id) => ({ area: 'posters', id })));
    expect((await ok(res)).result).toMatchObject({ count: 500 });
    expect((await posterIds()).total).toBe(before);
    expect((await trash('?area=posters&limit=1')).json()).toMatchObject({ total: 0 });
  });

  it('is all or nothing: one item not in the trash restores none, naming it', async () => {
    const a = await newPoster();
    await ok(await admin({ method: 'DELETE', url: `/poster/remove/${a.id}` }));
    const res = await restore([
      { area: 'posters', id: a.id },
      { area: 'faqs', id: 999_999 },
    ]);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('FAQ 999999');
    expect((await posterIds()).ids).not.toContain(a.id);
    await ok(await restore([{ area: 'posters', id: a.id }]));
  });
});

describe('a restore that would clash', () => {
  it('answers 409 naming the category whose name was taken meanwhile, and restores nothing', async () => {
    const made = await ok(
      await admin({ method: 'POST', url: '/category', payload: { name: 'Eid Greetings' } }),
    );
    const id = made.result.id;
    await ok(await admin({ method: 'DELETE', url: `/category/remove/${id}` }));
    const list = await admin({ method: 'GET', url: '/category/list?keyword=Eid%20Greetings' });
    expect(list.json()).toMatchObject({ total: 0 });
    const twin = await ok(
      await admin({ method: 'POST', url: '/category', payload: { name: 'eid greetings' } }),
    );
    const res = await restore([{ area: 'categories', id }]);
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toContain(`Category ${id}`);
    expect(res.json().details[0].path).toBe('items');
    // Once the name is free again, it comes back.
    await ok(await admin({ method: 'DELETE', url: `/category/remove/${twin.result.id}` }));
    await ok(await restore([{ area: 'categories', id }]));
    const back = await admin({ method: 'GET', url: '/category/list?keyword=Eid%20Greetings' });
    expect(back.json().result.map((r: { id: number }) => r.id)).toEqual([id]);
  });
});

describe('other areas', () => {
  it('a FAQ and a notification with its reads come back as they were', async () => {
    const faq = await ok(
      await admin({
        method: 'POST',
        url: '/faqs',
        payload: { question: 'Trash?', answer: 'Yes.' },
      }),
    );
    await ok(await admin({ method: 'DELETE', url: `/faqs/remove/${faq.result.id}` }));
    expect((await admin({ method: 'GET', url: '/faqs/list?keyword=Trash' })).json()).toMatchObject({
      total: 0,
    });
    await ok(await restore([{ area: 'faqs', id: faq.result.id }]));
    expect((await admin({ method: 'GET', url: '/faqs/list?keyword=Trash' })).json()).toMatchObject({
      total: 1,
    });

    const note = await ok(
      await admin({
        method: 'POST',
        url: '/notifications/single',
        payload: { title: 'Diwali sale', desc: 'Now', type: 'info', masterAppId: appId },
      }),
    );
    const nid = note.result.id;
    await s.ctx.db
      .insertInto('notificationReads')
      .values({ notificationId: nid, accountId: s.adminId, readAt: new Date().toISOString() })
      .execute();
    await ok(await admin({ method: 'DELETE', url: `/notifications/remove/${nid}` }));
    expect(await s.rowCount('notificationReads')).toBe(0);
    await ok(await restore([{ area: 'notifications', id: nid }]));
    expect(await s.rowCount('notificationReads')).toBe(1);
  });
});

describe('the sweep', () => {
  it('purges rows deleted more than TRASH_DAYS ago, with their files, and leaves younger ones', async () => {
    const old = await newPoster();
    const young = await newPoster();
    await ok(await admin({ method: 'DELETE', url: `/poster/remove/${old.id}` }));
    await ok(await admin({ method: 'DELETE', url: `/poster/remove/${young.id}` }));
    const days = s.config.trashDays;
    expect(days).toBe(30);
    const longAgo = new Date(Date.now() - (days + 1) * 86_400_000).toISOString();
    await s.ctx.db
      .updateTable('trash')
      .set({ deletedAt: longAgo })
      .where('area', '=', 'posters')
      .where('rowId', '=', old.id)
      .execute();
    const log = { info: () => undefined, warn: () => undefined };
    expect(await sweepTrash(s.ctx.db, s.ctx.media, days, log)).toBe(1);
    expect(fs.existsSync(s.mediaFile(old.poster))).toBe(false);
    expect(fs.existsSync(s.mediaFile(young.poster))).toBe(true);
    const left = (await trash('?area=posters')).json<{ result: TrashRow[] }>();
    expect(left.result.map((r) => r.id)).toEqual([young.id]);
    // A second instance sweeping the same moment finds nothing left to do.
    expect(await sweepTrash(s.ctx.db, s.ctx.media, days, log)).toBe(0);
    // A moved clock: 31 days on, the young one goes too.
    const later = Date.now() + 31 * 86_400_000;
    expect(await sweepTrash(s.ctx.db, s.ctx.media, days, log, later)).toBeGreaterThanOrEqual(1);
    expect(fs.existsSync(s.mediaFile(young.poster))).toBe(false);
    expect((await trash()).json()).toMatchObject({ total: 0 });
  });

  it('two instances sweeping at once purge each row once between them', async () => {
    const made = await s.ctx.db
      .insertInto('posters')
      .values(
        Array.from({ length: 450 }, () =>
          posterRow({ masterAppId: appId, categoryId, accountId: s.adminId }),
        ),
      )
      .returning('id')
      .execute();
    const ids = made.map((r) => r.id);
    await ok(await admin({ method: 'DELETE', url: '/poster/bulkDelete', payload: { ids } }));
    const longAgo = new Date(Date.now() - 40 * 86_400_000).toISOString();
    await s.ctx.db.updateTable('trash').set({ deletedAt: longAgo }).execute();
    const log = { info: () => undefined, warn: () => undefined };
    const sweep = () => sweepTrash(s.ctx.db, s.ctx.media, s.config.trashDays, log);
    const [one, two] = await Promise.all([sweep(), sweep()]);
    expect(one + two).toBe(450);
    expect((await trash()).json()).toMatchObject({ total: 0 });
    expect(await s.rowCount('trashMedia')).toBe(0);
  });
});

describe('a restore the database stops midway', () => {
  // The restore writes the audit log last: held, it stops a restore whose rows are back and whose
  // trash rows are gone, inside its transaction, until the lock bound (LOCK_TIMEOUT_MS) passes.
  it.runIf(TEST_DB === 'postgres')(
    'answers 503 with Retry-After and restores nothing; sent again, restores every row once',
    async () => {
      const ids = [(await newPoster()).id, (await newPoster()).id, (await newPoster()).id];
      await ok(await admin({ method: 'DELETE', url: '/poster/bulkDelete', payload: { ids } }));
      const items = ids.map((id) => ({ area: 'posters', id }));
      const restored = async () =>
        (
          await s.ctx.db
            .selectFrom('auditLog')
            .select('rowId')
            .where('action', '=', 'RESTORE')
            .where('rowId', 'in', ids)
            .execute()
        ).length;

      const holder = new pg.Client({ connectionString: s.env.DATABASE_URL });
      await holder.connect();
      try {
        await holder.query('begin');
        await holder.query('lock table audit_log in exclusive mode');
        const res = await restore(items);
        expect(res.statusCode, res.body).toBe(503);
        expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
        await holder.query('rollback');
      } finally {
        await holder.end();
      }
      expect((await posterIds()).ids.filter((id) => ids.includes(id))).toEqual([]);
      const kept = (await trash('?area=posters&limit=100')).json<{ result: TrashRow[] }>();
      expect(
        kept.result
          .map((r) => r.id)
          .filter((id) => ids.includes(id))
          .sort(),
      ).toEqual([...ids].sort());
      expect(await restored()).toBe(0);

      await ok(await restore(items));
      expect((await posterIds()).ids.filter((id) => ids.includes(id)).sort()).toEqual(
        [...ids].sort(),
      );
      expect(await restored()).toBe(3);
    },
  );
});

describe('access', () => {
  it('shows, restores and lets purge only what the account may delete', async () => {
    const faq = await ok(
      await admin({ method: 'POST', url: '/faqs', payload: { question: 'Staff?', answer: 'No.' } }),
    );
    await ok(await admin({ method: 'DELETE', url: `/faqs/remove/${faq.result.id}` }));
    const p = await newPoster();
    await ok(await admin({ method: 'DELETE', url: `/poster/remove/${p.id}` }));

    const posterStaff = await s.staff({ poster: ['VIEW', 'DELETE'], faqs: ['VIEW'] });
    const seen = await trash('', posterStaff.token);
    expect(seen.statusCode, seen.body).toBe(200);
    const areas = new Set(seen.json<{ result: TrashRow[] }>().result.map((r) => r.area));
    expect([...areas]).toEqual(['posters']);
    expect((await trash('?area=faqs', posterStaff.token)).statusCode).toBe(403);
    const refused = await restore([{ area: 'faqs', id: faq.result.id }], posterStaff.token);
    expect(refused.statusCode).toBe(404);
    expect(refused.json().message).toContain(`FAQ ${faq.result.id}`);
    expect((await purge([{ area: 'posters', id: p.id }], posterStaff.token)).statusCode).toBe(403);
    await ok(await restore([{ area: 'posters', id: p.id }], posterStaff.token));

    const viewer = await s.staff({ poster: ['VIEW'] });
    const none = await trash('', viewer.token);
    expect(none.statusCode, none.body).toBe(200);
    expect(none.json()).toEqual({ result: [], total: 0, nextCursor: null });
    expect((await trash('?area=posters', viewer.token)).statusCode).toBe(403);
    expect((await restore([{ area: 'faqs', id: faq.result.id }], viewer.token)).statusCode).toBe(
      404,
    );
    expect((await s.api({ method: 'GET', url: '/trash' })).statusCode).toBe(401);
  });
});

describe('bad input', () => {
  it.each([
    ['no items', [], 'items'],
    ['501 items', Array.from({ length: 501 }, (_, i) => ({ area: 'posters', id: i + 1 })), 'items'],
    ['an unknown area', [{ area: 'users', id: 1 }], 'items.0.area'],
    ['an id that is not one', [{ area: 'posters', id: 'x' }], 'items.0.id'],
    ['a zero id', [{ area: 'posters', id: 0 }], 'items.0.id'],
    [
      'a repeated item',
      [
        { area: 'posters', id: 1 },
        { area: 'posters', id: 1 },
      ],
      'items',
    ],
    ['an unknown key', [{ area: 'posters', id: 1, extra: true }], 'items.0.extra'],
  ])('%s → 400 naming the field, nothing changed', async (_name, items, path) => {
    for (const send of [restore, purge]) {
      const res = await send(items);
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
  });

  it('refuses an unknown area, a limit over 100 and unknown keys in the list query', async () => {
    for (const q of ['?area=users', '?limit=101', '?offset=-1', '?sort=title']) {
      expect((await trash(q)).statusCode, q).toBe(400);
    }
  });
});
