import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { SignJWT, jwtVerify } from 'jose';
import { BUILT_IN_MENUS, MESSAGES, PERMISSION_KINDS } from '@master-admin/contract';
import { ADMIN, TEST_DB, sessionOf, startServer, type TestServer } from './harness.ts';
import SQLite from 'better-sqlite3';
import pg from 'pg';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(async () => {
  await s.close();
});

const login = (payload: unknown, remoteAddress = '10.0.0.1') =>
  s.api({ method: 'POST', url: '/auth/admin/login', payload: payload as object, remoteAddress });

/**
 * A connection to the test database of its own, as another server instance would have: plain SQL
 * (`?` placeholders) through the database's own client, none of this server's code.
 */
async function anotherInstance() {
  const { database } = s.config;
  if (database.kind === 'sqlite') {
    const sqlite = new SQLite(database.file);
    sqlite.pragma('busy_timeout = 5000');
    return {
      run: async (text: string, values: unknown[]) => void sqlite.prepare(text).run(...values),
      close: async () => void sqlite.close(),
    };
  }
  const client = new pg.Client({ connectionString: database.url });
  await client.connect();
  return {
    run: async (text: string, values: unknown[]) => {
      let i = 0;
      await client.query(
        text.replace(/\?/g, () => `$${++i}`),
        values,
      );
    },
    close: () => client.end(),
  };
}

/** The session id a token carries. */

function history(accountId: number) {
  return s.ctx.db
    .selectFrom('loginHistory')
    .selectAll()
    .where('accountId', '=', accountId)
    .orderBy('id')
    .execute();
}

