/**
 * Several instances, one truth: two real server processes on one PostgreSQL database, one Redis and
 * one S3 bucket, behind nginx with the repository's configuration (cluster.ts). Its own suite of
 * `npm test` (`scale-out`), on PostgreSQL only; it needs nginx (`apt-get install nginx`), and is
 * skipped without it unless CI=1.
 */
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TOTP } from 'otpauth';
import { APP_API_BASE, APP_PATHS, PATHS } from '@master-admin/contract';
import { webhookSignature } from '../src/features/app-api/otp.ts';
import { createPgDatabase, startS3 } from '../test/harness.ts';
import { change, openStream, presenceOf } from '../test/event-stream.ts';
import { images } from '../test/images.ts';
import { videos } from '../src/seed/video-files.ts';
import { openDatabase, type DatabaseHandle } from '../src/db/connect.ts';
import { createBackOfficeAccount } from '../src/features/accounts/service.ts';
import { startSession } from '../src/auth/sessions.ts';
import { signToken } from '../src/auth/tokens.ts';
import { MAX_STREAMS_PER_ACCOUNT } from '../src/events/streams.ts';
import {
  Instance,
  Nginx,
  call,
  findNginx,
  freePort,
  sharedSecret,
  waitUntil,
  type Answer,
} from './cluster.ts';

const nginxBinary = findNginx();
if (!nginxBinary && process.env.CI)
  throw new Error('nginx is not installed (apt-get install nginx)');
const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
/** Revocations of each kind checked on the other instance. */
const TRIALS = Number(process.env.SCALE_OUT_TRIALS ?? 1000);
/** Trials of a kind run side by side, each stream with an account of its own. */
const STREAMS = 8;
const ADMIN = { email: 'owner@scale-out.test', password: 'owner-password-1' };
const JWT_SECRET = sharedSecret();

const dataDirs: string[] = [];
/** A data folder of an instance's own: they share nothing on disk. */
function dataDir(name: string) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), `ma-scale-out-${name}-`));
  dataDirs.push(dir);
  return dir;
}

let database: { url: string; drop: () => Promise<void> };
let bucket: Awaited<ReturnType<typeof startS3>>;
let db: DatabaseHandle;
let nginx: Nginx;
let instances: [Instance, Instance];
let adminToken: string;

/** The SMS gateway both instances send one-time codes to (OTP_SENDER=webhook), as a phone gets them. */
const OTP_SECRET = sharedSecret();
const texts: Array<{ phoneNumber: string; code: string }> = [];
const gateway = http.createServer((request, response) => {
  let body = '';
  request.on('data', (chunk: Buffer) => (body += chunk.toString()));
  request.on('end', () => {
    const signed = webhookSignature(OTP_SECRET, String(request.headers['x-timestamp']), body);
    // A call not signed with the secret is refused, as a gateway would.
    if (request.headers['x-signature'] !== signed) return void response.writeHead(401).end();
    texts.push(JSON.parse(body) as { phoneNumber: string; code: string });
    response.writeHead(204).end();
  });
});

/** A call of the apps API at `base`, with the app's key. */
async function appCall(
  base: string,
  method: string,
  url: string,
  options: { key: string; token?: string; json?: unknown },
): Promise<Answer> {
  const res = await fetch(`${base}${APP_API_BASE}${url}`, {
    method,
    headers: {
      'x-app-key': options.key,
      ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
      ...(options.json === undefined ? {} : { 'content-type': 'application/json' }),
    },
    body: options.json === undefined ? undefined : JSON.stringify(options.json),
  });
  const text = await res.text();
  return { status: res.status, body: text ? JSON.parse(text) : text, headers: res.headers };
}

/** A new session of `accountId`, as a sign-in would make (without its rate limits). */
async function tokenFor(accountId: number): Promise<string> {
  const session = await startSession(db.db, {
    accountId,
    ip: '127.0.0.1',
    userAgent: 'scale-out test',
    ttlHours: 1,
    method: 'password',
  });
  return signToken(
    new TextEncoder().encode(JWT_SECRET),
    { sessionId: session.sessionId, accountId },
    session.expiresAt,
  );
}

/** The session a token stands for (its `sid`). */
const sessionOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;

/**
 * Client addresses of a case's own (`net`: one per case), as nginx names them: the instances trust
 * it (TRUST_PROXY), and the tests, on the same machine, speak as it.
 */
