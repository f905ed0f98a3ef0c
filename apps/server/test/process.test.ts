/**
 * The real server process (`node src/main.ts`): first start, restart, graceful shutdown (the drain
 * on SIGTERM) and a bad configuration, as an operator sees them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB, createPgDatabase } from './harness.ts';
import { images } from './images.ts';

const SERVER_DIR = path.resolve(import.meta.dirname, '..');

const cleanups: Array<() => Promise<void> | void> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

/** A fresh data folder, and a fresh PostgreSQL database when testing PostgreSQL. */
async function freshStore(): Promise<Record<string, string>> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-proc-'));
  cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
  const env: Record<string, string> = { DATA_DIR: dataDir };
  if (TEST_DB === 'postgres') {
    const pgDb = await createPgDatabase();
    cleanups.push(pgDb.drop);
    env.DATABASE_URL = pgDb.url;
  }
  return env;
}

interface Running {
  child: ChildProcess;
  port: number;
  /** The address the start line says the server listens on. */
  listening: string;
  stdout(): string;
  stderr(): string;
  exited: Promise<number | null>;
}

function spawnServer(env: Record<string, string>) {
  const child = spawn(process.execPath, ['src/main.ts'], {
    cwd: SERVER_DIR,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: process.env.HOME ?? os.tmpdir(),
      PORT: '0',
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      SERVE_WEB: 'false',
      // No drain period unless a test asks for one: stopping is immediate.
      DRAIN_SECONDS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  // 'close', not 'exit': the child's last output may still be in the pipes when it exits (a
  // bad configuration exits within half a second of starting, its message unread).
  const exited = new Promise<number | null>((resolve) =>
    child.on('close', (code, signal) => {
      if (signal) stderr += `\n[killed by ${signal}]`;
      resolve(code);
    }),
  );
  cleanups.push(() => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });
  return { child, exited, stdout: () => stdout, stderr: () => stderr };
}

/** Starts the server and waits until it has printed its start banner. */
async function startProcess(env: Record<string, string>): Promise<Running> {
  const p = spawnServer(env);
  const deadline = Date.now() + 20_000;
  let exitCode: number | null | undefined;
  void p.exited.then((code) => (exitCode = code));
  while (!p.stdout().includes('API documentation:')) {
    if (exitCode !== undefined || Date.now() > deadline) {
      throw new Error(`the server did not start (exit ${exitCode}):\n${p.stdout()}\n${p.stderr()}`);
    }
    await new Promise((r) => setTimeout(r, 25));
  }
  const match = /Master Admin is running at http:\/\/localhost:(\d+) \(listening on (\S+);/.exec(
    p.stdout(),
  );
  expect(match, p.stdout()).not.toBeNull();
  return { ...p, port: Number(match![1]), listening: match![2]! };
}

/** `promise`, or a failure naming `what` when it takes longer than `ms`. */
function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: nothing after ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

async function stop(server: Running) {
  server.child.kill('SIGTERM');
  const code = await within(server.exited, 10_000, 'the server’s exit after SIGTERM');
  expect(code, server.stderr()).toBe(0);
}

async function login(server: Running, email: string, password: string) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/auth/admin/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password }),
  });
  return { status: res.status, body: (await res.json()) as { token?: string; message?: string } };
}