describe('login', () => {
  it('answers a token and the login id, and records history IN with the caller IP', async () => {
    const staff = await s.staff();
    const res = await login({ email: staff.email, password: staff.password }, '203.0.113.7');
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body.loginId).toBe(staff.email);
    expect(body.token.split('.')).toHaveLength(3);
    const rows = await history(staff.id);
    expect(rows.at(-1)).toMatchObject({ status: 'IN', ip: '203.0.113.7' });
  });

  it('answers a standard HS256 JWT naming the session, the account and the session’s end', async () => {
    const staff = await s.staff();
    const token = (await login({ email: staff.email, password: staff.password })).json().token;
    const { payload, protectedHeader } = await jwtVerify(token, s.ctx.secret, {
      algorithms: ['HS256'],
      issuer: 'master-admin',
    });
    expect(protectedHeader).toEqual({ alg: 'HS256', typ: 'JWT' });
    const session = await s.ctx.db
      .selectFrom('sessions')
      .select(['id', 'expiresAt'])
      .where('accountId', '=', staff.id)
      .orderBy('createdAt', 'desc')
      .executeTakeFirstOrThrow();
    expect(payload.sid).toBe(session.id);
    expect(payload.sub).toBe(String(staff.id));
    expect(payload.exp).toBe(Math.floor(Date.parse(session.expiresAt) / 1000));
  });

  it('stops accepting a token once its own expiry has passed, though it was accepted before', async () => {
    const me = (token: string) => s.api({ method: 'GET', url: '/account/admin-detail', token });
    const staff = await s.staff();
    expect((await me(staff.token)).statusCode).toBe(200);
    const exp = JSON.parse(Buffer.from(staff.token.split('.')[1]!, 'base64url').toString()).exp;
    const clock = vi.spyOn(Date, 'now').mockReturnValue(exp * 1000 + 1);
    try {
      expect((await me(staff.token)).statusCode).toBe(401);
    } finally {
      clock.mockRestore();
    }
    expect((await me(staff.token)).statusCode).toBe(200);
  });

  it('accepts the email in any case and a phone number', async () => {
    const staff = await s.staff();
    await s.ctx.db
      .updateTable('accounts')
      .set({ phoneNumber: '5550001111' })
      .where('id', '=', staff.id)
      .execute();
    expect(
      (await login({ email: staff.email.toUpperCase(), password: staff.password })).statusCode,
    ).toBe(200);
    expect((await login({ email: '5550001111', password: staff.password })).statusCode).toBe(200);
  });

  it('refuses a wrong password and an unknown email with the same answer', async () => {
    const wrong = await login({ email: ADMIN.email, password: 'not-the-password' }, '10.1.0.1');
    const unknown = await login({ email: 'nobody@test.local', password: 'whatever1' }, '10.1.0.2');
    expect(wrong.statusCode).toBe(401);
    expect(unknown.statusCode).toBe(401);
    expect(wrong.json()).toEqual(unknown.json());
    expect(wrong.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: MESSAGES.invalidCredentials,
    });
  });

  it('names missing and empty fields, and unknown ones', async () => {
    const res = await login({ email: '', password: '', extra: 1 });
    expect(res.statusCode).toBe(400);
    const paths = res
      .json()
      .details.map((d: { path: string }) => d.path)
      .sort();
    expect(paths).toEqual(['email', 'extra', 'password']);
    const missing = await login({});
    expect(missing.json().details).toEqual([
      { path: 'email', message: 'Required' },
      { path: 'password', message: 'Required' },
    ]);
  });

  it('refuses a body that is not JSON, form or multipart with 415', async () => {
    const res = await s.api({
      method: 'POST',
      url: '/auth/admin/login',
      headers: { 'content-type': 'text/plain' },
      payload: 'email=a&password=b',
    });
    expect(res.statusCode).toBe(415);
    expect(res.json().message).toBe(MESSAGES.unsupportedMediaType);
  });

  it('refuses malformed JSON and a body over the limit', async () => {
    const bad = await s.api({
      method: 'POST',
      url: '/auth/admin/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    const big = await login({ email: 'a@b.c', password: 'x'.repeat(s.config.bodyLimitBytes + 1) });
    expect(big.statusCode).toBe(413);
    expect(big.json()).toMatchObject({ statusCode: 413, error: 'Payload Too Large' });
  });

  it('refuses a USER account and an account that is not ACTIVE', async () => {
    const staff = await s.staff();
    await s.ctx.db
      .updateTable('accounts')
      .set({ status: 'DEACTIVE' })
      .where('id', '=', staff.id)
      .execute();
    const res = await login({ email: staff.email, password: staff.password });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MESSAGES.accountNotActive);

    const user = await s.staff();
    await s.ctx.db
      .updateTable('accounts')
      .set({ role: 'USER' })
      .where('id', '=', user.id)
      .execute();
    const asUser = await login({ email: user.email, password: user.password });
    expect(asUser.statusCode).toBe(401);
    expect(asUser.json().message).toBe(MESSAGES.invalidCredentials);
  });
});

