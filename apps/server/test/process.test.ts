/**
 * The real server process (`node src/main.ts`): first start, restart, graceful shutdown and a bad
 * configuration, as an operator sees them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TEST_DB, createPgDatabase } from './harness.ts';

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
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
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
  expect(match![2]).toBe(`http://127.0.0.1:${match![1]}`);
  return { ...p, port: Number(match![1]) };
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

describe('first start', () => {
  it('creates the SUPER_ADMIN once, printing a generated password once', async () => {
    const store = await freshStore();

    const first = await startProcess(store);
    const out = first.stdout();
    expect(out).toContain('First start: created the SUPER_ADMIN account admin@example.com');
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
    expect(server.stdout()).toContain('created the SUPER_ADMIN account owner@example.org');
    expect(server.stdout()).not.toMatch(/Password|owner-password-1/);
    expect((await login(server, 'owner@example.org', 'owner-password-1')).status).toBe(200);
    expect((await login(server, 'admin@example.com', 'owner-password-1')).status).toBe(401);
    await stop(server);
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

  it('refuses new connections once shutting down', async () => {
    const server = await startProcess(await freshStore());
    await stop(server);
    await expect(fetch(`http://127.0.0.1:${server.port}/api/v1/health`)).rejects.toThrow();
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
  ] as const)('exits with 1 naming %s, without a stack trace', async ([name, env], { expect }) => {
    const { code, stdout, stderr } = await failing(env);
    expect(code).toBe(1);
    expect(stderr).toContain('Invalid configuration');
    expect(stderr).toMatch(new RegExp(`^\\s+${name}: `, 'm'));
    expect(stderr).not.toMatch(/\n\s+at |Error:|node:internal/);
    expect(stdout).not.toContain('Master Admin is running');
  });

  it('names every bad variable at once', async ({ expect }) => {
    const { code, stderr } = await failing({ PORT: 'abc', DATABASE_URL: 'mysql://x' });
    expect(code).toBe(1);
    expect(stderr).toMatch(/^\s+PORT: /m);
    expect(stderr).toMatch(/^\s+DATABASE_URL: /m);
  });
});