async function profile(server: Running, token: string) {
  const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/account/admin-detail`, {
    headers: { authorization: `Bearer ${token}` },
  });
  expect(res.status).toBe(200);
  return (await res.json()) as { id: number; email: string; createdAt: string };
}

const PASSWORD_LINE = /Password \(shown only this once\): (\S+)/g;

/** Log lines the server printed (JSON, one a line), parsed. */
function logLines(server: Running): Array<{ level: number; msg: string; [key: string]: unknown }> {
  return server
    .stdout()
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { level: number; msg: string });
}

async function waitFor(what: string, check: () => boolean, ms = 10_000) {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`${what}: not after ${ms} ms`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/**
 * Starts a multipart upload of a `size`-byte image file to `path` on a raw socket and sends its
 * first `sent` bytes only; the caller decides what happens next (abort, or kill the server).
 */
async function partialUpload(
  server: Running,
  path: string,
  token: string,
  size: number,
  sent: number,
) {
  const boundary = 'x-boundary-7d3f';
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.png"\r\n` +
      `Content-Type: image/png\r\n\r\n`,
  );
  const png = Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.alloc(size - 8, 7),
  ]);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const length = head.length + png.length + tail.length;
  const socket = net.connect(server.port, '127.0.0.1');
  await new Promise((r) => socket.once('connect', r));
  socket.on('error', () => {});
  socket.write(
    `POST /api/v1${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
      `Content-Type: multipart/form-data; boundary=${boundary}\r\nContent-Length: ${length}\r\n\r\n`,
  );
  socket.write(Buffer.concat([head, png.subarray(0, sent)]));
  return socket;
}

/** A GET on `agent`'s connection (a new one without), as a proxy sends it. */
function get(
  server: Running,
  path: string,
  headers: Record<string, string> = {},
  agent?: http.Agent,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: string }> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: server.port, path: `/api/v1${path}`, headers, agent },
      (res) => {
        let body = '';
        res.setEncoding('utf8').on('data', (d: string) => (body += d));
        res.on('end', () => resolve({ status: res.statusCode!, headers: res.headers, body }));
      },
    );
    req.on('error', reject);
  });
}

/** What came back on a raw socket once the server closed it: status line, headers and body. */
function responseOn(socket: net.Socket): Promise<string> {
  let response = '';
  socket.setEncoding('utf8');
  socket.on('data', (d: string) => (response += d));
  return new Promise((resolve) => socket.on('close', () => resolve(response)));
}

describe('a crash mid-upload', () => {
  it('leaves nothing behind once the server is back, and a stopped upload is logged as the client’s doing', async () => {
    const store = await freshStore();
    const env = {
      ...store,
      LOG_LEVEL: 'info',
      ADMIN_EMAIL: 'crash@test.local',
      ADMIN_PASSWORD: 'crash-password-1',
    };
    const first = await startProcess(env);
    const token = (await login(first, 'crash@test.local', 'crash-password-1')).body.token!;
    const api = (path: string, init: RequestInit = {}) =>
      fetch(`http://127.0.0.1:${first.port}/api/v1${path}`, {
        ...init,
        headers: { authorization: `Bearer ${token}`, ...init.headers },
      });
    const app = (await (
      await api('/master-app', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Crash' }),
      })
    ).json()) as { result: { id: number } };
    // A banner that lives: its file must survive everything below.
    const kept = new FormData();
    kept.append(
      'file',
      new Blob([new Uint8Array(await images.png(40, 20))], { type: 'image/png' }),
      'k.png',
    );
    const banner = (await (
      await api(`/banner/${app.result.id}`, { method: 'POST', body: kept })
    ).json()) as {
      result: { image: string };
    };
    const mediaDir = path.join(store.DATA_DIR!, 'media');
    const keptFile = path.join(mediaDir, banner.result.image.slice('/media/'.length));
    expect(fs.existsSync(keptFile)).toBe(true);

    // The client stops sending: an info line, not an error.
    const stopped = await partialUpload(
      first,
      `/banner/${app.result.id}`,
      token,
      2_000_000,
      100_000,
    );
    await new Promise((r) => setTimeout(r, 200));
    stopped.destroy();
    await waitFor('the stopped upload’s log line', () =>
      logLines(first).some((l) => l.msg === 'upload stopped by the client'),
    );
    expect(logLines(first).find((l) => l.msg === 'upload stopped by the client')!.level).toBe(30);
    expect(logLines(first).filter((l) => l.level >= 50)).toEqual([]);

    // The server dies while a file is half received.
    const uploads = path.join(store.DATA_DIR!, 'tmp', 'uploads');
    const tempFiles = () =>
      fs.readdirSync(uploads, { recursive: true, withFileTypes: true }).filter((e) => e.isFile());
    const socket = await partialUpload(
      first,
      `/banner/${app.result.id}`,
      token,
      2_000_000,
      500_000,
    );
    await waitFor('the upload’s temporary file', () => tempFiles().length > 0);
    first.child.kill('SIGKILL');
    await within(first.exited, 10_000, 'the killed server’s exit');
    socket.destroy();
    expect(tempFiles().length).toBeGreaterThan(0);

    // What else a crash leaves in media: a file stored before its row was written, and a
    // half-written one; both an hour old. A fresh orphan may be an upload in progress: kept.
    const hourAgo = new Date(Date.now() - 61 * 60_000);
    const orphan = path.join(mediaDir, 'banners', 'aa', `${'a'.repeat(64)}.webp`);
    const orphanThumb = orphan.replace(/\.webp$/, '.thumb.webp');
    const partial = path.join(mediaDir, 'banners', 'aa', `${'b'.repeat(64)}.webp.1a2b3c.part`);
    const fresh = path.join(mediaDir, 'banners', 'aa', `${'c'.repeat(64)}.webp`);
    fs.mkdirSync(path.dirname(orphan), { recursive: true });
    for (const file of [orphan, orphanThumb, partial, fresh]) fs.writeFileSync(file, 'x');
    for (const file of [orphan, orphanThumb, partial]) fs.utimesSync(file, hourAgo, hourAgo);
    fs.utimesSync(keptFile, hourAgo, hourAgo);

    const second = await startProcess(env);
    await waitFor('the media sweep’s log line', () =>
      logLines(second).some((l) => l.msg === 'media sweep: removed files no row names'),
    );
    expect(tempFiles()).toEqual([]);
    expect(logLines(second).some((l) => l.msg.startsWith('removed temporary upload folders'))).toBe(
      true,
    );
    const sweep = logLines(second).find(
      (l) => l.msg === 'media sweep: removed files no row names',
    )!;
    expect(sweep).toMatchObject({
      removed: expect.arrayContaining([
        `banners/aa/${'a'.repeat(64)}.webp`,
        `banners/aa/${'a'.repeat(64)}.thumb.webp`,
      ]),
      partials: [`banners/aa/${'b'.repeat(64)}.webp.1a2b3c.part`],
    });
    expect([orphan, orphanThumb, partial].filter((f) => fs.existsSync(f))).toEqual([]);
    expect(fs.existsSync(fresh)).toBe(true);
    expect(fs.existsSync(keptFile)).toBe(true);
    await stop(second);
  });
});

