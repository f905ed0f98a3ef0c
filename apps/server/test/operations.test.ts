/**
 * What an operator and a load balancer see (API.md, Operations): readiness, `/metrics`, request
 * ids in answers, 5xx bodies and log lines. The drain on SIGTERM itself is in process.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB, multipart, startServer, type TestServer } from './harness.ts';
import { images } from './images.ts';

const TOKEN = 'metrics-token-0123456789';
const PG_ADMIN_URL = process.env.TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const s = await startServer({ METRICS_TOKEN: TOKEN, TRUST_PROXY: '10.0.0.0/8' });
/** Configured as by default: no METRICS_TOKEN, no TRUST_PROXY. */
const plain = await startServer();
afterAll(async () => {
  await s.close();
  await plain.close();
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

async function ready(server: TestServer = s) {
  const res = await server.api({ method: 'GET', url: '/health/ready' });
  return { status: res.statusCode, body: res.json<Record<string, unknown>>(), res };
}

/** Readiness once it answers 200, or its last answer after 10 s of asking. */
async function readyAgain(server: TestServer = s) {
  const deadline = Date.now() + 10_000;
  let last = await ready(server);
  while (last.status !== 200 && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 100));
    last = await ready(server);
  }
  return last;
}

/** The metrics text's sample lines (no comments). */
async function scrape(server: TestServer = s): Promise<string[]> {
  const res = await server.app.inject({
    url: '/metrics',
    headers: { authorization: `Bearer ${TOKEN}` },
  });
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
  return res.body.split('\n').filter((line) => line !== '' && !line.startsWith('#'));
}

