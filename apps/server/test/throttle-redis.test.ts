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
});