describe('first start', () => {
  it('creates the SUPER_ADMIN once, printing a generated password once', async () => {
    const store = await freshStore();

    // Logging at info, as `npm start` does: the sign-in details still come last, after the start
    // line and every log line, in a block of their own.
    const first = await startProcess({ ...store, LOG_LEVEL: 'info' });
    await new Promise((r) => setTimeout(r, 300));
    const out = first.stdout();
    expect(logLines(first).length).toBeGreaterThan(0);
    const block = out.slice(out.indexOf('First start: created the SUPER_ADMIN account.'));
    expect(block).toMatch(
      /^First start: created the SUPER_ADMIN account\.\n {4}Email: admin@example\.com\n {4}Password \(shown only this once\): \S+\n {2}Sign in at http:\/\/localhost:\d+, then change the password under Account\.\n─+\n+$/,
    );
    expect(out.lastIndexOf('{')).toBeLessThan(out.indexOf('Master Admin is running at'));
    expect(out.indexOf('Master Admin is running at')).toBeLessThan(out.indexOf('First start'));
    const passwords = [...out.matchAll(PASSWORD_LINE)].map((m) => m[1]!);
    expect(passwords).toHaveLength(1);
    const password = passwords[0]!;
    expect(password.length).toBeGreaterThanOrEqual(12);

    const signIn = await login(first, 'admin@example.com', password);
    expect(signIn.status).toBe(200);
    const me = await profile(first, signIn.body.token!);
    expect(me.email).toBe('admin@example.com');
    expect((await login(first, 'admin@example.com', 'not-the-password')).status).toBe(401);
    await stop(first);
    expect(first.stdout() + first.stderr()).not.toMatch(/\n\s+at /);

    const second = await startProcess(store);
    expect(second.stdout()).not.toMatch(/Password|created the SUPER_ADMIN/);
    const again = await login(second, 'admin@example.com', password);
    expect(again.status).toBe(200);
    expect(await profile(second, again.body.token!)).toEqual(me);
    // A token issued before the restart still works: the secret was kept in the data folder.
    expect((await profile(second, signIn.body.token!)).id).toBe(me.id);
    await stop(second);
  });

  it('uses ADMIN_EMAIL and ADMIN_PASSWORD when set, printing no password', async () => {
    const store = await freshStore();
    const server = await startProcess({
      ...store,
      ADMIN_EMAIL: 'owner@example.org',
      ADMIN_PASSWORD: 'owner-password-1',
    });
    expect(server.stdout()).toContain('First start: created the SUPER_ADMIN account.');
    expect(server.stdout()).toContain('Email: owner@example.org');
    expect(server.stdout()).toContain('Password: the one ADMIN_PASSWORD sets');
    expect(server.stdout()).not.toMatch(/shown only this once|owner-password-1/);
    expect((await login(server, 'owner@example.org', 'owner-password-1')).status).toBe(200);
    expect((await login(server, 'admin@example.com', 'owner-password-1')).status).toBe(401);
    await stop(server);
  });
});