/** The value of the sample `series` (name and labels exactly as printed), or undefined. */
const sample = (lines: string[], series: string) => {
  const line = lines.find((l) => l.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
};

/** A banner made on `server` from `png` (in a new master app): the answer to the upload. */
async function uploadBanner(server: TestServer, png: Buffer) {
  const app = await server.api({
    method: 'POST',
    url: '/master-app',
    token: server.adminToken,
    payload: { name: `Ops ${png.length}` },
  });
  const res = await server.api({
    method: 'POST',
    url: `/banner/${app.json<{ result: { id: number } }>().result.id}`,
    token: server.adminToken,
    ...(await multipart({}, { file: { name: 'a.png', data: png, type: 'image/png' } })),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: { image: string } }>().result;
}

describe('readiness', () => {
  it('answers 200 ready without a token, and 503 draining from the signal on while liveness stays ok', async () => {
    expect(await ready()).toMatchObject({ status: 200, body: { status: 'ready' } });
    s.app.lifecycle.draining = true;
    try {
      const { status, body, res } = await ready();
      expect(status).toBe(503);
      expect(body).toEqual({ status: 'draining', requestId: res.headers['x-request-id'] });
      expect(res.headers.connection).toBe('close');
      const health = await s.api({ method: 'GET', url: '/health' });
      expect(health.statusCode).toBe(200);
      expect(health.json()).toEqual({ status: 'ok' });
      expect(health.headers.connection).toBe('close');
      const call = await s.api({ method: 'GET', url: '/master-app/list', token: s.adminToken });
      expect(call.statusCode).toBe(200);
      expect(call.headers.connection).toBe('close');
    } finally {
      s.app.lifecycle.draining = false;
    }
    const after = await s.api({ method: 'GET', url: '/health' });
    expect(after.headers.connection).toBe('keep-alive');
  });

  it('is documented with both answers', async () => {
    const doc = (await s.app.inject({ url: '/api/docs/json' })).json<{
      paths: Record<string, { get?: { security?: unknown[]; responses: Record<string, unknown> } }>;
    }>();
    const op = doc.paths['/api/v1/health/ready']!.get!;
    expect(op.security).toEqual([]);
    expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '503']));
    expect(JSON.stringify(op.responses['503'])).toMatch(/"draining".*"unavailable".*"failing"/s);
  });

  it('answers 503 unavailable naming the database while it cannot be reached, with a log line of the request', async () => {
    const logLines: Array<Record<string, unknown>> = [];
    const broken = await startServer({ LOG_LEVEL: 'info' }, { logLines });
    try {
      expect((await ready(broken)).status).toBe(200);
      await broken.ctx.database.close();
      const { status, body, res } = await ready(broken);
      expect(status).toBe(503);
      const id = res.headers['x-request-id'];
      expect(body).toEqual({ status: 'unavailable', failing: ['database'], requestId: id });
      const warning = logLines.find((l) => l.msg === 'readiness: dependencies do not answer');
      expect(warning).toMatchObject({
        level: 40,
        reqId: id,
        errors: { database: expect.any(String) },
      });
    } finally {
      await broken.close().catch(() => undefined);
    }
  });

  it.runIf(TEST_DB === 'postgres')(
    'follows a PostgreSQL database that stops and starts taking connections: its calls 503, liveness alive',
    async () => {
      const name = new URL(
        s.config.database.kind === 'postgres' ? s.config.database.url : '',
      ).pathname.slice(1);
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      const signedInCall = async () =>
        (await s.api({ method: 'GET', url: '/master-app/list', token: s.adminToken })).statusCode;
      try {
        // Serving signed-in calls: every connection of the instance is open, the one that
        // listens for revocations included.
        expect(await signedInCall()).toBe(200);
        await admin.query(`alter database ${name} with allow_connections false`);
        await admin.query(
          'select pg_terminate_backend(pid) from pg_stat_activity where datname = $1',
          [name],
        );
        expect(await ready()).toMatchObject({
          status: 503,
          body: { status: 'unavailable', failing: ['database'] },
        });
        // A call that needs it: 503 naming it, with Retry-After (never a 500); liveness: alive.
        const refused = await s.api({ method: 'GET', url: '/category/list', token: s.adminToken });
        expect(refused.statusCode, refused.body).toBe(503);
        expect(refused.headers['retry-after']).toBe('5');
        expect(refused.json().message).toBe('The database is not answering; try again shortly');
        expect((await s.api({ method: 'GET', url: '/health' })).statusCode).toBe(200);
        await admin.query(`alter database ${name} with allow_connections true`);
        // Back once the pool has let go of its ended connections.
        expect(await readyAgain()).toMatchObject({ status: 200, body: { status: 'ready' } });
        expect(await signedInCall()).toBe(200);
      } finally {
        await admin.query(`alter database ${name} with allow_connections true`);
        await admin.end();
      }
    },
  );

  it.runIf(TEST_DB === 'postgres')(
    'outlives PostgreSQL ending a connection a transaction holds, and stays ready',
    async () => {
      const admin = new pg.Client({ connectionString: PG_ADMIN_URL });
      await admin.connect();
      try {
        const failed = await s.ctx.db
          .transaction()
          .execute(async (trx) => {
            const { rows } = await sql<{ pid: number }>`select pg_backend_pid() as pid`.execute(
              trx,
            );
            // A restart or failover ends the connection between two statements.
            await admin.query('select pg_terminate_backend($1)', [rows[0]!.pid]);
            await new Promise((r) => setTimeout(r, 500));
            await sql`select 1`.execute(trx);
          })
          .then(
            () => undefined,
            (err: unknown) => err,
          );
        expect(failed).toBeInstanceOf(Error);
        expect(await readyAgain()).toMatchObject({ status: 200, body: { status: 'ready' } });
      } finally {
        await admin.end();
      }
    },
  );

  // Redis and the bucket stopping (readiness `degraded`): failing-parts.test.ts.
});

