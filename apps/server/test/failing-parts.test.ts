/**
 * When a part fails (issue #32, API.md Operations): each part a call may need — Redis, the media
 * bucket, the disk, the database (a locked table, a busy file) — stops answering, and the calls
 * that need it answer 503 with Retry-After naming it, at once rather than after a stall, while the
 * calls that do not need it keep answering, readiness says `degraded` for an optional part, and
 * nothing is half done: no row without its file, no partial file, no change kept and answered as
 * failed. The database stopping altogether is in operations.test.ts (PostgreSQL).
 */
import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { PATHS } from '@master-admin/contract';
import { ADMIN, TEST_DB, multipart, startS3, startServer, type TestServer } from './harness.ts';
import { images } from './images.ts';
import { startRelay, type Relay } from './relay.ts';
import { openDatabase, type Db } from '../src/db/connect.ts';
import { now } from '../src/db/dialect.ts';
import { CommitUnconfirmed, inTransaction } from '../src/db/transaction.ts';
import { withDeadline } from '../src/http/deadline.ts';

const s = await startServer();
afterAll(() => s.close());

/** A 503 naming `what`, with Retry-After and the request id, nothing internal. */
function expectUnavailable(res: LightMyRequestResponse, what: RegExp) {
  expect(res.statusCode, res.body).toBe(503);
  expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
  const body = res.json<{ error: string; message: string; requestId: string }>();
  expect(body).toMatchObject({ statusCode: 503, error: 'Service Unavailable' });
  expect(body.message).toMatch(what);
  expect(body.requestId).toBe(res.headers['x-request-id']);
}

const ready = async (server: TestServer) => {
  const res = await server.api({ method: 'GET', url: PATHS.ready });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>() };
};

/** Readiness until `status` is what it says, or its last answer after 10 s. */
async function readyUntil(server: TestServer, status: string) {
  const until = Date.now() + 10_000;
  let last = await ready(server);
  while (last.body.status !== status && Date.now() < until) {
    await new Promise((r) => setTimeout(r, 100));
    last = await ready(server);
  }
  return last;
}

/** A master app of `server` to put banners in (made once per server). */
const apps = new Map<TestServer, number>();
async function masterApp(server: TestServer) {
  let id = apps.get(server);
  if (id === undefined) {
    const res = await server.api({
      method: 'POST',
      url: PATHS.masterAppCreate,
      token: server.adminToken,
      payload: { name: `App ${apps.size + 1}` },
    });
    id = res.json<{ result: { id: number } }>().result.id;
    apps.set(server, id);
  }
  return id;
}

const newBanner = async (server: TestServer, png: Buffer) =>
  server.api({
    method: 'POST',
    url: PATHS.bannerCreate(await masterApp(server)),
    token: server.adminToken,
    ...(await multipart({ linkType: 'DEFAULT' }, { file: { name: 'b.png', data: png } })),
  });

describe('Redis stops answering', () => {
  it('sign-in answers 503 naming it at once; everything else serves; readiness says degraded; back by itself', async () => {
    const relay = await startRelay({ host: '127.0.0.1', port: 6379 });
    const withRedis = await startServer({ REDIS_URL: `redis://127.0.0.1:${relay.port}` });
    try {
      expect(await ready(withRedis)).toEqual({ status: 200, body: { status: 'ready' } });
      await relay.cut();
      const startedAt = Date.now();
      const signIn = await withRedis.api({
        method: 'POST',
        url: PATHS.login,
        payload: { email: ADMIN.email, password: ADMIN.password },
      });
      expectUnavailable(signIn, /^Redis/);
      expect(Date.now() - startedAt).toBeLessThan(2000);
      const list = await withRedis.api({
        method: 'GET',
        url: PATHS.categoryList,
        token: withRedis.adminToken,
      });
      expect(list.statusCode).toBe(200);
      expect(await readyUntil(withRedis, 'degraded')).toEqual({
        status: 200,
        body: { status: 'degraded', failing: ['redis'] },
      });
      await relay.restore();
      expect((await readyUntil(withRedis, 'ready')).body).toEqual({ status: 'ready' });
      const back = await withRedis.api({
        method: 'POST',
        url: PATHS.login,
        payload: { email: ADMIN.email, password: ADMIN.password },
      });
      expect(back.statusCode, back.body).toBe(200);
    } finally {
      await withRedis.close();
      await relay.close();
    }
  });
});