/** This machine's first IPv4 address other than loopback, if it has one. */
function networkAddress(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === 'IPv4' && !a.internal)?.address;
}

/** The health check's status at `host`, or the connection error's code. */
async function healthAt(host: string, port: number): Promise<number | string> {
  try {
    return (await fetch(`http://${host}:${port}/api/v1/health`)).status;
  } catch (err) {
    return (err as { cause?: { code?: string } }).cause?.code ?? String(err);
  }
}

describe('where it listens and how it logs', () => {
  it('listens on loopback unless HOST says otherwise, and the start line says so', async () => {
    const store = await freshStore();
    const lan = networkAddress();

    // HOST unset (empty counts as unset).
    const local = await startProcess({ ...store, HOST: '' });
    expect(local.listening).toBe(`http://127.0.0.1:${local.port}`);
    expect(local.stdout()).toContain(
      'Only this computer can reach it. To open it to other machines: HOST=0.0.0.0 npm start',
    );
    expect(await healthAt('127.0.0.1', local.port)).toBe(200);
    if (lan) expect(await healthAt(lan, local.port)).toBe('ECONNREFUSED');
    await stop(local);

    const open = await startProcess({ ...store, HOST: '0.0.0.0' });
    expect(open.listening).toBe(`http://0.0.0.0:${open.port}`);
    expect(open.stdout()).toContain('Other machines on the network can reach it');
    expect(await healthAt('127.0.0.1', open.port)).toBe(200);
    if (lan) expect(await healthAt(lan, open.port)).toBe(200);
    await stop(open);
  });

  it('logs JSON when its output is not a terminal, readable lines when LOG_FORMAT=pretty', async () => {
    const store = await freshStore();
    const piped = await startProcess({ ...store, LOG_LEVEL: 'info' });
    const before = piped.stdout().slice(0, piped.stdout().indexOf('Master Admin is running'));
    const lines = before.split('\n').filter((l) => l.trim() !== '');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(() => JSON.parse(line) as unknown, line).not.toThrow();
    expect(logLines(piped).map((l) => l.msg)).toContain(
      `Server listening at http://127.0.0.1:${piped.port}`,
    );
    await stop(piped);

    const pretty = await startProcess({ ...store, LOG_LEVEL: 'info', LOG_FORMAT: 'pretty' });
    expect(logLines(pretty)).toEqual([]);
    expect(pretty.stdout()).toMatch(
      new RegExp(
        `^\\[\\d\\d:\\d\\d:\\d\\d\\] INFO: Server listening at http://127\\.0\\.0\\.1:${pretty.port}$`,
        'm',
      ),
    );
    await stop(pretty);
  });
});