describe('/metrics', () => {
  it('is an unknown route (404) without METRICS_TOKEN, and absent from the API document', async () => {
    const metrics = await plain.app.inject({ url: '/metrics' });
    const unknown = await plain.app.inject({ url: '/metricz' });
    expect(metrics.statusCode).toBe(404);
    expect(metrics.json()).toEqual({
      ...unknown.json<Record<string, unknown>>(),
      message: 'Route GET /metrics not found',
    });
    const doc = (await plain.app.inject({ url: '/api/docs/json' })).json<{
      paths: Record<string, unknown>;
    }>();
    expect(doc.paths['/metrics']).toBeUndefined();
  });

  it('answers 401 without the token or with a wrong one (a sign-in token included)', async () => {
    for (const authorization of [
      undefined,
      `Bearer ${TOKEN}x`,
      `Bearer ${TOKEN.slice(1)}`,
      `Basic ${TOKEN}`,
      `Bearer ${s.adminToken}`,
    ]) {
      const res = await s.app.inject({
        url: '/metrics',
        headers: authorization ? { authorization } : {},
      });
      expect(res.statusCode, authorization).toBe(401);
      expect(res.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      expect(res.body).not.toContain('http_requests_total');
    }
  });

  it('serves the named series, counting a request under its route pattern', async () => {
    await s.api({ method: 'GET', url: '/account/user/987654', token: s.adminToken });
    await s.app.inject({ url: '/no/such/page/123' });
    const lines = await scrape();
    const names = new Set(lines.map((l) => /^[a-z_]+/.exec(l)![0]));
    for (const name of [
      'http_requests_total',
      'http_request_duration_seconds_bucket',
      'process_cpu_user_seconds_total',
      'nodejs_eventloop_lag_seconds',
      'media_upload_bytes_total',
      'media_sweep_removed_files_total',
      'signin_failures_total',
      'signin_throttled_total',
      ...(TEST_DB === 'postgres' ? ['db_pool_connections', 'db_pool_waiting'] : ['db_read_queue']),
    ]) {
      expect(names, name).toContain(name);
    }
    const route = '/api/v1/account/user/:accountId';
    expect(sample(lines, `http_requests_total{route="${route}",method="GET",status="404"}`)).toBe(
      1,
    );
    expect(
      sample(
        lines,
        `http_request_duration_seconds_count{route="${route}",method="GET",status="404"}`,
      ),
    ).toBe(1);
    expect(
      sample(lines, 'http_requests_total{route="unmatched",method="GET",status="404"}'),
    ).toBeGreaterThanOrEqual(1);
    expect(lines.filter((l) => l.includes('987654') || l.includes('/no/such'))).toEqual([]);
    if (TEST_DB === 'postgres') {
      expect(sample(lines, 'db_pool_connections{pool="main",state="idle"}')).toBeGreaterThan(0);
      expect(sample(lines, 'db_pool_waiting{pool="reads"}')).toBe(0);
    } else {
      expect(sample(lines, 'db_read_queue')).toBe(0);
    }
  });

  it('counts sign-in failures and throttled sign-ins', async () => {
    const strict = await startServer({ METRICS_TOKEN: TOKEN, LOGIN_MAX_FAILURES: '2' });
    try {
      const attempt = async () =>
        (
          await strict.api({
            method: 'POST',
            url: '/auth/admin/login',
            payload: { email: 'nobody@test.local', password: 'wrong-password-1' },
          })
        ).statusCode;
      expect([await attempt(), await attempt(), await attempt()]).toEqual([401, 401, 429]);
      const lines = await scrape(strict);
      expect(sample(lines, 'signin_failures_total')).toBe(2);
      expect(sample(lines, 'signin_throttled_total')).toBe(1);
    } finally {
      await strict.close();
    }
  });

  it('counts uploaded bytes by kind and the files the media sweep removed', async () => {
    // A stored file no row names, an hour old: the sweep at start removes it.
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-ops-'));
    const orphan = path.join(dataDir, 'media', 'banners', 'aa', `${'a'.repeat(64)}.webp`);
    fs.mkdirSync(path.dirname(orphan), { recursive: true });
    fs.writeFileSync(orphan, 'x');
    const hourAgo = new Date(Date.now() - 61 * 60_000);
    fs.utimesSync(orphan, hourAgo, hourAgo);
    const media = await startServer({ METRICS_TOKEN: TOKEN, DATA_DIR: dataDir });
    try {
      await media.app.mediaSweeps.settled();
      expect(fs.existsSync(orphan)).toBe(false);
      const png = await images.png(30, 20);
      await uploadBanner(media, png);
      const lines = await scrape(media);
      expect(sample(lines, 'media_upload_bytes_total{kind="image"}')).toBe(png.length);
      expect(sample(lines, 'media_sweep_removed_files_total')).toBe(1);
    } finally {
      await media.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  });
});

describe('request ids', () => {
  const health = (headers: Record<string, string>, remoteAddress?: string) =>
    s.app.inject({ url: '/api/v1/health', headers, ...(remoteAddress ? { remoteAddress } : {}) });

  it('generates one for every request, answered in X-Request-Id', async () => {
    const [a, b] = [await health({}), await health({})];
    expect(a.headers['x-request-id']).toMatch(UUID);
    expect(b.headers['x-request-id']).toMatch(UUID);
    expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
  });

  it('keeps a well-formed X-Request-Id from a trusted proxy only', async () => {
    const id = 'lb-7f3a:2024.05_01-x';
    expect((await health({ 'x-request-id': id }, '10.1.2.3')).headers['x-request-id']).toBe(id);
    const longest = 'a'.repeat(128);
    expect((await health({ 'x-request-id': longest }, '10.1.2.3')).headers['x-request-id']).toBe(
      longest,
    );
    // A client that is not the proxy cannot choose its id.
    const direct = await health({ 'x-request-id': id }, '192.0.2.7');
    expect(direct.headers['x-request-id']).toMatch(UUID);
    // Malformed: too long, a space, a slash, a newline-like escape, empty.
    for (const bad of ['a'.repeat(129), 'two words', 'a/b', 'x%0Ay', '']) {
      const res = await health({ 'x-request-id': bad }, '10.1.2.3');
      expect(res.headers['x-request-id'], bad).toMatch(UUID);
    }
  });

  it('trusts no proxy by default', async () => {
    const res = await plain.app.inject({
      url: '/api/v1/health',
      headers: { 'x-request-id': 'chosen-by-client' },
    });
    expect(res.headers['x-request-id']).toMatch(UUID);
  });

  it('is on every answer: not found, refused, a bad URL, a bad body, a media file', async () => {
    const banner = await uploadBanner(s, await images.png(20, 20));
    const answers = {
      unknown: await s.app.inject({ url: '/no/such/thing' }),
      unknownApi: await s.api({ method: 'GET', url: '/no-such-call' }),
      signedOut: await s.api({ method: 'GET', url: '/master-app/list' }),
      badUrl: await s.app.inject({ url: '/api/v1/%E0%A4%A' }),
      longParam: await s.api({ method: 'GET', url: `/account/user/${'1'.repeat(201)}` }),
      badBody: await s.api({
        method: 'POST',
        url: '/auth/admin/login',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":',
      }),
      media: await s.app.inject({ url: banner.image }),
      docs: await s.app.inject({ url: '/api/docs/json' }),
    };
    expect(Object.fromEntries(Object.entries(answers).map(([k, r]) => [k, r.statusCode]))).toEqual({
      unknown: 404,
      unknownApi: 404,
      signedOut: 401,
      badUrl: 400,
      longParam: 414,
      badBody: 400,
      media: 200,
      docs: 200,
    });
    for (const [what, res] of Object.entries(answers)) {
      expect(res.headers['x-request-id'], what).toMatch(UUID);
    }
    // URLs Fastify refuses before routing get the API's error shape too, not Fastify's own.
    expect(Object.keys(answers.longParam.json()).sort()).toEqual([
      'error',
      'message',
      'statusCode',
    ]);
    expect(answers.badUrl.json()).toEqual({
      statusCode: 400,
      error: 'Bad Request',
      message: "'/api/v1/%E0%A4%A' is not a valid url component",
    });
  });

  it('is in a 5xx body and in every log line of that request', async () => {
    const logLines: Array<Record<string, unknown>> = [];
    const broken = await startServer({ LOG_LEVEL: 'info', TRUST_PROXY: 'loopback' }, { logLines });
    try {
      await broken.app.mediaSweeps.settled();
      await broken.ctx.database.close();
      const from = logLines.length;
      const res = await broken.app.inject({
        url: '/api/v1/master-app/list',
        headers: { authorization: `Bearer ${broken.adminToken}`, 'x-request-id': 'trace-5xx-1' },
      });
      expect(res.statusCode).toBe(500);
      expect(res.headers['x-request-id']).toBe('trace-5xx-1');
      expect(res.json()).toMatchObject({ statusCode: 500, requestId: 'trace-5xx-1' });
      const lines = logLines.slice(from);
      expect(lines.map((l) => [l.msg, l.level])).toEqual([
        ['request failed', 50],
        ['request', 30],
      ]);
      expect(lines.map((l) => l.reqId)).toEqual(['trace-5xx-1', 'trace-5xx-1']);
      expect(lines[1]).toMatchObject({ status: 500, url: '/api/v1/master-app/list' });
    } finally {
      await broken.close().catch(() => undefined);
    }
  });
});