const addresses =
  (net: number) =>
  (i: number): Record<string, string> => ({
    'x-forwarded-for': `10.${net}.${process.pid % 250}.${i}`,
  });

const signIn = (
  instance: Instance,
  email: string,
  password: string,
  headers: Record<string, string>,
) => call(instance.url, 'POST', PATHS.login, { json: { email, password }, headers });

/** The device cookie a sign-in's answer gave the browser, as it sends it back. */
function deviceCookieOf(answer: Answer): string {
  const cookie = answer.headers.get('set-cookie')?.split(';')[0];
  expect(cookie).toMatch(/^device=/);
  return cookie!;
}

/**
 * A wrong password for `email` from each of the addresses `from(first)`…`from(last)`, alternating
 * instances: from ten on, the account is locked for unknown devices.
 */
async function failSignIns(
  email: string,
  from: (i: number) => Record<string, string>,
  first: number,
  last: number,
) {
  for (let i = first; i <= last; i++) {
    const res = await signIn(instances[i % 2]!, email, `wrong-${i}`, from(i));
    expect(res.status).toBe(401);
  }
}

const faqCount = async () =>
  Number(
    (
      await db.db
        .selectFrom('faqs')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirst()
    )?.n ?? 0,
  );

let staffCount = 0;
async function newStaff() {
  staffCount += 1;
  const email = `staff${staffCount}@scale-out.test`;
  const id = await createBackOfficeAccount(
    db.db,
    { role: 'STAFF', email, password: 'staff-password-1' },
    { faqs: ['VIEW'] },
  );
  return { id, email };
}