describe('graceful shutdown', () => {
  it('finishes a request under way when SIGTERM arrives, then exits with 0', async () => {
    const server = await startProcess(await freshStore());
    const body = JSON.stringify({ email: 'admin@example.com', password: 'wrong-password-1' });
    const half = Math.floor(body.length / 2);

    const socket = net.connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      socket.once('connect', resolve);
      socket.once('error', reject);
    });
    let response = '';
    socket.setEncoding('utf8');
    socket.on('data', (d: string) => (response += d));
    const ended = new Promise<void>((resolve) => socket.on('close', () => resolve()));

    socket.write(
      'POST /api/v1/auth/admin/login HTTP/1.1\r\n' +
        'Host: localhost\r\n' +
        'Content-Type: application/json\r\n' +
        `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n` +
        body.slice(0, half),
    );
    await new Promise((r) => setTimeout(r, 200));
    server.child.kill('SIGTERM');
    await new Promise((r) => setTimeout(r, 300));
    expect(server.child.exitCode, 'the server must wait for the request under way').toBeNull();
    socket.write(body.slice(half));

    // The answer comes, and the connection is closed after it rather than kept alive.
    await within(ended, 5000, `the connection (received: ${JSON.stringify(response)})`);
    expect(response).toMatch(/^HTTP\/1\.1 401 /);
    expect(response).toMatch(/\r\nconnection: close\r\n/i);
    const json = JSON.parse(response.slice(response.indexOf('\r\n\r\n') + 4));
    expect(json).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
    expect(await within(server.exited, 5000, 'the server’s exit')).toBe(0);
    expect(server.stderr()).not.toMatch(/\n\s+at /);
  });

  it('is not held up by a connection that never sent a request, and exits with 0', async () => {
    const server = await startProcess(await freshStore());
    // As a browser's preconnect or a client's pool opens one ahead of a request it never sends.
    const silent = net.connect(server.port, '127.0.0.1');
    await new Promise<void>((resolve, reject) => {
      silent.once('connect', resolve);
      silent.once('error', reject);
    });
    const closed = new Promise<void>((resolve) => silent.on('close', () => resolve()));
    server.child.kill('SIGTERM');
    await within(closed, 5000, 'the silent connection’s end');
    expect(await within(server.exited, 5000, 'the server’s exit')).toBe(0);
  });

  it('refuses new connections once shutting down', async () => {
    const server = await startProcess(await freshStore());
    await stop(server);
    await expect(fetch(`http://127.0.0.1:${server.port}/api/v1/health`)).rejects.toThrow();
  });
});

