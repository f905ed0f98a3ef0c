/**
 * The fault suite (issue #32): two server processes behind the repository's nginx, on PostgreSQL,
 * Redis and an S3 bucket each reached through a relay the test can cut, under a steady load of
 * lists, creates (with Idempotency-Key, as the web app sends them), uploads and sign-ins, while
 * each part stops and comes back in turn, a table is locked past the request deadline, and an
 * instance is killed. What must hold (API.md, Operations):
 * - no answer is a 500 or a 502, and every failure is a 503 with Retry-After;
 * - every change answered as done is there exactly once, every one answered as failed is not;
 * - no row names a missing object, and (once the sweep has run) no object is named by no row;
 * - liveness answers through every fault; readiness says `degraded` for Redis or the bucket and
 *   503 for the database; each instance is ready again by itself within seconds.
 * Its own suite of `npm test` (`faults`), on PostgreSQL, with nginx.
 */
import fs from 'node:fs';
import { randomInt } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PATHS } from '@master-admin/contract';
import { createPgDatabase, startS3 } from '../test/harness.ts';
import { images } from '../test/images.ts';
import { startRelay, type Relay } from '../test/relay.ts';
import { loadConfig } from '../src/config.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/connect.ts';
import { createStore } from '../src/media/store.ts';
import { MediaService } from '../src/media/service.ts';
import { sweepMedia } from '../src/media/housekeeping.ts';
import { COMMIT_UNCONFIRMED_MESSAGE } from '../src/http/parts.ts';
import { thumbOf } from '../src/media/images.ts';
import {
  Instance,
  Nginx,
  call,
  findNginx,
  freePort,
  sharedSecret,
  waitUntil,
  type Answer,
} from '../scale-out/cluster.ts';

const nginxBinary = findNginx();
if (!nginxBinary && process.env.CI)
  throw new Error('nginx is not installed (apt-get install nginx)');
const ADMIN = { email: 'owner@faults.test', password: 'owner-password-1' };
/**
 * Client addresses of this run (nginx passes them on, the instances trust nginx): sign-in's
 * rate limit counts per address in Redis, which outlives a run.
 */
const RUN = randomInt(1, 250);
const from = (client: number, n = 0) => ({ 'x-forwarded-for': `10.${RUN}.${client}.${n % 250}` });
/** Short, so a table locked for longer is quick to test. */
const DEADLINE_MS = 2500;
/** How long each part stays stopped. */
const OUTAGE_MS = 2500;

type Outcome = {
  kind: 'list' | 'faq' | 'banner' | 'signIn' | 'health';
  status: number;
  retryAfter: string | null;
  message: string | undefined;
  /** The unique value a create wrote (its question, its link). */
  marker?: string;
};

const dataDirs: string[] = [];
let database: { url: string; drop: () => Promise<void> };
let bucket: Awaited<ReturnType<typeof startS3>>;
let relays: { database: Relay; redis: Relay; bucket: Relay };
let db: DatabaseHandle;
let nginx: Nginx;
let instances: [Instance, Instance];
let token: string;
let appId: number;

/** `url` with its port changed to `port`. */
const through = (url: string, port: number) => {
  const u = new URL(url);
  u.port = String(port);
  return u.toString();
};