describe('tokens', () => {
  const me = (token: string) => s.api({ method: 'GET', url: '/account/admin-detail', token });

  it('are needed: none, a malformed header and garbage all answer 401', async () => {
    expect((await s.api({ method: 'GET', url: '/account/admin-detail' })).statusCode).toBe(401);
    const basic = await s.api({
      method: 'GET',
      url: '/account/admin-detail',
      headers: { authorization: 'Basic YTpi' },
    });
    expect(basic.statusCode).toBe(401);
    expect((await me('not.a.jwt')).statusCode).toBe(401);
  });

  it('refuses a forged token, an expired one and an alg:none one', async () => {
    const good = await s.login(ADMIN.email, ADMIN.password);
    const sid = sessionOf(good);

    const forged = await new SignJWT({ sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('master-admin')
      .setSubject('1')
      .setExpirationTime('1h')
      .sign(new TextEncoder().encode('a-different-secret-of-enough-length-xx'));
    expect((await me(forged)).statusCode).toBe(401);

    const expired = await new SignJWT({ sid })
      .setProtectedHeader({ alg: 'HS256' })
      .setIssuer('master-admin')
      .setSubject('1')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(s.ctx.secret);
    expect((await me(expired)).statusCode).toBe(401);

    const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');
    const none = `${b64({ alg: 'none', typ: 'JWT' })}.${b64({ sid, iss: 'master-admin', sub: '1' })}.`;
    expect((await me(none)).statusCode).toBe(401);

    expect((await me(good)).statusCode).toBe(200);
  });

  it('stops working after logout, which records history OUT', async () => {
    const staff = await s.staff();
    expect((await me(staff.token)).statusCode).toBe(200);
    const out = await s.api({ method: 'POST', url: '/auth/admin/logout', token: staff.token });
    expect(out.statusCode).toBe(200);
    expect(out.json()).toEqual({ message: MESSAGES.loggedOut });
    const res = await me(staff.token);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MESSAGES.sessionExpired);
    expect((await history(staff.id)).map((r) => r.status)).toEqual(['IN', 'OUT']);
  });

  it('stops working at once when the account is set DEACTIVE', async () => {
    const staff = await s.staff();
    expect((await me(staff.token)).statusCode).toBe(200);
    await s.ctx.db
      .updateTable('accounts')
      .set({ status: 'DEACTIVE' })
      .where('id', '=', staff.id)
      .execute();
    expect((await me(staff.token)).statusCode).toBe(401);
  });

  it('stops working on the very next call once another instance revokes it, whatever the kind', async () => {
    // Another instance on the same database: a connection of its own, with nothing of this
    // server's code on it. Each revocation is committed before the next call, which must see it.
    const other = await anotherInstance();
    const at = new Date().toISOString();
    const revocations: Array<[string, (staffId: number, token: string) => Promise<void>]> = [
      [
        'sign-out',
        (_, token) =>
          other.run('update sessions set revoked_at = ? where id = ?', [at, sessionOf(token)]),
      ],
      [
        'password change',
        (id) => other.run('update sessions set revoked_at = ? where account_id = ?', [at, id]),
      ],
      [
        'status DEACTIVE',
        (id) => other.run("update accounts set status = 'DEACTIVE' where id = ?", [id]),
      ],
    ];
    try {
      for (const [kind, revoke] of revocations) {
        const staff = await s.staff({ faqs: ['VIEW'] });
        const faqs = () => s.api({ method: 'GET', url: '/faqs/list', token: staff.token });
        // Read twice, so whatever the access check may keep is kept.
        expect((await faqs()).statusCode, kind).toBe(200);
        expect((await faqs()).statusCode, kind).toBe(200);
        await revoke(staff.id, staff.token);
        expect((await faqs()).statusCode, kind).toBe(401);
      }
      // A grant taken away: the session lives on, the area is closed at once.
      const staff = await s.staff({ faqs: ['VIEW'] });
      const faqs = () => s.api({ method: 'GET', url: '/faqs/list', token: staff.token });
      expect((await faqs()).statusCode).toBe(200);
      expect((await faqs()).statusCode).toBe(200);
      await other.run(
        `update user_permissions set status = ${TEST_DB === 'postgres' ? 'false' : '0'} where account_id = ?`,
        [staff.id],
      );
      expect((await faqs()).statusCode).toBe(403);
      expect((await me(staff.token)).statusCode).toBe(200);
    } finally {
      await other.close();
    }
  });

  it('stops working when the session has expired', async () => {
    const staff = await s.staff();
    await s.ctx.db
      .updateTable('sessions')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('accountId', '=', staff.id)
      .execute();
    expect((await me(staff.token)).statusCode).toBe(401);
  });
});

describe('own profile and password', () => {
  it('shows the caller’s profile without any password', async () => {
    const staff = await s.staff();
    const res = await s.api({ method: 'GET', url: '/account/admin-detail', token: staff.token });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toMatchObject({
      id: staff.id,
      email: staff.email,
      status: 'ACTIVE',
      phoneNumber: null,
    });
    expect(Object.keys(body).sort()).toEqual(['createdAt', 'email', 'id', 'phoneNumber', 'status']);
    expect(new Date(body.createdAt).toISOString()).toBe(body.createdAt);
  });

  it('tells a staff account exactly the grants it holds, and a SUPER_ADMIN every kind of every menu', async () => {
    const staff = await s.staff({ banner: ['VIEW', 'UPDATE'], faqs: ['DELETE'] });
    const mine = await s.api({ method: 'GET', url: '/account/me/permissions', token: staff.token });
    expect(mine.statusCode).toBe(200);
    expect(mine.json()).toEqual({
      role: 'STAFF',
      grants: { banner: ['VIEW', 'UPDATE'], faqs: ['DELETE'] },
    });

    const none = await s.staff();
    const empty = await s.api({ method: 'GET', url: '/account/me/permissions', token: none.token });
    expect(empty.json()).toEqual({ role: 'STAFF', grants: {} });

    const admin = await s.api({
      method: 'GET',
      url: '/account/me/permissions',
      token: s.adminToken,
    });
    const body = admin.json();
    expect(body.role).toBe('SUPER_ADMIN');
    expect(Object.keys(body.grants)).toEqual(BUILT_IN_MENUS.map((m) => m.name));
    for (const kinds of Object.values(body.grants)) expect(kinds).toEqual([...PERMISSION_KINDS]);

    const anonymous = await s.api({ method: 'GET', url: '/account/me/permissions' });
    expect(anonymous.statusCode).toBe(401);
  });

  it('refuses a wrong old password with 409 and changes nothing', async () => {
    const staff = await s.staff();
    const res = await s.api({
      method: 'POST',
      url: '/auth/admin/pass-reset',
      token: staff.token,
      payload: { oldPassword: 'wrong-password', newPassword: 'brand-new-pass' },
    });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe('old password not matched!!');
    expect(res.json().details).toEqual([
      { path: 'oldPassword', message: 'old password not matched!!' },
    ]);
    expect(await s.login(staff.email, staff.password)).toBeTruthy();
  });

  it('validates the new password length', async () => {
    const staff = await s.staff();
    for (const newPassword of ['short', 'x'.repeat(129)]) {
      const res = await s.api({
        method: 'POST',
        url: '/auth/admin/pass-reset',
        token: staff.token,
        payload: { oldPassword: staff.password, newPassword },
      });
      expect(res.statusCode).toBe(400);
      expect(res.json().details[0].path).toBe('newPassword');
    }
    expect(await s.login(staff.email, staff.password)).toBeTruthy();
  });

  it('changes the password (form-encoded): the new one signs in, other sessions end', async () => {
    const staff = await s.staff();
    const other = await s.login(staff.email, staff.password);
    const res = await s.api({
      method: 'POST',
      url: '/auth/admin/pass-reset',
      token: staff.token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `oldPassword=${staff.password}&newPassword=brand-new-pass`,
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Password reset successfully',
      result: { id: staff.id, email: staff.email },
    });
    expect((await login({ email: staff.email, password: staff.password })).statusCode).toBe(401);
    expect(await s.login(staff.email, 'brand-new-pass')).toBeTruthy();
    const me = (token: string) => s.api({ method: 'GET', url: '/account/admin-detail', token });
    expect((await me(staff.token)).statusCode).toBe(200);
    expect((await me(other)).statusCode).toBe(401);
  });
});

describe('sign-in throttling', () => {
  it('after 10 failures for one account refuses every address that failed, with Retry-After', async () => {
    const staff = await s.staff();
    for (let i = 0; i < 10; i++) {
      const res = await login({ email: staff.email, password: `wrong-${i}` }, `192.0.2.${i + 1}`);
      expect(res.statusCode).toBe(401);
    }
    // The right password, from an address that failed, in another case: refused.
    const res = await login(
      { email: staff.email.toUpperCase(), password: staff.password },
      '192.0.2.3',
    );
    expect(res.statusCode).toBe(429);
    expect(Number(res.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(res.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    expect(res.json().message).toBe(MESSAGES.tooManyAttempts);
    // Another account from a fresh address is not affected.
    expect(
      (await login({ email: ADMIN.email, password: ADMIN.password }, '192.0.2.200')).statusCode,
    ).toBe(200);
  });

  it('does not lock the owner out: the right password from an address with no failure gets in', async () => {
    const staff = await s.staff();
    // A stranger who knows the email locks the account from several addresses.
    for (let i = 0; i < 12; i++) {
      await login({ email: staff.email, password: `guess-${i}` }, `203.0.113.${i + 1}`);
    }
    expect(
      (await login({ email: staff.email, password: staff.password }, '203.0.113.5')).statusCode,
    ).toBe(429);
    // The owner, elsewhere.
    const owner = await login({ email: staff.email, password: staff.password }, '198.18.0.1');
    expect(owner.statusCode).toBe(200);
    // Signing in cleared the lock: a stranger's address that failed gets checked again.
    expect(
      (await login({ email: staff.email, password: 'still-wrong' }, '203.0.113.5')).statusCode,
    ).toBe(401);
  });

  it('gives a clean address one guess at a locked account, then refuses it', async () => {
    const staff = await s.staff();
    for (let i = 0; i < 10; i++) {
      await login({ email: staff.email, password: `guess-${i}` }, `203.0.114.${i + 1}`);
    }
    expect(
      (await login({ email: staff.email, password: 'one-guess' }, '198.18.1.1')).statusCode,
    ).toBe(401);
    expect(
      (await login({ email: staff.email, password: staff.password }, '198.18.1.1')).statusCode,
    ).toBe(429);
  });

  it('after 10 failures from one address answers 429 for any account from it', async () => {
    const ip = '198.51.100.9';
    for (let i = 0; i < 10; i++) {
      const res = await login({ email: `nobody${i}@test.local`, password: 'wrong-pass' }, ip);
      expect(res.statusCode).toBe(401);
    }
    const res = await login({ email: ADMIN.email, password: ADMIN.password }, ip);
    expect(res.statusCode).toBe(429);
    expect(res.headers['retry-after']).toBeDefined();
    expect(
      (await login({ email: ADMIN.email, password: ADMIN.password }, '198.51.100.10')).statusCode,
    ).toBe(200);
  });

  it('counts and decides in one step: 40 wrong passwords at once get 10 checks', async () => {
    const staff = await s.staff();
    const answers = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        login({ email: staff.email, password: `burst-${i}` }, '198.51.100.77'),
      ),
    );
    const statuses = answers.map((r) => r.statusCode);
    expect(statuses.filter((c) => c === 401)).toHaveLength(10);
    expect(statuses.filter((c) => c === 429)).toHaveLength(30);
  });

  it('lets the account in again once the window has passed', async () => {
    const staff = await s.staff();
    for (let i = 0; i < 10; i++) {
      await login({ email: staff.email, password: 'wrong-pass' }, `192.0.2.${100 + i}`);
    }
    expect(
      (await login({ email: staff.email, password: staff.password }, '192.0.2.105')).statusCode,
    ).toBe(429);
    const past = new Date(Date.now() - 16 * 60_000).toISOString();
    await s.ctx.db.updateTable('loginThrottle').set({ windowStart: past }).execute();
    expect(
      (await login({ email: staff.email, password: staff.password }, '192.0.2.105')).statusCode,
    ).toBe(200);
  });

  it('takes about as long for an unknown account as for a wrong password', async () => {
    const time = async (email: string, i: number) => {
      const start = performance.now();
      await login({ email, password: 'wrong-pass' }, `172.16.${i}.1`);
      return performance.now() - start;
    };
    const median = (xs: number[]) => xs.sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
    const known: number[] = [];
    const unknown: number[] = [];
    for (let i = 0; i < 7; i++) {
      known.push(await time(ADMIN.email, i));
      unknown.push(await time(`ghost${i}@test.local`, 100 + i));
    }
    const ratio = median(unknown) / median(known);
    expect(ratio).toBeGreaterThan(0.5);
    expect(ratio).toBeLessThan(2);
  });
});