describe('the drain on SIGTERM', () => {
  const admin = { ADMIN_EMAIL: 'drain@test.local', ADMIN_PASSWORD: 'drain-password-1' };
  /** A server logging its phases, and a token of its admin. */
  async function signedIn(env: Record<string, string>) {
    const server = await startProcess({
      ...(await freshStore()),
      ...admin,
      LOG_LEVEL: 'info',
      ...env,
    });
    const token = (await login(server, admin.ADMIN_EMAIL, admin.ADMIN_PASSWORD)).body.token!;
    return { server, token };
  }

  it('turns readiness 503 at once, serves with Connection: close for DRAIN_SECONDS, then takes no new connections but finishes every request it has', async () => {
    const { server, token } = await signedIn({ DRAIN_SECONDS: '2' });
    const auth = { authorization: `Bearer ${token}` };
    const created = await fetch(`http://127.0.0.1:${server.port}/api/v1/master-app`, {
      method: 'POST',
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'Drain' }),
    });
    const appId = ((await created.json()) as { result: { id: number } }).result.id;
    expect((await get(server, '/health/ready')).status).toBe(200);

    // A keep-alive connection the proxy opened before, idle when the signal comes.
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    expect((await get(server, '/health', {}, agent)).headers.connection).toBe('keep-alive');
    // An upload under way: headers and half of its file sent.
    const boundary = 'x-drain-boundary';
    const png = await images.png(300, 200);
    const head = Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="d.png"\r\n` +
        `Content-Type: image/png\r\n\r\n`,
    );
    const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
    const upload = net.connect(server.port, '127.0.0.1');
    await new Promise((r) => upload.once('connect', r));
    const uploaded = responseOn(upload);
    upload.write(
      `POST /api/v1/banner/${appId} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${token}\r\n` +
        `Content-Type: multipart/form-data; boundary=${boundary}\r\n` +
        `Content-Length: ${head.length + png.length + tail.length}\r\n\r\n`,
    );
    upload.write(Buffer.concat([head, png.subarray(0, png.length / 2)]));
    // A request whose headers are still coming in when the listener closes.
    const late = net.connect(server.port, '127.0.0.1');
    await new Promise((r) => late.once('connect', r));
    const lateAnswer = responseOn(late);
    late.write('GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n');

    server.child.kill('SIGTERM');
    const phase = (msg: string) => logLines(server).some((l) => l.msg.startsWith(msg));
    await waitFor('the draining log line', () => phase('shutdown: draining'));
    const signalledAt = Date.now();

    const readiness = await get(server, '/health/ready');
    expect(readiness.status).toBe(503);
    expect(JSON.parse(readiness.body)).toMatchObject({ status: 'draining' });
    expect(readiness.headers.connection).toBe('close');
    // Everything else is served as before, each answer ending its connection: the idle
    // keep-alive connection's next request too.
    const liveness = await get(server, '/health', {}, agent);
    expect([liveness.status, liveness.headers.connection]).toEqual([200, 'close']);
    const call = await get(server, '/account/admin-detail', auth);
    expect([call.status, call.headers.connection]).toEqual([200, 'close']);
    expect(Date.now() - signalledAt, 'these answers came within the drain period').toBeLessThan(
      2000,
    );

    await waitFor('the end of the drain', () => phase('shutdown: no new connections'));
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(1900);
    // (The line comes just before the listener closes, within a turn of the event loop.)
    await new Promise((r) => setTimeout(r, 100));
    await expect(get(server, '/health')).rejects.toThrow(/ECONNREFUSED/);
    expect(server.child.exitCode, 'the requests under way hold the exit').toBeNull();

    // The late request is served, not refused with a 503.
    late.write('\r\n');
    const lateResponse = await within(lateAnswer, 5000, 'the late request’s answer');
    expect(lateResponse).toMatch(/^HTTP\/1\.1 200 /);
    expect(lateResponse).toMatch(/\r\nconnection: close\r\n/i);
    // The upload finishes.
    upload.write(Buffer.concat([png.subarray(png.length / 2), tail]));
    const uploadResponse = await within(uploaded, 10_000, 'the upload’s answer');
    expect(uploadResponse).toMatch(/^HTTP\/1\.1 200 /);
    expect(uploadResponse).toMatch(/\r\nconnection: close\r\n/i);
    expect(uploadResponse).toMatch(/"image":"\/media\/banners\//);

    expect(await within(server.exited, 10_000, 'the server’s exit')).toBe(0);
    agent.destroy();
    const phases = logLines(server)
      .filter((l) => l.msg.startsWith('shutdown:'))
      .map((l) => l.msg);
    expect(phases).toEqual([
      'shutdown: draining (readiness answers 503, requests are still served)',
      'shutdown: no new connections; finishing requests under way',
      'shutdown: done, requests finished and pools closed',
    ]);
    expect(server.stderr()).toBe('');
  });

  it('keeps event streams through the drain, then ends them, and exits with 0 at once', async () => {
    const { server, token } = await signedIn({ DRAIN_SECONDS: '1' });
    const res = await fetch(`http://127.0.0.1:${server.port}/api/v1/events`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader();
    let text = '';
    const ended = (async () => {
      for (;;) {
        const { value, done } = await reader.read();
        if (done) return;
        text += value;
      }
    })();
    const stopping = Date.now();
    server.child.kill('SIGTERM');
    await within(ended, 5000, 'the end of the event stream');
    // Served through the drain period (the client reconnects elsewhere once it ends).
    expect(Date.now() - stopping).toBeGreaterThanOrEqual(900);
    expect(text).toMatch(/^retry: 2000\n\nid: \d+\n\n/);
    // Not held up until SHUTDOWN_TIMEOUT_SECONDS by the stream.
    expect(await within(server.exited, 5000, 'the server’s exit')).toBe(0);
  });

  it('cuts a request still under way at SHUTDOWN_TIMEOUT_SECONDS and exits with 1', async () => {
    const { server, token } = await signedIn({ SHUTDOWN_TIMEOUT_SECONDS: '1' });
    // A stuck upload: the client sends part of it and nothing more.
    const stuck = await partialUpload(server, '/banner/1', token, 2_000_000, 100_000);
    const cut = new Promise<void>((resolve) => stuck.on('close', () => resolve()));
    const signalledAt = Date.now();
    server.child.kill('SIGTERM');
    expect(await within(server.exited, 10_000, 'the server’s exit')).toBe(1);
    // The timeout, then the pools close right after the connection is cut.
    expect(Date.now() - signalledAt).toBeGreaterThanOrEqual(900);
    expect(Date.now() - signalledAt).toBeLessThan(4000);
    await within(cut, 1000, 'the stuck connection’s end');
    expect(logLines(server).find((l) => l.msg.includes('at the timeout'))).toMatchObject({
      level: 50,
      msg: 'shutdown: requests still under way at the timeout; cutting their connections',
    });
  });

  it('ends the drain period at a second signal', async () => {
    const server = await startProcess({
      ...(await freshStore()),
      DRAIN_SECONDS: '60',
      LOG_LEVEL: 'info',
    });
    server.child.kill('SIGTERM');
    await waitFor('the draining log line', () =>
      logLines(server).some((l) => l.msg.startsWith('shutdown: draining')),
    );
    expect((await get(server, '/health/ready')).status).toBe(503);
    server.child.kill('SIGTERM');
    expect(await within(server.exited, 5000, 'the server’s exit after a second SIGTERM')).toBe(0);
  });
});