describe.runIf(nginxBinary)('two instances through every fault', () => {
  beforeAll(async () => {
    database = await createPgDatabase();
    bucket = await startS3('faults');
    relays = {
      database: await startRelay({ host: '127.0.0.1', port: Number(new URL(database.url).port) }),
      redis: await startRelay({ host: '127.0.0.1', port: 6379 }),
      bucket: await startRelay({ host: '127.0.0.1', port: Number(new URL(bucket.endpoint).port) }),
    };
    const secret = sharedSecret();
    const env = () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-faults-'));
      dataDirs.push(dir);
      return {
        NODE_ENV: 'production',
        DATABASE_URL: through(database.url, relays.database.port),
        REDIS_URL: `redis://127.0.0.1:${relays.redis.port}`,
        JWT_SECRET: secret,
        TRUST_PROXY: '127.0.0.1',
        SERVE_WEB: 'false',
        ADMIN_EMAIL: ADMIN.email,
        ADMIN_PASSWORD: ADMIN.password,
        LOG_LEVEL: 'error',
        DRAIN_SECONDS: '0',
        REQUEST_DEADLINE_MS: String(DEADLINE_MS),
        LOCK_TIMEOUT_MS: '1000',
        DATA_DIR: dir,
        ...bucket.env,
        S3_ENDPOINT: `http://127.0.0.1:${relays.bucket.port}`,
        S3_PUBLIC_URL: bucket.endpoint,
      };
    };
    const [port1, port2, nginxPort] = [await freePort(), await freePort(), await freePort()];
    instances = [new Instance(port1, env()), new Instance(port2, env())];
    await Promise.all(instances.map((i) => i.start()));
    nginx = new Nginx(nginxPort);
    await nginx.start(nginxBinary!, [port1, port2]);
    db = openDatabase({ kind: 'postgres', url: database.url });
    const login = await call(nginx.url, 'POST', PATHS.login, { json: ADMIN, headers: from(99) });
    expect(login.status, JSON.stringify(login.body)).toBe(200);
    token = login.body.token as string;
    const app = await call(nginx.url, 'POST', PATHS.masterAppCreate, {
      token,
      json: { name: 'Faults' },
    });
    appId = app.body.result.id as number;
  }, 120_000);

  afterAll(async () => {
    await nginx?.stop();
    for (const instance of instances ?? []) instance.kill();
    await db?.close();
    for (const relay of Object.values(relays ?? {})) await relay.close();
    await bucket?.close();
    await database?.drop();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Readiness of `instance` until `status`, within 10 s. */
  const readiness = async (instance: Instance) => {
    const res = await fetch(`${instance.url}/api/v1/health/ready`);
    return { code: res.status, ...((await res.json()) as { status: string; failing?: string[] }) };
  };
  const everyInstance = (
    what: string,
    check: (r: Awaited<ReturnType<typeof readiness>>) => boolean,
  ) =>
    Promise.all(
      instances.map((instance) =>
        waitUntil(
          `${what} on ${instance.port}`,
          async () => check(await readiness(instance)),
          10_000,
        ),
      ),
    );
  /** Liveness of both instances: 200 within 1 s, whatever the parts do. */
  async function alive() {
    for (const instance of instances) {
      const startedAt = Date.now();
      const res = await fetch(`${instance.url}/api/v1/health`, {
        signal: AbortSignal.timeout(1000),
      });
      expect(res.status).toBe(200);
      expect(Date.now() - startedAt).toBeLessThan(1000);
    }
  }

  it('answers 503 with Retry-After for what a stopped part stops, loses nothing, does nothing twice, and recovers by itself', async () => {
    const outcomes: Outcome[] = [];
    let running = true;
    const png = await images.png(32, 24);
    const answer = (kind: Outcome['kind'], res: Answer, marker?: string) =>
      outcomes.push({
        kind,
        status: res.status,
        retryAfter: res.headers.get('retry-after'),
        message:
          typeof res.body === 'object' ? (res.body?.message as string | undefined) : undefined,
        ...(marker ? { marker } : {}),
      });
    const clients = Array.from({ length: 6 }, async (_, client) => {
      for (let n = 0; running; n++) {
        const marker = `c${client}-${n}`;
        const key = `faults-${marker}`;
        const op = n % 8;
        try {
          if (op < 3) {
            answer('list', await call(nginx.url, 'GET', `${PATHS.faqList}?limit=5`, { token }));
          } else if (op < 5) {
            const res = await call(nginx.url, 'POST', PATHS.faqCreate, {
              token,
              json: { question: `Question ${marker}?`, answer: 'Yes.' },
              headers: { 'idempotency-key': key },
            });
            answer('faq', res, `Question ${marker}?`);
          } else if (op === 5) {
            const form = new FormData();
            form.append('linkType', 'EXTERNAL');
            form.append('link', `https://faults.test/${marker}`);
            form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'b.png');
            const res = await call(nginx.url, 'POST', PATHS.bannerCreate(appId), {
              token,
              form,
              headers: { 'idempotency-key': key },
            });
            answer('banner', res, `https://faults.test/${marker}`);
          } else if (op === 6) {
            answer(
              'signIn',
              await call(nginx.url, 'POST', PATHS.login, { json: ADMIN, headers: from(client, n) }),
            );
          } else {
            answer('health', await call(nginx.url, 'GET', PATHS.health));
          }
        } catch (err) {
          outcomes.push({ kind: 'list', status: 0, retryAfter: null, message: String(err) });
        }
      }
    });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    /** Each relay cut for OUTAGE_MS: what readiness says meanwhile, then ready again. */
    async function outage(relay: Relay, during: () => Promise<unknown>) {
      await relay.cut();
      const back = pause(OUTAGE_MS);
      await during();
      await alive();
      await back;
      await relay.restore();
      await everyInstance('ready again', (r) => r.code === 200 && r.status === 'ready');
    }

    try {
      await pause(1000);
      await outage(relays.redis, () =>
        everyInstance('degraded (redis)', (r) => r.code === 200 && r.failing?.[0] === 'redis'),
      );
      await outage(relays.bucket, () =>
        everyInstance('degraded (bucket)', (r) => r.code === 200 && r.failing?.[0] === 'bucket'),
      );
      await outage(relays.database, () =>
        everyInstance(
          'unavailable (database)',
          (r) => r.code === 503 && r.status === 'unavailable',
        ),
      );
      // A table held past the deadline: its calls 503; liveness and the other calls answer.
      const holder = new pg.Client({ connectionString: database.url });
      await holder.connect();
      await holder.query('begin');
      await holder.query('lock table faqs in access exclusive mode');
      await pause(DEADLINE_MS + 1000);
      await alive();
      await holder.query('rollback');
      await holder.end();
      // An instance killed under load: nginx sends what it dropped to the other one.
      instances[0].kill();
      await instances[0].exited;
      await pause(1000);
      await instances[0].start();
      await pause(1000);
    } finally {
      running = false;
      await Promise.all(clients);
    }

    const tally: Record<string, number> = {};
    for (const o of outcomes) {
      const what = `${o.kind} ${o.status}${o.message === COMMIT_UNCONFIRMED_MESSAGE ? ' (commit unconfirmed)' : ''}`;
      tally[what] = (tally[what] ?? 0) + 1;
    }
    console.info('answers by call and status:', tally);
    // No 500, no 502, nothing unanswered: every failure a 503 with Retry-After.
    const failures = outcomes.filter((o) => o.status >= 500 || o.status === 0);
    expect(
      failures.filter((o) => o.status !== 503).slice(0, 5),
      nginx.errors().slice(0, 2000),
    ).toEqual([]);
    expect(failures.filter((o) => !o.retryAfter)).toEqual([]);
    // Each fault was met: some calls failed, and many were served.
    expect(failures.length).toBeGreaterThan(0);
    expect(outcomes.filter((o) => o.status === 200).length).toBeGreaterThan(100);

    // Every change answered as done is there once; every one answered as failed is not.
    const faqs = await db.db.selectFrom('faqs').select('question').execute();
    const banners = await db.db.selectFrom('banners').select(['link', 'image']).execute();
    const count = (kind: Outcome['kind'], marker: string) =>
      kind === 'faq'
        ? faqs.filter((f) => f.question === marker).length
        : banners.filter((b) => b.link === marker).length;
    for (const outcome of outcomes.filter((o) => o.marker)) {
      const made = count(outcome.kind, outcome.marker!);
      const label = `${outcome.kind} ${outcome.marker}: ${outcome.status} ${outcome.message ?? ''}`;
      if (outcome.status === 200) expect(made, label).toBe(1);
      // 409: made by an earlier try, or still running; a COMMIT whose answer was lost with the
      // database for longer than the request's grace: either (its key tells a retry which).
      else if (outcome.status === 409 || outcome.message === COMMIT_UNCONFIRMED_MESSAGE)
        expect(made, label).toBeLessThanOrEqual(1);
      else expect(made, label).toBe(0);
    }
    // Nothing made twice, even what no answer reached.
    expect(new Set(faqs.map((f) => f.question)).size).toBe(faqs.length);
    expect(new Set(banners.map((b) => b.link)).size).toBe(banners.length);

    // No row without its object; once the sweep has run, no object without a row.
    const media = new MediaService(
      db.db,
      await createStore(loadConfig({ ...bucket.env, DATA_DIR: dataDirs[0]! }).media),
      {
        maxImagePixels: 50_000_000,
      },
    );
    for (const { image } of banners) expect(await media.store.exists(image), image).toBe(true);
    await sweepMedia(media, 0);
    const named = new Set(banners.flatMap((b) => [b.image, thumbOf(b.image)]));
    const stored: string[] = [];
    for await (const entry of media.store.list()) if (entry.key) stored.push(entry.key);
    expect(stored.filter((key) => !named.has(key))).toEqual([]);
  }, 180_000);
});