describe('the media bucket stops answering', () => {
  it('an upload answers 503 naming it and leaves no row; lists serve; readiness says degraded', async () => {
    const bucket = await startS3('failing-parts');
    const relay = await startRelay({
      host: '127.0.0.1',
      port: Number(new URL(bucket.endpoint).port),
    });
    const withBucket = await startServer({
      ...bucket.env,
      S3_ENDPOINT: `http://127.0.0.1:${relay.port}`,
      S3_PUBLIC_URL: bucket.endpoint,
    });
    try {
      const png = await images.png();
      expect((await newBanner(withBucket, png)).statusCode).toBe(200);
      await relay.cut();
      expectUnavailable(await newBanner(withBucket, await images.png(40, 30)), /media store/);
      expect(await withBucket.rowCount('banners')).toBe(1);
      const list = await withBucket.api({
        method: 'GET',
        url: PATHS.bannerList,
        token: withBucket.adminToken,
      });
      expect(list.json().total).toBe(1);
      expect(await readyUntil(withBucket, 'degraded')).toEqual({
        status: 200,
        body: { status: 'degraded', failing: ['bucket'] },
      });
      await relay.restore();
      expect((await readyUntil(withBucket, 'ready')).body).toEqual({ status: 'ready' });
      expect((await newBanner(withBucket, await images.png(40, 30))).statusCode).toBe(200);
    } finally {
      await withBucket.close();
      await relay.close();
      await bucket.close();
    }
  });
});

describe('after a change has committed', () => {
  it('a file that cannot be removed leaves the change answered as done (the sweep removes it later)', async () => {
    const created = await newBanner(s, await images.png(50, 40));
    expect(created.statusCode, created.body).toBe(200);
    const { id, image } = created.json<{ result: { id: number; image: string } }>().result;
    const store = s.ctx.media.store;
    const remove = store.delete.bind(store);
    store.delete = () =>
      Promise.reject(Object.assign(new Error('connect'), { code: 'ECONNREFUSED' }));
    try {
      const replaced = await s.api({
        method: 'PUT',
        url: PATHS.bannerImage(id),
        token: s.adminToken,
        ...(await multipart({}, { file: { name: 'c.png', data: await images.png(60, 40) } })),
      });
      expect(replaced.statusCode, replaced.body).toBe(200);
      expect(replaced.json().result.image).not.toBe(image);
      // The old file is still there, for the sweep.
      expect(fs.existsSync(s.mediaFile(image))).toBe(true);
    } finally {
      store.delete = remove;
    }
  });
});

describe('a COMMIT whose answer is lost (PostgreSQL)', () => {
  /** `work` on the test server's database through a relay that can lose a COMMIT's answer. */
  async function throughRelay(work: (db: Db, relay: Relay) => Promise<void>) {
    const { database } = s.ctx.config;
    if (database.kind !== 'postgres') throw new Error('PostgreSQL only');
    const url = new URL(database.url);
    const relay = await startRelay({ host: url.hostname, port: Number(url.port || 5432) });
    url.port = String(relay.port);
    const handle = openDatabase({ kind: 'postgres', url: url.toString() });
    try {
      await work(handle.db, relay);
    } finally {
      await handle.close();
      await relay.close();
    }
  }
  const questions = (db: Db, question: string) =>
    db.selectFrom('faqs').select('id').where('question', '=', question).execute();
  const addFaq = (db: Db, question: string) =>
    inTransaction(db, async (trx) => {
      const row = await trx
        .insertInto('faqs')
        .values({ question, answer: 'Yes.', createdAt: now(), updatedAt: now() })
        .returning('id')
        .executeTakeFirstOrThrow();
      return row.id;
    });

  it.runIf(TEST_DB === 'postgres')(
    'one the database got is answered as made: asked on another connection, it had committed',
    async () => {
      await throughRelay(async (db, relay) => {
        relay.loseNextCommit('delivered');
        const id = await addFaq(db, 'Lost commit, delivered?');
        expect(await questions(db, 'Lost commit, delivered?')).toEqual([{ id }]);
      });
    },
  );

  it.runIf(TEST_DB === 'postgres')(
    'one the database never got fails as not made, and is not there',
    async () => {
      await throughRelay(async (db, relay) => {
        relay.loseNextCommit('undelivered');
        await expect(addFaq(db, 'Lost commit, undelivered?')).rejects.toThrow(
          /Connection terminated|not queryable/,
        );
        expect(await questions(db, 'Lost commit, undelivered?')).toEqual([]);
      });
    },
  );

  it.runIf(TEST_DB === 'postgres')(
    'with the database gone past the request’s grace: a 503 that says it may have been made',
    async () => {
      await throughRelay(async (db, relay) => {
        let cut: Promise<void> | undefined;
        relay.loseNextCommit('delivered', () => {
          cut = relay.cut();
        });
        const failed = await withDeadline(300, () => addFaq(db, 'Lost commit, unconfirmed?')).then(
          () => undefined,
          (err: unknown) => err,
        );
        await cut;
        expect(failed).toBeInstanceOf(CommitUnconfirmed);
        expect((failed as CommitUnconfirmed).message).toMatch(/same Idempotency-Key/);
        await relay.restore();
        expect(await questions(db, 'Lost commit, unconfirmed?')).toHaveLength(1);
      });
    },
  );
});