// Each case is a process of its own: they run side by side.
describe.concurrent('a bad configuration', () => {
  async function failing(env: Record<string, string>) {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-bad-'));
    cleanups.push(() => fs.rmSync(dataDir, { recursive: true, force: true }));
    const p = spawnServer({ DATA_DIR: dataDir, ...env });
    const code = await p.exited;
    return { code, stdout: p.stdout(), stderr: p.stderr() };
  }

  it.for([
    ['PORT', { PORT: 'abc' }],
    ['PORT', { PORT: '70000' }],
    ['DATABASE_URL', { DATABASE_URL: 'mysql://x' }],
    ['ADMIN_EMAIL', { ADMIN_EMAIL: 'not-an-email' }],
    ['ADMIN_PASSWORD', { ADMIN_PASSWORD: 'short' }],
    ['LOG_LEVEL', { LOG_LEVEL: 'loud' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'short-token' }],
    ['METRICS_TOKEN', { METRICS_TOKEN: 'sixteen or more but spaces' }],
    ['DRAIN_SECONDS', { DRAIN_SECONDS: '-1' }],
    ['SHUTDOWN_TIMEOUT_SECONDS', { SHUTDOWN_TIMEOUT_SECONDS: '0' }],
  ] as const)('exits with 1 naming %s, without a stack trace', async ([name, env], { expect }) => {
    const { code, stdout, stderr } = await failing(env);
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
    expect(stderr).not.toMatch(/\n\s+at |Error:|node:internal/);
    expect(stdout).not.toContain('Master Admin is running');
  });

  it('names every bad variable at once', async ({ expect }) => {
    const { code, stderr } = await failing({
      PORT: 'abc',
      DATABASE_URL: 'mysql://x',
      LOG_FORMAT: 'yaml',
    });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^\s+PORT: /m);
    expect(stderr).toMatch(/^\s+DATABASE_URL: /m);
    expect(stderr).toMatch(/^\s+LOG_FORMAT: /m);
  });
});