describe.runIf(nginxBinary)('two instances behind nginx', () => {
  beforeAll(async () => {
    database = await createPgDatabase();
    bucket = await startS3('scale-out');
    const [port1, port2, nginxPort] = [await freePort(), await freePort(), await freePort()];
    const gatewayPort = await freePort();
    await new Promise<void>((resolve) => gateway.listen(gatewayPort, '127.0.0.1', resolve));
    const env = (name: string) => ({
      NODE_ENV: 'production',
      DATABASE_URL: database.url,
      REDIS_URL,
      JWT_SECRET,
      // Only nginx (on this machine) may say who the client is.
      TRUST_PROXY: '127.0.0.1',
      SERVE_WEB: 'false',
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      LOG_LEVEL: 'warn',
      DRAIN_SECONDS: '1',
      DATA_DIR: dataDir(name),
      OTP_SENDER: 'webhook',
      OTP_WEBHOOK_URL: `http://127.0.0.1:${gatewayPort}/otp`,
      OTP_WEBHOOK_SECRET: OTP_SECRET,
      ...bucket.env,
    });
    instances = [new Instance(port1, env('a')), new Instance(port2, env('b'))];
    // Both at once, on a database that has nothing yet.
    await Promise.all(instances.map((i) => i.start()));
    nginx = new Nginx(nginxPort);
    await nginx.start(nginxBinary!, [port1, port2]);
    db = openDatabase({ kind: 'postgres', url: database.url });
    const login = await call(instances[0].url, 'POST', PATHS.login, { json: ADMIN });
    expect(login.status).toBe(200);
    adminToken = login.body.token;
  }, 120_000);

  afterAll(async () => {
    gateway.close();
    await nginx?.stop();
    for (const instance of instances ?? []) instance.kill();
    await db?.close();
    await bucket?.close();
    await database?.drop();
    for (const dir of dataDirs) fs.rmSync(dir, { recursive: true, force: true });
  });

  it('started both at once on a fresh database: each migration ran once, one owner was made', async () => {
    const { rows } = await sql<{ name: string; n: number }>`
      select name, count(*)::int as n from kysely_migration group by name`.execute(db.db);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.filter((r) => r.n !== 1)).toEqual([]);
    const owners = await db.db
      .selectFrom('accounts')
      .select('email')
      .where('role', '=', 'SUPER_ADMIN')
      .execute();
    expect(owners).toEqual([{ email: ADMIN.email }]);
  });

  /**
   * `TRIALS` revocations of one kind, `STREAMS` at a time: each makes a fresh session, uses it on
   * the second instance, revokes on the first, and calls the second again at once; `restore`
   * undoes what the revocation changed (the next trial's first call, at once on the second
   * instance, checks that it is seen too). Answers the calls that still got through.
   */
  async function revocations(
    revoke: (staff: { id: number }, token: string) => Promise<void>,
    refused: number,
    restore?: (staff: { id: number }) => Promise<void>,
  ): Promise<number> {
    const second = instances[1];
    let stale = 0;
    await Promise.all(
      Array.from({ length: STREAMS }, async (_, stream) => {
        const staff = await newStaff();
        for (let trial = stream; trial < TRIALS; trial += STREAMS) {
          const token = await tokenFor(staff.id);
          const faqs = () => call(second.url, 'GET', `${PATHS.faqList}?limit=1`, { token });
          expect((await faqs()).status).toBe(200);
          await revoke(staff, token);
          const after = await faqs();
          if (after.status === 200) stale += 1;
          else expect(after.status).toBe(refused);
          await restore?.(staff);
        }
      }),
    );
    return stale;
  }

  const asAdmin = (method: string, url: string, json: unknown) =>
    call(instances[0].url, method, url, { token: adminToken, json }).then((r) => {
      expect(r.status, JSON.stringify(r.body)).toBe(200);
    });

  it('follows a list by cursor across instances: a cursor one hands out pages on the other', async () => {
    for (let i = 0; i < 5; i++) {
      const made = await call(instances[i % 2]!.url, 'POST', PATHS.faqCreate, {
        token: adminToken,
        json: { question: `Cursor question ${i}?`, answer: 'Yes.' },
      });
      expect(made.status, JSON.stringify(made.body)).toBe(200);
    }
    const list = (n: number, query: string) =>
      call(instances[n]!.url, 'GET', `${PATHS.faqList}?keyword=Cursor%20question&${query}`, {
        token: adminToken,
      });
    const byOffset = await list(0, 'limit=5');
    expect(byOffset.body.total).toBe(5);
    const seen: number[] = [];
    let page = await list(0, 'limit=2');
    for (let n = 1; n < 10; n++) {
      seen.push(...(page.body.result as Array<{ id: number }>).map((r) => r.id));
      if (page.body.nextCursor === null) break;
      page = await list(n % 2, `limit=2&cursor=${page.body.nextCursor}`);
      expect(page.status, JSON.stringify(page.body)).toBe(200);
    }
    expect(seen).toEqual((byOffset.body.result as Array<{ id: number }>).map((r) => r.id));
  });

  it(`sees a sign-out on the other instance at once (${TRIALS} times)`, async () => {
    const stale = await revocations(async (_, token) => {
      expect((await call(instances[0].url, 'POST', PATHS.logout, { token })).status).toBe(200);
    }, 401);
    expect(stale).toBe(0);
  }, 300_000);

  it(`sees a password change on the other instance at once (${TRIALS} times)`, async () => {
    let n = 0;
    const stale = await revocations(
      (staff) => asAdmin('PATCH', PATHS.staffPassword(staff.id), { password: `new-pass-${n++}` }),
      401,
    );
    expect(stale).toBe(0);
  }, 300_000);

  it(`sees an account set DEACTIVE on the other instance at once (${TRIALS} times)`, async () => {
    const stale = await revocations(
      (staff) => asAdmin('PUT', PATHS.staffStatus(staff.id), { status: 'DEACTIVE' }),
      401,
      (staff) => asAdmin('PUT', PATHS.staffStatus(staff.id), { status: 'ACTIVE' }),
    );
    expect(stale).toBe(0);
  }, 300_000);

  it(`sees a grant taken away, and given back, on the other instance at once (${TRIALS} times)`, async () => {
    const grants = new Map<number, number>();
    const grantOf = async (accountId: number) => {
      const found = grants.get(accountId);
      if (found !== undefined) return found;
      const { id } = await db.db
        .selectFrom('userPermissions as up')
        .innerJoin('menus as m', 'm.id', 'up.menuId')
        .innerJoin('permissions as p', 'p.id', 'up.permissionId')
        .select('up.id')
        .where('up.accountId', '=', accountId)
        .where('m.name', '=', 'faqs')
        .where('p.name', '=', 'VIEW')
        .executeTakeFirstOrThrow();
      grants.set(accountId, id);
      return id;
    };
    const grant = async (staff: { id: number }, status: boolean) =>
      asAdmin('PUT', PATHS.userPermissionStatus(await grantOf(staff.id)), { status });
    const stale = await revocations(
      (staff) => grant(staff, false),
      403,
      (staff) => grant(staff, true),
    );
    expect(stale).toBe(0);
  }, 300_000);

  it('answers with the request id nginx made and logged', async () => {
    const res = await fetch(`${nginx.url}/api/v1/health`);
    const id = res.headers.get('x-request-id');
    expect(id).toMatch(/^[0-9a-f]{32}$/);
    await waitUntil('the access log line', async () =>
      fs.readFileSync(nginx.accessLog, 'utf8').includes(` ${id}`),
    );
    // /metrics is scraped on each instance's own port, never through nginx.
    expect((await fetch(`${nginx.url}/metrics`)).status).toBe(404);
  });

  it('counts sign-in failures of one account across both instances', async () => {
    const staff = await newStaff();
    // Ten addresses, each failing once, alternating instances.
    const from = addresses(77);
    await failSignIns(staff.email, from, 1, 10);
    // The account is locked for those addresses, on either instance, even with the password.
    for (const instance of instances) {
      const res = await signIn(instance, staff.email, 'staff-password-1', from(3));
      expect(res.status).toBe(429);
      expect(Number(res.headers.get('retry-after'))).toBeGreaterThan(0);
    }
  });

  it(`sees a session the owner ended on the other instance at once (${TRIALS} times)`, async () => {
    const stale = await revocations(async (staff, token) => {
      const { publicId } = await db.db
        .selectFrom('sessions')
        .select('publicId')
        .where('id', '=', sessionOf(token))
        .executeTakeFirstOrThrow();
      const res = await call(instances[0].url, 'DELETE', PATHS.staffSession(staff.id, publicId), {
        token: adminToken,
      });
      expect(res.status, JSON.stringify(res.body)).toBe(200);
    }, 401);
    expect(stale).toBe(0);
  }, 300_000);

  it('limits a session at once on the other instance when the owner requires a second factor', async () => {
    const staff = await newStaff();
    const token = await tokenFor(staff.id);
    const faqs = () => call(instances[1].url, 'GET', `${PATHS.faqList}?limit=1`, { token });
    expect((await faqs()).status).toBe(200);
    try {
      await asAdmin('PUT', PATHS.security, { requireSecondFactor: true });
      const limited = await faqs();
      expect(limited.status).toBe(403);
      expect(limited.body.message).toBe('A second factor is required');
    } finally {
      await asAdmin('PUT', PATHS.security, { requireSecondFactor: false });
    }
    expect((await faqs()).status).toBe(200);
  });

  it('ends a sign-in’s second step on the other instance, and honours a device token made there', async () => {
    const staff = await newStaff();
    const [a, b] = instances;
    const token = await tokenFor(staff.id);
    const setup = await call(a.url, 'POST', PATHS.totp, { token });
    expect(setup.status).toBe(200);
    const totp = new TOTP({ secret: setup.body.secret });
    const confirmed = await call(b.url, 'POST', PATHS.totpConfirm, {
      token,
      json: { code: totp.generate() },
    });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(200);

    // The password on A answers a challenge; B takes the code (one step on: the set-up's is spent).
    const from = addresses(78);
    const login = await signIn(a, staff.email, 'staff-password-1', from(1));
    expect(login.status).toBe(200);
    expect(login.body.methods).toContain('totp');
    const code = totp.generate({ timestamp: Date.now() + 30_000 });
    const verified = await call(b.url, 'POST', PATHS.loginVerify, {
      json: { challenge: login.body.challenge, method: 'totp', code },
      headers: from(1),
    });
    expect(verified.status, JSON.stringify(verified.body)).toBe(200);
    const device = deviceCookieOf(verified);
    // The same challenge and code, now on A: used.
    const again = await call(a.url, 'POST', PATHS.loginVerify, {
      json: { challenge: login.body.challenge, method: 'totp', code },
      headers: from(1),
    });
    expect(again.status).toBe(401);

    // Locked for unknown devices by failures from many addresses through both instances…
    await failSignIns(staff.email, from, 2, 12);
    const unknown = await signIn(a, staff.email, 'staff-password-1', from(5));
    expect(unknown.status).toBe(429);
    // …while the device B recognised is still heard on A.
    const known = await signIn(a, staff.email, 'staff-password-1', { ...from(5), cookie: device });
    expect(known.status, JSON.stringify(known.body)).toBe(200);
    expect(known.body.challenge).toBeTruthy();
  });

  it('counts a proof of presence made on one instance on the other at once', async () => {
    const staff = await newStaff();
    const [a, b] = instances;
    const token = await tokenFor(staff.id);
    const other = await tokenFor(staff.id);
    // Signed in an hour ago, never proved since: what a token taken from a shared computer is.
    await db.db
      .updateTable('sessions')
      .set({ provedAt: new Date(Date.now() - 3_600_000).toISOString() })
      .where('id', '=', sessionOf(token))
      .execute();
    const endOthers = () => call(b.url, 'DELETE', PATHS.mySessions, { token });
    const refused = await endOthers();
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ reauth: true });

    const proved = await call(a.url, 'POST', PATHS.reauth, {
      token,
      json: { password: 'staff-password-1' },
      headers: addresses(79)(1),
    });
    expect(proved.status, JSON.stringify(proved.body)).toBe(200);
    expect(Date.parse(proved.body.until)).toBeGreaterThan(Date.now());
    const ended = await endOthers();
    expect(ended.status, JSON.stringify(ended.body)).toBe(200);
    expect(ended.body.result.count).toBe(1);
    expect((await call(a.url, 'GET', PATHS.mySessions, { token: other })).status).toBe(401);
  });

  it('ends, on the other instance at once, the device tokens of a password changed on one', async () => {
    const staff = await newStaff();
    const [a, b] = instances;
    const from = addresses(80);
    const signedIn = await signIn(a, staff.email, 'staff-password-1', from(1));
    expect(signedIn.status, JSON.stringify(signedIn.body)).toBe(200);
    const first = deviceCookieOf(signedIn);
    // Locked for unknown devices; B still knows the browser by its cookie from A.
    await failSignIns(staff.email, from, 2, 11);
    const onB = (password: string, cookie?: string) =>
      signIn(b, staff.email, password, { ...from(5), ...(cookie ? { cookie } : {}) });
    expect((await onB('staff-password-1')).status).toBe(429);
    expect((await onB('staff-password-1', first)).status).toBe(200);

    // The staff member changes their own password on A: that browser's cookie is renewed, and
    // the old one is refused on B, for either password.
    const own = await call(a.url, 'POST', PATHS.passReset, {
      token: signedIn.body.token,
      json: { oldPassword: 'staff-password-1', newPassword: 'quiet-harbour-lamp-9' },
      headers: { ...from(1), cookie: first },
    });
    expect(own.status, JSON.stringify(own.body)).toBe(200);
    const renewed = deviceCookieOf(own);
    expect((await onB('quiet-harbour-lamp-9', first)).status).toBe(429);
    expect((await onB('quiet-harbour-lamp-9', renewed)).status).toBe(200);

    // The owner sets another on A (a sign-in of its own: a proof surely recent): it lifts the
    // lock, and ends the renewed cookie too (refused once the account is locked again).
    const owner = await signIn(a, ADMIN.email, ADMIN.password, from(20));
    expect(owner.status, JSON.stringify(owner.body)).toBe(200);
    const changed = await call(a.url, 'PATCH', PATHS.staffPassword(staff.id), {
      token: owner.body.token,
      json: { password: 'another-password-7' },
    });
    expect(changed.status, JSON.stringify(changed.body)).toBe(200);
    await failSignIns(staff.email, from, 30, 39);
    const again = (cookie: string) =>
      signIn(b, staff.email, 'another-password-7', { ...from(31), cookie });
    expect((await again(renewed)).status).toBe(429);
  });

  it('serves from one instance what was uploaded through the other', async () => {
    const [first, second] = instances;
    const app = await call(first.url, 'POST', PATHS.masterAppCreate, {
      token: adminToken,
      json: { name: `Scale-out app ${process.pid}` },
    });
    expect(app.status).toBe(200);
    const appId = app.body.result.id as number;

    const form = new FormData();
    form.append(
      'file',
      new Blob([new Uint8Array(await images.png())], { type: 'image/png' }),
      'b.png',
    );
    const banner = await call(first.url, 'POST', PATHS.bannerCreate(appId), {
      token: adminToken,
      form,
    });
    expect(banner.status, JSON.stringify(banner.body)).toBe(200);
    const listed = await call(second.url, 'GET', `${PATHS.bannerList}?masterAppId=${appId}`, {
      token: adminToken,
    });
    expect(listed.body.result.map((b: { id: number }) => b.id)).toEqual([banner.body.result.id]);
    const image = await fetch(listed.body.result[0].image);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toMatch(/^image\//);

    const video = new FormData();
    video.append(
      'file',
      new Blob([new Uint8Array(videos.mp4(20_000))], { type: 'video/mp4' }),
      'v.mp4',
    );
    const fields = {
      masterAppId: appId,
      position: 'LEFT',
      topDefNum: 1,
      selfDefNum: 1,
      bottomDefNum: 1,
    };
    for (const [key, value] of Object.entries(fields)) video.append(key, String(value));
    const created = await call(first.url, 'POST', PATHS.videoCreate, {
      token: adminToken,
      form: video,
    });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const embed = await fetch(`${second.url}${created.body.result.iframeLink}`);
    expect(embed.status).toBe(200);
    expect(await embed.text()).toContain(created.body.result.videoUrl);
    const part = await fetch(created.body.result.videoUrl, { headers: { range: 'bytes=0-99' } });
    expect(part.status).toBe(206);
    expect((await part.arrayBuffer()).byteLength).toBe(100);
  });

  it('signs an end user in on one instance; the other uses, refreshes and ends the session, and its lists hear the sign-up', async () => {
    const [first, second] = instances;
    const made = await call(first.url, 'POST', PATHS.masterAppCreate, {
      token: adminToken,
      json: { name: 'Scale-out App' },
    });
    expect(made.status).toBe(200);
    const appId = made.body.result.id as number;
    const key = (await call(second.url, 'GET', PATHS.masterAppKey(appId), { token: adminToken }))
      .body.result.key as string;
    const stream = await openStream(`${second.url}/api/v1`, adminToken);
    await stream.waitFor((b) => b.id !== undefined && b.event === undefined);
    try {
      const phoneNumber = '+919700000001';
      const asked = await appCall(first.url, 'POST', APP_PATHS.otpRequest, {
        key,
        json: { phoneNumber },
      });
      expect(asked.status).toBe(202);
      const code = texts.findLast((t) => t.phoneNumber === phoneNumber)!.code;
      const verified = await appCall(second.url, 'POST', APP_PATHS.otpVerify, {
        key,
        json: { phoneNumber, code, device: { name: 'Galaxy', platform: 'android' } },
      });
      expect(verified.status).toBe(200);
      const userId = verified.body.user.id as number;
      await stream.waitFor(change('users', 'created', userId), 2_000);

      const me = await appCall(first.url, 'GET', APP_PATHS.me, {
        key,
        token: verified.body.accessToken,
      });
      expect(me.status).toBe(200);
      const refreshed = await appCall(first.url, 'POST', APP_PATHS.refresh, {
        key,
        json: { refreshToken: verified.body.refreshToken },
      });
      expect(refreshed.status).toBe(200);
      // The old refresh token, sent to the other instance: a reuse there too.
      const reused = await appCall(second.url, 'POST', APP_PATHS.refresh, {
        key,
        json: { refreshToken: verified.body.refreshToken },
      });
      expect(reused.status).toBe(401);
      expect(
        (await appCall(first.url, 'GET', APP_PATHS.me, { key, token: refreshed.body.accessToken }))
          .status,
      ).toBe(401);

      // Signed in again; ended by the owner through one instance, refused at once by the other.
      const again = await appCall(second.url, 'POST', APP_PATHS.otpRequest, {
        key,
        json: { phoneNumber: '+919700000002' },
      });
      expect(again.status).toBe(202);
      const second2 = await appCall(first.url, 'POST', APP_PATHS.otpVerify, {
        key,
        json: {
          phoneNumber: '+919700000002',
          code: texts.findLast((t) => t.phoneNumber === '+919700000002')!.code,
        },
      });
      expect(second2.status).toBe(200);
      const user2 = second2.body.user.id as number;
      const sessions = await call(second.url, 'GET', PATHS.userSessions(user2), {
        token: adminToken,
      });
      expect(sessions.body.result).toHaveLength(1);
      const ended = await call(
        second.url,
        'DELETE',
        PATHS.userSession(user2, sessions.body.result[0].id),
        {
          token: adminToken,
        },
      );
      expect(ended.status).toBe(200);
      expect(
        (await appCall(first.url, 'GET', APP_PATHS.me, { key, token: second2.body.accessToken }))
          .status,
      ).toBe(401);
    } finally {
      stream.close();
    }
  });

  it('carries a change through one instance to streams on the other, and through nginx unbuffered', async () => {
    const [first, second] = instances;
    const viewer = await newStaff();
    const token = await tokenFor(viewer.id);
    const direct = await openStream(`${second.url}/api/v1`, token);
    const proxied = await openStream(`${nginx.url}/api/v1`, token);
    for (const stream of [direct, proxied]) {
      expect(stream.status).toBe(200);
      await stream.waitFor((b) => b.id !== undefined && b.event === undefined);
    }
    try {
      const created = await call(first.url, 'POST', PATHS.faqCreate, {
        token: adminToken,
        json: { question: 'Seen on the other instance?', answer: 'At once' },
      });
      expect(created.status).toBe(200);
      const id = created.body.result.id as number;
      // Quick: nginx passes it on without waiting for more to fill a buffer.
      await direct.waitFor(change('faqs', 'created', id), 2_000);
      await proxied.waitFor(change('faqs', 'created', id), 2_000);

      // Presence held through the first instance is seen on the second, and its end too.
      const editor = await newStaff();
      const editorToken = await tokenFor(editor.id);
      const row = { area: 'faqs', id };
      const held = await call(first.url, 'PUT', PATHS.presence, { token: editorToken, json: row });
      expect(held.status).toBe(200);
      await direct.waitFor(presenceOf('faqs', id, [editor.id]), 2_000);
      const later = await openStream(`${second.url}/api/v1`, token);
      await later.waitFor(presenceOf('faqs', id, [editor.id]), 2_000);
      later.close();
      const gone = await call(first.url, 'DELETE', PATHS.presence, {
        token: editorToken,
        json: row,
      });
      expect(gone.status).toBe(200);
      await direct.waitFor(presenceOf('faqs', id, []), 2_000);
    } finally {
      direct.close();
      proxied.close();
    }
  });

  it(`holds at most ${MAX_STREAMS_PER_ACCOUNT} streams per account over both instances`, async () => {
    const [first, second] = instances;
    const viewer = await newStaff();
    const token = await tokenFor(viewer.id);
    const open = async (base: string) => {
      const stream = await openStream(`${base}/api/v1`, token);
      expect(stream.status).toBe(200);
      await stream.waitFor((b) => b.id !== undefined && b.event === undefined);
      return stream;
    };
    const streams = [];
    for (let i = 0; i < MAX_STREAMS_PER_ACCOUNT; i++) streams.push(await open(first.url));
    try {
      // One more on the other instance: the oldest, on the first, ends within its 5 s check.
      streams.push(await open(second.url));
      await streams[0]!.ended;
      const created = await call(first.url, 'POST', PATHS.faqCreate, {
        token: adminToken,
        json: { question: 'Heard by the newest twenty?', answer: 'Yes' },
      });
      expect(created.status).toBe(200);
      for (const stream of [streams[1]!, streams.at(-1)!]) {
        await stream.waitFor(change('faqs', 'created', created.body.result.id as number));
      }
    } finally {
      for (const stream of streams) stream.close();
    }
    await waitUntil('the streams’ rows removed', async () => {
      const rows = await db.db
        .selectFrom('eventStreams')
        .select('id')
        .where('accountId', '=', viewer.id)
        .execute();
      return rows.length === 0;
    });
  });

  it('refuses, on one instance, a change based on a version the other instance has moved', async () => {
    const [first, second] = instances;
    const created = await call(first.url, 'POST', PATHS.faqCreate, {
      token: adminToken,
      json: { question: 'Which edit wins?', answer: 'Neither, in silence' },
    });
    expect(created.status).toBe(200);
    const { id, version } = created.body.result as { id: number; version: number };
    const editor = await newStaff();
    const editorToken = await tokenFor(editor.id);
    await db.db
      .updateTable('userPermissions')
      .set({ status: true })
      .where('accountId', '=', editor.id)
      .execute();
    // Both read version 1; the first saves through one instance, the second through the other.
    const saved = await call(first.url, 'PATCH', PATHS.faqUpdate(id), {
      token: editorToken,
      json: { answer: 'The first' },
      headers: { 'if-match': `"${version}"` },
    });
    expect(saved.status, JSON.stringify(saved.body)).toBe(200);
    const stale = await call(second.url, 'PATCH', PATHS.faqUpdate(id), {
      token: adminToken,
      json: { answer: 'The second' },
      headers: { 'if-match': `"${version}"` },
    });
    expect(stale.status).toBe(409);
    expect(stale.body).toMatchObject({
      current: { id, version: version + 1, answer: 'The first' },
      changedBy: { id: editor.id },
    });
  });

  it('answers a change sent again through the other instance with its first answer, made once', async () => {
    const [first, second] = instances;
    const keyRows = async (key: string) =>
      (await db.db.selectFrom('idempotencyKeys').select('state').where('key', '=', key).execute())
        .length;
    const send = (instance: Instance, key: string, question: string) =>
      call(instance.url, 'POST', PATHS.faqCreate, {
        token: adminToken,
        json: { question, answer: 'Once' },
        headers: { 'idempotency-key': key },
      });
    const before = await faqCount();
    const made = await send(first, 'scale-out-retry', 'Sent twice?');
    expect(made.status, JSON.stringify(made.body)).toBe(200);
    const again = await send(second, 'scale-out-retry', 'Sent twice?');
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(made.body);
    expect(await keyRows('scale-out-retry')).toBe(1);
    // Both at once, one through each instance: one makes it, the other waits (409) or replays.
    const both = await Promise.all([
      send(first, 'scale-out-race', 'Sent at once?'),
      send(second, 'scale-out-race', 'Sent at once?'),
    ]);
    expect(both.map((r) => r.status).sort()).toSatisfy(
      (statuses: number[]) => statuses[0] === 200 && [200, 409].includes(statuses[1]!),
    );
    expect(await faqCount()).toBe(before + 2);
  });

  it('loses no request while both instances restart one after the other under load', async () => {
    const before = await faqCount();
    let running = true;
    const failures: string[] = [];
    let answered = 0;
    let created = 0;
    // Twenty clients through nginx, each sending its next request once the last one answered:
    // pages of FAQs, new FAQs and health checks.
    const clients = Array.from({ length: 20 }, async (_, client) => {
      for (let n = 0; running; n++) {
        const kind = n % 10 < 7 ? 'list' : n % 10 < 9 ? 'create' : 'health';
        try {
          const res =
            kind === 'list'
              ? await call(nginx.url, 'GET', `${PATHS.faqList}?limit=10`, { token: adminToken })
              : kind === 'create'
                ? await call(nginx.url, 'POST', PATHS.faqCreate, {
                    token: adminToken,
                    json: { question: `Client ${client} question ${n}?`, answer: 'Yes.' },
                  })
                : await call(nginx.url, 'GET', PATHS.health);
          if (res.status !== 200)
            failures.push(`${kind}: ${res.status} ${JSON.stringify(res.body)}`);
          else if (kind === 'create') created += 1;
          answered += 1;
        } catch (err) {
          failures.push(`${kind}: ${(err as Error).message}`);
        }
      }
    });
    const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
    await pause(1000);
    for (const instance of instances) {
      const stopped = instance.stop();
      // Draining: no longer ready, still alive and serving.
      await pause(100);
      expect((await fetch(`${instance.url}/api/v1/health/ready`)).status).toBe(503);
      expect((await fetch(`${instance.url}/api/v1/health`)).status).toBe(200);
      expect(await stopped, instance.output).toBe(0);
      await instance.start();
      await pause(1000);
    }
    running = false;
    await Promise.all(clients);
    expect(
      failures.slice(0, 5),
      nginx
        .errors()
        .split('\n')
        .filter((l) => !l.includes('no live upstreams'))
        .join('\n')
        .slice(0, 4000),
    ).toEqual([]);
    expect(answered).toBeGreaterThan(200);
    // Every FAQ answered as created exists once: nothing was lost, nothing carried out twice.
    const after = await faqCount();
    expect(after - before).toBe(created);
  }, 120_000);
});