describe('a full disk', () => {
  it('an upload answers 503 and leaves neither a row nor a partial file', async () => {
    const rowsBefore = await s.rowCount('banners');
    const write = fs.promises.writeFile;
    // As the disk fills: the file is begun, then the write fails.
    fs.promises.writeFile = (async (file: fs.PathLike, ...rest: unknown[]) => {
      if (String(file).startsWith(s.mediaDir)) {
        await write(file, '');
        throw Object.assign(new Error('no space left on device'), { code: 'ENOSPC' });
      }
      return (write as (...a: unknown[]) => Promise<void>)(file, ...rest);
    }) as typeof fs.promises.writeFile;
    try {
      expectUnavailable(await newBanner(s, await images.png(70, 40)), /disk is full/);
    } finally {
      fs.promises.writeFile = write;
    }
    expect(await s.rowCount('banners')).toBe(rowsBefore);
    expect(s.storedFiles().filter((f) => f.endsWith('.part'))).toEqual([]);
  });
});

describe('a locked table', () => {
  it.runIf(TEST_DB === 'postgres')(
    'held past the deadline: its writes answer 503 and change nothing; other areas, liveness and readiness answer at once',
    async () => {
      const locked = await startServer({ REQUEST_DEADLINE_MS: '1500', LOCK_TIMEOUT_MS: '1000' });
      const holder = new pg.Client({ connectionString: locked.env.DATABASE_URL });
      await holder.connect();
      try {
        const created = await newBanner(locked, await images.png());
        const { id } = created.json<{ result: { id: number } }>().result;
        const audited = await locked.rowCount('auditLog');
        await holder.query('begin');
        await holder.query('lock table banners in access exclusive mode');
        const startedAt = Date.now();
        // More writes at once than the main pool has connections.
        const writes = Array.from({ length: 14 }, (_, i) =>
          locked.api({
            method: 'PUT',
            url: PATHS.bannerStatus(id),
            token: locked.adminToken,
            payload: { status: i % 2 ? 'ACTIVE' : 'DEACTIVE' },
          }),
        );
        const others = await Promise.all([
          locked.api({ method: 'GET', url: PATHS.health }),
          locked.api({ method: 'GET', url: PATHS.categoryList, token: locked.adminToken }),
          locked.api({ method: 'GET', url: PATHS.ready }),
        ]);
        expect(others.map((r) => r.statusCode)).toEqual([200, 200, 200]);
        expect(Date.now() - startedAt, 'liveness, a list and readiness').toBeLessThan(1000);
        for (const res of await Promise.all(writes)) expectUnavailable(res, /busy|longer/);
        expect(Date.now() - startedAt).toBeLessThan(8000);
        await holder.query('rollback');
        // Nothing of them was kept.
        expect(await locked.rowCount('auditLog')).toBe(audited);
        const row = await locked.ctx.db
          .selectFrom('banners')
          .select('status')
          .where('id', '=', id)
          .executeTakeFirstOrThrow();
        expect(row.status).toBe('ACTIVE');
      } finally {
        await holder.end();
        await locked.close();
      }
    },
    20_000,
  );

  it.runIf(TEST_DB === 'sqlite')(
    'held by another process: a write answers 503 once the lock bound passes, and works once it is let go',
    async () => {
      const busy = await startServer({ LOCK_TIMEOUT_MS: '300' });
      const other = new Database(path.join(busy.env.DATA_DIR!, 'master-admin.sqlite'));
      try {
        other.exec('begin immediate');
        const startedAt = Date.now();
        const refused = await busy.api({
          method: 'POST',
          url: PATHS.categoryCreate,
          token: busy.adminToken,
          payload: { name: 'While Busy' },
        });
        expectUnavailable(refused, /busy/);
        expect(Date.now() - startedAt).toBeLessThan(2000);
        other.exec('rollback');
        const created = await busy.api({
          method: 'POST',
          url: PATHS.categoryCreate,
          token: busy.adminToken,
          payload: { name: 'While Busy' },
        });
        expect(created.statusCode, created.body).toBe(200);
      } finally {
        other.close();
        await busy.close();
      }
    },
  );
});
