/**
 * Sign-in throttling with REDIS_URL set: the counts live in Redis, shared by every instance, with
 * the same atomic decisions as in the database. Needs Redis on TEST_REDIS_URL
 * (redis://127.0.0.1:6379 by default); skipped without it, unless CI=1.
 */
import net from 'node:net';
import { randomInt } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.ts';

const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const reachable = await new Promise<boolean>((resolve) => {
  const url = new URL(REDIS_URL);
  const socket = net.connect(Number(url.port || 6379), url.hostname);
  socket.once('connect', () => (socket.destroy(), resolve(true)));
  socket.once('error', () => resolve(false));
});
if (!reachable && process.env.CI) throw new Error(`Redis is not reachable at ${REDIS_URL}`);

// Counts outlive a test run in Redis: each run signs in from addresses of its own.
const net16 = `10.${randomInt(1, 250)}.${randomInt(1, 250)}`;

describe.runIf(reachable)('sign-in throttling in Redis', () => {
  let s: TestServer;
  afterAll(async () => s?.close());

  const login = (payload: object, remoteAddress: string) =>
    s.api({ method: 'POST', url: '/auth/admin/login', payload, remoteAddress });

  it('counts and decides in one step: 40 wrong passwords at once get 10 checks', async () => {
    s = await startServer({ REDIS_URL });
    expect(s.ctx.redis).toBeDefined();
    const staff = await s.staff();
    const statuses = (
      await Promise.all(
        Array.from({ length: 40 }, (_, i) =>
          login({ email: staff.email, password: `burst-${i}` }, `${net16}.1`),
        ),
      )
    ).map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 401)).toHaveLength(10);
    expect(statuses.filter((c) => c === 429)).toHaveLength(30);
    // Kept in Redis, not in the database.
    expect(await s.rowCount('loginThrottle')).toBe(0);
  });

  it('does not lock the owner out, and refuses the addresses that failed', async () => {
    const staff = await s.staff();
    for (let i = 0; i < 10; i++) {
      await login({ email: staff.email, password: `guess-${i}` }, `${net16}.${10 + i}`);
    }
    const locked = await login({ email: staff.email, password: staff.password }, `${net16}.12`);
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await login({ email: staff.email, password: staff.password }, `${net16}.99`)).statusCode,
    ).toBe(200);
  });

  it('gives a known device its own budget while the account is locked, and codes their own counts', async () => {
    const staff = await s.staff();
    const home = await login({ email: staff.email, password: staff.password }, `${net16}.150`);
    const cookie = [home.headers['set-cookie']].flat().find((c) => c?.startsWith('device='));
    const device = cookie!.split(';')[0]!;
    for (let i = 0; i < 10; i++) {
      await login({ email: staff.email, password: `guess-${i}` }, `${net16}.${160 + i}`);
    }
    const withDevice = (password: string, address: string) =>
      s.api({
        method: 'POST',
        url: '/auth/admin/login',
        payload: { email: staff.email, password },
        remoteAddress: address,
        headers: { cookie: device },
      });
    // From an address that failed: locked for an unknown device, open for the known one.
    expect(
      (await login({ email: staff.email, password: staff.password }, `${net16}.161`)).statusCode,
    ).toBe(429);
    expect((await withDevice(staff.password, `${net16}.161`)).statusCode).toBe(200);
    for (let i = 0; i < 5; i++)
      expect((await withDevice(`stolen-${i}`, `${net16}.${180 + i}`)).statusCode).toBe(401);
    // A spent budget counts as an unknown device: refused where guesses came from, checked from
    // a clean address.
    expect((await withDevice(staff.password, `${net16}.161`)).statusCode).toBe(429);
    expect((await withDevice(staff.password, `${net16}.190`)).statusCode).toBe(200);
    // Kept in Redis, not in the database.
    expect(await s.rowCount('loginThrottle')).toBe(0);
    // A second-step code's counts are the throttle's too: the same decisions, keys of their own.
    const throttle = s.ctx.throttle;
    // Account ids repeat from one run to the next (a fresh database each time); Redis keeps counts.
    await throttle.clearAccount(staff.id);
    for (let i = 0; i < 10; i++) await throttle.beginCode(`${net16}.${200 + i}`, staff.id);
    await expect(throttle.beginCode(`${net16}.203`, staff.id)).rejects.toMatchObject({
      statusCode: 429,
    });
    await throttle.clearAccount(staff.id);
    await expect(throttle.beginCode(`${net16}.203`, staff.id)).resolves.toBeDefined();
  });
});
