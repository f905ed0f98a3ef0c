/**
 * Sign-in that stands up to the internet (issue #24; API.md "Second factors, passkeys, sessions,
 * device tokens"): the second step of a sign-in, TOTP enrolment, the owner's setting enforced on
 * every route, device tokens and their own failure budget, the security audit events, and the
 * strength rule on every new password. Codes come from `otpauth`, as an authenticator app's would.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { InjectOptions } from 'fastify';
import {
  API_BASE,
  MESSAGES,
  NO_CONTROL_CHARACTERS,
  PATHS,
  RECOVERY_CODE_COUNT,
} from '@master-admin/contract';
import { passwordStrength } from '@master-admin/contract/password-strength';
import { ADMIN, injectStreaming, newDatabase, sessionOf, startServer } from './harness.ts';
import { CHROME, codeAt, deviceCookieOf, signInCalls, wrongCodes } from './second-factors.ts';
import { startSession } from '../src/auth/sessions.ts';
import { signToken } from '../src/auth/tokens.ts';
import { deviceLabel } from '../src/auth/device.ts';
import { issueDeviceToken } from '../src/auth/device-token.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { createBackOfficeAccount, ensureFirstAdmin } from '../src/features/accounts/service.ts';
import type { DeclaredRoute } from '../src/http/access.ts';

const s = await startServer();
afterAll(() => s.close());

const { freshAddress, login, verify, timePasses, staffWithTotp, challengeFor } = signInCalls(s);

const me = (token: string) => s.api({ method: 'GET', url: PATHS.adminDetail, token });

/** A token of a new session of `accountId` that may only enrol a second factor. */
async function enrolmentOnlyToken(accountId: number) {
  const session = await startSession(s.ctx.db, {
    accountId,
    ip: '127.0.0.1',
    userAgent: 'test',
    ttlHours: 1,
    method: 'password',
    enrolmentOnly: true,
  });
  return signToken(s.ctx.secret, { sessionId: session.sessionId, accountId }, session.expiresAt);
}

describe('bad input to the new calls answers 400 naming the field', () => {
  const cases: Array<{ method: 'POST' | 'PUT' | 'DELETE'; url: string; signedIn: boolean }> = [
    { method: 'POST', url: PATHS.loginVerify, signedIn: false },
    { method: 'POST', url: PATHS.totpConfirm, signedIn: true },
    { method: 'DELETE', url: PATHS.totp, signedIn: true },
  ];
  const valid = (url: string) =>
    url === PATHS.loginVerify
      ? { challenge: 'c'.repeat(43), method: 'totp', code: '123456' }
      : { code: '123456' };

  it.each(cases)('$method $url', async ({ method, url, signedIn }) => {
    const staff = await s.staff();
    const send = (payload: unknown) =>
      s.api({
        method,
        url,
        payload: payload as object,
        remoteAddress: freshAddress(),
        ...(signedIn ? { token: staff.token } : {}),
      });
    const expect400 = async (payload: unknown, path: string, message?: string) => {
      const res = await send(payload);
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      const details = res.json<{ details: Array<{ path: string; message: string }> }>().details;
      expect(details.map((d) => d.path)).toContain(path);
      if (message) expect(details).toContainEqual({ path, message });
    };
    const base = valid(url);
    await expect400({ ...base, code: 123456 }, 'code');
    await expect400({ ...base, code: ['123456'] }, 'code');
    await expect400({ ...base, code: '12\u00003456' }, 'code', NO_CONTROL_CHARACTERS);
    await expect400({ ...base, code: '1'.repeat(65) }, 'code', 'Must be at most 64 characters');
    await expect400({ ...base, code: '   ' }, 'code', 'Required');
    await expect400({ ...base, extra: 1 }, 'extra', 'Unknown field');
    const { code: _code, ...withoutCode } = base;
    await expect400(withoutCode, 'code', 'Required');
    if (url === PATHS.loginVerify) {
      await expect400({ ...base, method: 'passkey' }, 'method', 'Must be totp or recovery');
      await expect400({ ...base, challenge: 'c'.repeat(129) }, 'challenge');
      await expect400({ ...base, challenge: 7 }, 'challenge');
    }
  });

  it('PUT account/security', async () => {
    for (const [payload, path] of [
      [{ requireSecondFactor: 'maybe' }, 'requireSecondFactor'],
      [{ requireSecondFactor: 2 }, 'requireSecondFactor'],
      [{}, 'requireSecondFactor'],
      [{ requireSecondFactor: true, other: 1 }, 'other'],
    ] as const) {
      const res = await s.api({ method: 'PUT', url: PATHS.security, token: s.adminToken, payload });
      expect(res.statusCode, res.body).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(path);
    }
    const settings = await s.api({ method: 'GET', url: PATHS.security, token: s.adminToken });
    expect(settings.json()).toEqual({ requireSecondFactor: false });
  });

  it('changes nothing', async () => {
    expect(await s.rowCount('totpFactors')).toBe(0);
    expect(await s.rowCount('recoveryCodes')).toBe(0);
  });
});

describe('TOTP enrolment', () => {
  it('hands out a secret and its otpauth URL, replaces a set-up not confirmed, and confirms with a code', async () => {
    const staff = await s.staff();
    const first = await s.api({ method: 'POST', url: PATHS.totp, token: staff.token });
    expect(first.statusCode).toBe(200);
    const { secret, otpauthUrl } = first.json<{ secret: string; otpauthUrl: string }>();
    expect(secret).toMatch(/^[A-Z2-7]{32}$/);
    const url = new URL(otpauthUrl);
    expect(url.protocol).toBe('otpauth:');
    expect(url.host).toBe('totp');
    expect(decodeURIComponent(url.pathname)).toBe(`/Master Admin:${staff.email}`);
    expect(url.searchParams.get('issuer')).toBe('Master Admin');
    expect(url.searchParams.get('secret')).toBe(secret);
    expect(url.searchParams.get('digits')).toBe('6');
    expect(url.searchParams.get('period')).toBe('30');

    // Not on yet: the password alone still signs in.
    expect((await login(staff.email, staff.password)).json()).toHaveProperty('token');

    const second = await s.api({ method: 'POST', url: PATHS.totp, token: staff.token });
    const replaced = second.json<{ secret: string }>().secret;
    expect(replaced).not.toBe(secret);
    const stale = await s.api({
      method: 'POST',
      url: PATHS.totpConfirm,
      token: staff.token,
      payload: { code: codeAt(secret) },
    });
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: MESSAGES.invalidCode,
      details: [{ path: 'code', message: MESSAGES.invalidCode }],
    });

    // Spaces and dashes in a code are ignored.
    const code = codeAt(replaced);
    const confirmed = await s.api({
      method: 'POST',
      url: PATHS.totpConfirm,
      token: staff.token,
      payload: { code: `${code.slice(0, 3)} -${code.slice(3)}` },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    const { message, recoveryCodes } = confirmed.json<{
      message: string;
      recoveryCodes: string[];
    }>();
    expect(message).toBe(MESSAGES.totpEnabled);
    expect(recoveryCodes).toHaveLength(RECOVERY_CODE_COUNT);
    expect(new Set(recoveryCodes).size).toBe(RECOVERY_CODE_COUNT);
    for (const c of recoveryCodes)
      expect(c).toMatch(/^[0-9a-hjkmnp-tv-z]{5}-[0-9a-hjkmnp-tv-z]{5}$/);

    // Stored as hashes only.
    const stored = await s.ctx.db
      .selectFrom('recoveryCodes')
      .select(['codeHash', 'usedAt'])
      .where('accountId', '=', staff.id)
      .execute();
    expect(stored).toHaveLength(RECOVERY_CODE_COUNT);
    for (const row of stored) {
      expect(row.codeHash).toMatch(/^[0-9a-f]{64}$/);
      expect(recoveryCodes.join()).not.toContain(row.codeHash);
      expect(row.usedAt).toBeNull();
    }

    const factors = await s.api({ method: 'GET', url: PATHS.myFactors, token: staff.token });
    expect(factors.json()).toEqual({
      totp: true,
      passkeys: 0,
      recoveryCodesLeft: RECOVERY_CODE_COUNT,
      enrolmentRequired: false,
    });

    const [added] = await s.auditOf(staff.id, 'FACTOR_ADDED');
    expect(added).toMatchObject({ area: 'auth', rowId: staff.id, ip: '127.0.0.1' });
    expect(JSON.parse(added!.changes)).toEqual([{ field: 'totp', old: false, new: true }]);
    expect(added!.changes).not.toContain(replaced);

    // On already: neither a new set-up nor a second confirmation.
    const again = await s.api({ method: 'POST', url: PATHS.totp, token: staff.token });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MESSAGES.totpAlreadyOn);
    const reconfirm = await s.api({
      method: 'POST',
      url: PATHS.totpConfirm,
      token: staff.token,
      payload: { code: codeAt(replaced) },
    });
    expect(reconfirm.statusCode).toBe(409);
    expect(reconfirm.json().message).toBe(MESSAGES.totpAlreadyOn);
  });

  it('refuses a confirmation that was not started, and a wrong code, with 409', async () => {
    const staff = await s.staff();
    const none = await s.api({
      method: 'POST',
      url: PATHS.totpConfirm,
      token: staff.token,
      payload: { code: '123456' },
    });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(MESSAGES.totpNotStarted);
    const { secret } = (
      await s.api({ method: 'POST', url: PATHS.totp, token: staff.token })
    ).json();
    for (const code of [...wrongCodes(secret), 'abcdef', codeAt(secret, 3), '1234567']) {
      const res = await s.api({
        method: 'POST',
        url: PATHS.totpConfirm,
        token: staff.token,
        payload: { code },
      });
      expect(res.statusCode, code).toBe(409);
      expect(res.json().details).toEqual([{ path: 'code', message: MESSAGES.invalidCode }]);
    }
    const factors = (
      await s.api({ method: 'GET', url: PATHS.myFactors, token: staff.token })
    ).json();
    expect(factors.totp).toBe(false);
  });

  it('turns off with a code: the app and the recovery codes go, the other sessions end', async () => {
    const staff = await staffWithTotp();
    const { challenge } = await challengeFor(staff.email, staff.password);
    const other = (await verify({ challenge, method: 'totp', code: codeAt(staff.secret) })).json()
      .token as string;
    expect((await me(other)).statusCode).toBe(200);

    const wrong = await s.api({
      method: 'DELETE',
      url: PATHS.totp,
      token: staff.token,
      payload: { code: wrongCodes(staff.secret)[0] },
    });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json().details).toEqual([{ path: 'code', message: MESSAGES.invalidCode }]);
    expect((await me(other)).statusCode).toBe(200);

    await timePasses(staff.id);
    const off = await s.api({
      method: 'DELETE',
      url: PATHS.totp,
      token: staff.token,
      payload: { code: codeAt(staff.secret) },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(off.json()).toEqual({ message: MESSAGES.totpDisabled });
    expect((await me(other)).statusCode).toBe(401);
    expect((await me(staff.token)).statusCode).toBe(200);
    expect(
      (await s.api({ method: 'GET', url: PATHS.myFactors, token: staff.token })).json(),
    ).toEqual({
      totp: false,
      passkeys: 0,
      recoveryCodesLeft: 0,
      enrolmentRequired: false,
    });
    expect(await s.auditOf(staff.id, 'FACTOR_REMOVED')).toHaveLength(1);
    // The password alone signs in again.
    expect((await login(staff.email, staff.password)).json()).toHaveProperty('token');
    const again = await s.api({
      method: 'DELETE',
      url: PATHS.totp,
      token: staff.token,
      payload: { code: codeAt(staff.secret) },
    });
    expect(again.statusCode).toBe(409);
    expect(again.json().message).toBe(MESSAGES.totpNotOn);
  });

  it('turns off with a recovery code too', async () => {
    const staff = await staffWithTotp();
    const off = await s.api({
      method: 'DELETE',
      url: PATHS.totp,
      token: staff.token,
      payload: { code: staff.recoveryCodes[4]!.toUpperCase() },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect(
      await s.ctx.db
        .selectFrom('recoveryCodes')
        .selectAll()
        .where('accountId', '=', staff.id)
        .execute(),
    ).toEqual([]);
  });
});

describe('the second step of a sign-in', () => {
  it('leaves an account without a factor as it was: a token, no challenge', async () => {
    const staff = await s.staff();
    const res = await login(staff.email, staff.password);
    expect(res.statusCode).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['loginId', 'token']);
  });

  it('answers a challenge and no token for the right password, then a token for the code', async () => {
    const staff = await staffWithTotp();
    const sessionsBefore = await s.rowCount('sessions');
    const first = await login(staff.email, staff.password);
    expect(first.statusCode).toBe(200);
    const body = first.json();
    expect(Object.keys(body).sort()).toEqual(['challenge', 'methods']);
    expect(body.methods).toEqual(['totp', 'recovery']);
    expect(deviceCookieOf(first)).toBeUndefined();
    expect(await s.rowCount('sessions')).toBe(sessionsBefore);
    const row = await s.ctx.db
      .selectFrom('authChallenges')
      .selectAll()
      .where('id', '=', body.challenge)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({ kind: 'login', accountId: staff.id, usedAt: null });
    const lifetime = Date.parse(String(row.expiresAt)) - Date.parse(String(row.createdAt));
    expect(lifetime).toBe(5 * 60_000);

    // A wrong password still answers as before.
    expect((await login(staff.email, 'not-the-password')).statusCode).toBe(401);

    const res = await verify({
      challenge: body.challenge,
      method: 'totp',
      code: codeAt(staff.secret),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(Object.keys(res.json()).sort()).toEqual(['loginId', 'token']);
    expect(res.json().loginId).toBe(staff.email);
    const token = res.json().token as string;
    expect((await me(token)).statusCode).toBe(200);
    const session = await s.ctx.db
      .selectFrom('sessions')
      .select(['signInMethod', 'enrolmentOnly'])
      .where('id', '=', sessionOf(token))
      .executeTakeFirstOrThrow();
    expect(session.signInMethod).toBe('totp');
    expect(Boolean(session.enrolmentOnly)).toBe(false);
    expect(deviceCookieOf(res)?.value).toMatch(new RegExp(`^${staff.id}\\.`));
    expect((await s.auditOf(staff.id, 'SIGN_IN')).at(-1)).toMatchObject({
      device: deviceLabel(CHROME),
    });
  });

  it('accepts a TOTP code once, and no older one after it', async () => {
    const staff = await staffWithTotp();
    const code = codeAt(staff.secret);
    const first = await challengeFor(staff.email, staff.password);
    expect((await verify({ challenge: first.challenge, method: 'totp', code })).statusCode).toBe(
      200,
    );

    const second = await challengeFor(staff.email, staff.password);
    const replayed = await verify({ challenge: second.challenge, method: 'totp', code });
    expect(replayed.statusCode).toBe(401);
    expect(replayed.json().message).toBe(MESSAGES.invalidCode);
    const older = await verify({
      challenge: second.challenge,
      method: 'totp',
      code: codeAt(staff.secret, -1),
    });
    expect(older.statusCode).toBe(401);
    // The next step's code (a phone 30 s ahead) is still good, and the challenge with it.
    const next = await verify({
      challenge: second.challenge,
      method: 'totp',
      code: codeAt(staff.secret, 1),
    });
    expect(next.statusCode, next.body).toBe(200);
    // Two steps away is too far.
    await timePasses(staff.id);
    const third = await challengeFor(staff.email, staff.password);
    for (const steps of [-3, 3]) {
      const res = await verify({
        challenge: third.challenge,
        method: 'totp',
        code: codeAt(staff.secret, steps),
      });
      expect(res.statusCode, String(steps)).toBe(401);
    }
  });

  it('accepts a recovery code once, however it is typed', async () => {
    const staff = await staffWithTotp();
    const [code] = staff.recoveryCodes;
    const typed = ` ${code!.toUpperCase().replace('-', ' ')} `;
    const first = await challengeFor(staff.email, staff.password);
    const ok = await verify({ challenge: first.challenge, method: 'recovery', code: typed });
    expect(ok.statusCode, ok.body).toBe(200);
    const session = await s.ctx.db
      .selectFrom('sessions')
      .select('signInMethod')
      .where('id', '=', sessionOf(ok.json().token))
      .executeTakeFirstOrThrow();
    expect(session.signInMethod).toBe('recovery');

    const second = await challengeFor(staff.email, staff.password);
    const reused = await verify({ challenge: second.challenge, method: 'recovery', code: code! });
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(MESSAGES.invalidCode);
    // A recovery code is not a TOTP code, nor the reverse.
    const crossed = await verify({
      challenge: second.challenge,
      method: 'totp',
      code: staff.recoveryCodes[1]!,
    });
    expect(crossed.statusCode).toBe(401);
    const factors = (
      await s.api({ method: 'GET', url: PATHS.myFactors, token: staff.token })
    ).json();
    expect(factors.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it('offers recovery only while unused codes are left', async () => {
    const staff = await staffWithTotp();
    await s.ctx.db
      .updateTable('recoveryCodes')
      .set({ usedAt: new Date().toISOString() })
      .where('accountId', '=', staff.id)
      .execute();
    expect((await challengeFor(staff.email, staff.password)).methods).toEqual(['totp']);
  });

  it('uses a challenge for one success only', async () => {
    const staff = await staffWithTotp();
    const { challenge } = await challengeFor(staff.email, staff.password);
    const ok = await verify({ challenge, method: 'recovery', code: staff.recoveryCodes[0]! });
    expect(ok.statusCode).toBe(200);
    const twice = await verify({ challenge, method: 'recovery', code: staff.recoveryCodes[1]! });
    expect(twice.statusCode).toBe(401);
    expect(twice.json().message).toBe(MESSAGES.challengeExpired);
    // The second code was not spent.
    const left = (await s.api({ method: 'GET', url: PATHS.myFactors, token: staff.token })).json();
    expect(left.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 1);
  });

  it('refuses an expired or unknown challenge', async () => {
    const staff = await staffWithTotp();
    const { challenge } = await challengeFor(staff.email, staff.password);
    await s.ctx.db
      .updateTable('authChallenges')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', challenge)
      .execute();
    const expired = await verify({ challenge, method: 'totp', code: codeAt(staff.secret) });
    expect(expired.statusCode).toBe(401);
    expect(expired.json()).toEqual({
      statusCode: 401,
      error: 'Unauthorized',
      message: MESSAGES.challengeExpired,
    });
    const unknown = await verify({ challenge: 'x'.repeat(43), method: 'totp', code: '123456' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(MESSAGES.challengeExpired);
    // The code was not spent by the expired challenge.
    const fresh = await challengeFor(staff.email, staff.password);
    expect(
      (await verify({ challenge: fresh.challenge, method: 'totp', code: codeAt(staff.secret) }))
        .statusCode,
    ).toBe(200);
  });

  it('lets one of two verifies at once win; the other spends nothing', async () => {
    const staff = await staffWithTotp();
    for (let round = 0; round < 3; round++) {
      const { challenge } = await challengeFor(staff.email, staff.password);
      const codes = staff.recoveryCodes.slice(round * 2, round * 2 + 2);
      const answers = await Promise.all(
        codes.map((code) => verify({ challenge, method: 'recovery', code })),
      );
      const statuses = answers.map((r) => r.statusCode).sort();
      expect(statuses).toEqual([200, 401]);
      expect(answers.find((r) => r.statusCode === 401)!.json().message).toBe(
        MESSAGES.challengeExpired,
      );
    }
    const left = (await s.api({ method: 'GET', url: PATHS.myFactors, token: staff.token })).json();
    expect(left.recoveryCodesLeft).toBe(RECOVERY_CODE_COUNT - 3);

    // The same TOTP code twice at once: one sign-in.
    await timePasses(staff.id);
    const a = await challengeFor(staff.email, staff.password);
    const b = await challengeFor(staff.email, staff.password);
    const code = codeAt(staff.secret);
    const both = await Promise.all([
      verify({ challenge: a.challenge, method: 'totp', code }),
      verify({ challenge: b.challenge, method: 'totp', code }),
    ]);
    expect(both.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('throttles codes as passwords: 429 with Retry-After, audited', async () => {
    const staff = await staffWithTotp();
    const { challenge } = await challengeFor(staff.email, staff.password);
    const guessers = Array.from({ length: 10 }, () => freshAddress());
    const guesses = wrongCodes(staff.secret, 10);
    for (const [i, remoteAddress] of guessers.entries()) {
      const res = await verify({ challenge, method: 'totp', code: guesses[i]! }, { remoteAddress });
      expect(res.statusCode, res.body).toBe(401);
      expect(res.json().message).toBe(MESSAGES.invalidCode);
    }
    expect(await s.auditOf(staff.id, 'SIGN_IN_FAILED')).toHaveLength(10);
    // Locked for the addresses that guessed, even with the right code.
    const locked = await verify(
      { challenge, method: 'totp', code: codeAt(staff.secret) },
      { remoteAddress: guessers[3] },
    );
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(locked.json().message).toBe(MESSAGES.tooManyAttempts);
    const [throttled] = await s.auditOf(staff.id, 'SIGN_IN_THROTTLED');
    expect(throttled).toMatchObject({ ip: guessers[3], device: deviceLabel(CHROME) });
    // The password's own count is apart: the password step still answers.
    expect(
      (await login(staff.email, staff.password, { remoteAddress: guessers[3] })).statusCode,
    ).toBe(200);
    // One address guessing codes is refused for everything once its attempts are spent.
    const other = await staffWithTotp();
    // The owner signed in on this browser before: it keeps a device token.
    const first = await challengeFor(other.email, other.password);
    const signedIn = await verify({
      challenge: first.challenge,
      method: 'totp',
      code: codeAt(other.secret),
    });
    expect(signedIn.statusCode, signedIn.body).toBe(200);
    await timePasses(other.id);
    const device = `device=${deviceCookieOf(signedIn)!.value}`;
    const one = freshAddress();
    const otherChallenge = await challengeFor(other.email, other.password);
    for (let i = 0; i < 10; i++) {
      await verify(
        { challenge: otherChallenge.challenge, method: 'recovery', code: `aaaaa-aaaa${i}` },
        { remoteAddress: one },
      );
    }
    const fromThere = await verify(
      { challenge: otherChallenge.challenge, method: 'totp', code: codeAt(other.secret) },
      { remoteAddress: one },
    );
    expect(fromThere.statusCode).toBe(429);
    // Codes have no exemption for a clean address (a guesser who has the password would get
    // one more guess from each of theirs): an unknown device elsewhere waits for the window too.
    const unknown = await verify({
      challenge: otherChallenge.challenge,
      method: 'totp',
      code: codeAt(other.secret),
    });
    expect(unknown.statusCode).toBe(429);
    // The owner's own browser tries on its own budget: checked, and in.
    const owner = await verify(
      { challenge: otherChallenge.challenge, method: 'totp', code: codeAt(other.secret) },
      { headers: { cookie: device } },
    );
    expect(owner.statusCode, owner.body).toBe(200);
  });

  it('refuses the second step of an account set DEACTIVE meanwhile', async () => {
    const staff = await staffWithTotp();
    const { challenge } = await challengeFor(staff.email, staff.password);
    await s.ctx.db
      .updateTable('accounts')
      .set({ status: 'DEACTIVE' })
      .where('id', '=', staff.id)
      .execute();
    const res = await verify({ challenge, method: 'totp', code: codeAt(staff.secret) });
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MESSAGES.accountNotActive);
  });
});

describe('the owner’s setting: a second factor required', () => {
  const setRequired = async (requireSecondFactor: boolean) => {
    const res = await s.api({
      method: 'PUT',
      url: PATHS.security,
      token: s.adminToken,
      payload: { requireSecondFactor },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.securityUpdated,
      result: { requireSecondFactor },
    });
  };
  const dashboard = (token: string) => s.api({ method: 'GET', url: PATHS.dashboard, token });

  it('is the owner’s alone', async () => {
    const staff = await s.staff();
    for (const [method, payload] of [
      ['GET', undefined],
      ['PUT', { requireSecondFactor: true }],
    ] as const) {
      const res = await s.api({ method, url: PATHS.security, token: staff.token, payload });
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.accessDenied);
    }
  });

  it('limits STAFF sessions without a factor to enrolment, new and live ones, and lifts them when off', async () => {
    const without = await s.staff({ dashboard: ['VIEW'] });
    const withTotp = await staffWithTotp();
    const adminToken = await s.tokenFor(s.adminId);
    expect((await dashboard(without.token)).statusCode).toBe(200);

    await setRequired(true);
    expect(
      (await s.api({ method: 'GET', url: PATHS.security, token: s.adminToken })).json(),
    ).toEqual({
      requireSecondFactor: true,
    });
    // Live sessions: limited from their next call.
    const refused = await dashboard(without.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: MESSAGES.secondFactorRequired,
    });
    expect((await me(without.token)).statusCode).toBe(200);
    expect(
      (await s.api({ method: 'GET', url: PATHS.myFactors, token: without.token })).json(),
    ).toMatchObject({
      totp: false,
      enrolmentRequired: true,
    });
    // An account with a factor, and the owner, are not limited.
    expect((await dashboard(withTotp.token)).statusCode).toBe(200);
    expect((await dashboard(adminToken)).statusCode).toBe(200);

    // A new sign-in by password alone: limited too.
    const fresh = (await login(without.email, without.password)).json().token as string;
    expect((await dashboard(fresh)).statusCode).toBe(403);
    await createBackOfficeAccount(s.ctx.db, {
      role: 'SUPER_ADMIN',
      email: 'second-owner@test.local',
      password: 'second-owner-pass-1',
    });
    const ownerToken = (await login('second-owner@test.local', 'second-owner-pass-1')).json().token;
    expect((await dashboard(ownerToken)).statusCode).toBe(200);

    // Enrolling lifts the limit of every session of the account at once.
    const { secret } = (await s.api({ method: 'POST', url: PATHS.totp, token: fresh })).json();
    const confirmed = await s.api({
      method: 'POST',
      url: PATHS.totpConfirm,
      token: fresh,
      payload: { code: codeAt(secret) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    expect((await dashboard(fresh)).statusCode).toBe(200);
    expect((await dashboard(without.token)).statusCode).toBe(200);

    // Removing the only factor while it is required: this session may only enrol again.
    await timePasses(without.id);
    const off = await s.api({
      method: 'DELETE',
      url: PATHS.totp,
      token: fresh,
      payload: { code: codeAt(secret) },
    });
    expect(off.statusCode, off.body).toBe(200);
    expect((await dashboard(fresh)).statusCode).toBe(403);

    await setRequired(false);
    expect((await dashboard(fresh)).statusCode).toBe(200);
    const after = (await login(without.email, without.password)).json().token as string;
    expect((await dashboard(after)).statusCode).toBe(200);

    const entries = await s.ctx.db
      .selectFrom('auditLog')
      .select(['action', 'area', 'rowId', 'changes', 'accountId'])
      .where('action', '=', 'SECURITY')
      .orderBy('id')
      .execute();
    expect(entries.map((e) => JSON.parse(e.changes))).toEqual([
      [{ field: 'requireSecondFactor', old: false, new: true }],
      [{ field: 'requireSecondFactor', old: true, new: false }],
    ]);
    expect(entries[0]).toMatchObject({ area: 'auth', rowId: null, accountId: s.adminId });
  });

  it('is enforced on every route: an enrolment-only session gets 403 but on its profile, enrolment and sign-out', async () => {
    const staff = await s.staff();
    const allowed = new Set(
      [
        ['GET', PATHS.adminDetail],
        ['GET', PATHS.myPermissions],
        ['GET', PATHS.myFactors],
        ['POST', PATHS.totp],
        ['POST', PATHS.totpConfirm],
        ['DELETE', PATHS.totp],
        ['POST', PATHS.logout],
        // Enrolling needs a recent proof (features/auth/reauth.ts).
        ['POST', PATHS.reauth],
        ['POST', PATHS.reauthPasskeyOptions],
        // Passkey enrolment (features/auth/passkeys.ts), where it is served.
        ['POST', PATHS.passkeyRegisterOptions],
        ['POST', PATHS.passkeyRegisterVerify],
        ['GET', PATHS.passkeys],
      ].map(([method, path]) => `${method} ${API_BASE}${path}`),
    );
    const routes: DeclaredRoute[] = s.app.declaredRoutes.filter((r) => r.access.kind !== 'public');
    expect(routes.length).toBeGreaterThan(100);
    const open = routes.filter((r) => r.enrolment).map((r) => `${r.method} ${r.url}`);
    for (const key of open) expect(allowed, key).toContain(key);
    for (const key of [
      'GET /account/admin-detail',
      'POST /auth/admin/logout',
      'POST /account/me/totp',
    ]) {
      expect(open).toContain(`${key.split(' ')[0]} ${API_BASE}${key.split(' ')[1]}`);
    }
    const problems: string[] = [];
    for (const route of routes) {
      const token = await enrolmentOnlyToken(staff.id);
      const options: InjectOptions = {
        method: route.method,
        url: route.url.replace(/:[^/]+/g, '1'),
        headers: { authorization: `Bearer ${token}` },
      };
      const res = route.streaming
        ? await injectStreaming(s.app, options)
        : await s.app.inject(options);
      const key = `${route.method} ${route.url}`;
      const limited =
        res.statusCode === 403 &&
        res.json<{ message: string }>().message === MESSAGES.secondFactorRequired;
      if (route.enrolment ? limited || res.statusCode === 401 : !limited) {
        problems.push(`${key}: ${res.statusCode} ${res.body.slice(0, 200)}`);
      }
    }
    expect(problems.join('\n')).toBe('');
    expect(routes.some((r) => r.url === `${API_BASE}/events` && !r.enrolment)).toBe(true);
  });
});

describe('device tokens', () => {
  it('are set by a successful sign-in: HttpOnly, SameSite=Strict, for the sign-in calls, Secure off loopback HTTP', async () => {
    const staff = await s.staff();
    const local = await login(staff.email, staff.password, { remoteAddress: '127.0.0.1' });
    const cookie = deviceCookieOf(local)!;
    expect(cookie.value).toMatch(
      new RegExp(`^${staff.id}\\.[A-Za-z0-9_-]{22}\\.[A-Za-z0-9_-]{43}$`),
    );
    expect(cookie.attributes).toEqual([
      `Max-Age=${180 * 24 * 3600}`,
      'Path=/api/v1/auth',
      'HttpOnly',
      'SameSite=Strict',
    ]);
    const remote = await login(staff.email, staff.password, {
      headers: { host: 'admin.example.com' },
    });
    expect(deviceCookieOf(remote)!.attributes).toContain('Secure');
    const byName = await login(staff.email, staff.password, {
      remoteAddress: '127.0.0.1',
      headers: { host: 'admin.example.com' },
    });
    expect(deviceCookieOf(byName)!.attributes).toContain('Secure');
    // Signing in again with it keeps the same device.
    const again = await login(staff.email, staff.password, {
      headers: { cookie: `theme=dark; device=${cookie.value}` },
    });
    expect(deviceCookieOf(again)!.value).toBe(cookie.value);
    // A failed sign-in sets none.
    expect(deviceCookieOf(await login(staff.email, 'wrong-password'))).toBeUndefined();
  });

  it('let the owner in while strangers keep the account locked; a stolen one buys only its budget', async () => {
    const owner = await s.staff();
    const home = await login(owner.email, owner.password);
    const device = deviceCookieOf(home)!.value;
    // 110 addresses fail: 10 lock the account, 100 more spend the budget of fresh addresses.
    for (let i = 0; i < 110; i++) {
      const res = await login(owner.email, `guess-${i}`);
      expect(res.statusCode, `guess ${i}`).toBe(401);
    }
    const unknown = await login(owner.email, owner.password);
    expect(unknown.statusCode).toBe(429);
    const known = await login(owner.email, owner.password, {
      headers: { cookie: `device=${device}` },
    });
    expect(known.statusCode, known.body).toBe(200);
    expect(known.json()).toHaveProperty('token');
    // The device's success does not lift the lock for the others.
    expect((await login(owner.email, owner.password)).statusCode).toBe(429);

    // Stolen: five guesses from anywhere spend the device's budget; then it counts as an unknown
    // device, which the locked account (its budget of clean addresses spent) refuses.
    for (let i = 0; i < 5; i++) {
      const res = await login(owner.email, `stolen-${i}`, {
        headers: { cookie: `device=${device}` },
      });
      expect(res.statusCode, `stolen ${i}`).toBe(401);
    }
    const spent = await login(owner.email, owner.password, {
      headers: { cookie: `device=${device}` },
    });
    expect(spent.statusCode).toBe(429);
    expect(Number(spent.headers['retry-after'])).toBeGreaterThan(0);
    expect((await s.auditOf(owner.id, 'SIGN_IN_THROTTLED')).length).toBeGreaterThanOrEqual(3);
  });

  it('are ignored, and audited, when forged or another account’s', async () => {
    const staff = await s.staff();
    const other = await s.staff();
    const mine = deviceCookieOf(await login(staff.email, staff.password))!.value;
    const theirs = deviceCookieOf(await login(other.email, other.password))!.value;
    const forged = `${mine.slice(0, -2)}${mine.endsWith('AA') ? 'BB' : 'AA'}`;
    const signedElsewhere = issueDeviceToken(new TextEncoder().encode('x'.repeat(40)), {
      id: staff.id,
      passwordHash: null,
    });

    for (const value of [forged, theirs, signedElsewhere, 'garbage']) {
      const res = await login(staff.email, staff.password, {
        remoteAddress: '203.0.113.77',
        headers: { cookie: `device=${value}` },
      });
      expect(res.statusCode, value).toBe(200);
      // A new device is handed out instead.
      expect(deviceCookieOf(res)!.value).not.toBe(value);
    }
    const refused = await s.auditOf(staff.id, 'DEVICE_REFUSED');
    expect(refused).toHaveLength(4);
    expect(refused[0]).toMatchObject({
      area: 'auth',
      rowId: staff.id,
      ip: '203.0.113.77',
      device: deviceLabel(CHROME),
    });
    expect(JSON.parse(refused[1]!.changes)).toEqual([
      { field: 'device', old: null, new: 'another account’s' },
    ]);

    // A forged token buys no budget: it is an unknown device for the throttle. From an address
    // that failed, the locked account refuses it, and lets the real device in.
    const failed = Array.from({ length: 10 }, () => freshAddress());
    for (const [i, remoteAddress] of failed.entries()) {
      expect((await login(other.email, `guess-${i}`, { remoteAddress })).statusCode).toBe(401);
    }
    const forgedForOther = await login(other.email, other.password, {
      remoteAddress: failed[0],
      headers: { cookie: `device=${theirs.slice(0, -2)}${theirs.endsWith('AA') ? 'BB' : 'AA'}` },
    });
    expect(forgedForOther.statusCode).toBe(429);
    const real = await login(other.email, other.password, {
      remoteAddress: failed[0],
      headers: { cookie: `device=${theirs}` },
    });
    expect(real.statusCode, real.body).toBe(200);

    // For an unknown email there is no account to name: nothing is written.
    const before = await s.rowCount('auditLog');
    await login('nobody@test.local', 'whatever-1', { headers: { cookie: `device=${forged}` } });
    expect(await s.rowCount('auditLog')).toBe(before);
  });
});

describe('security audit events', () => {
  it('records a wrong password of an existing account with its address and device, and commits it', async () => {
    const staff = await s.staff();
    const res = await login(staff.email, 'wrong-password', { remoteAddress: '192.0.2.44' });
    expect(res.statusCode).toBe(401);
    const [failed] = await s.auditOf(staff.id, 'SIGN_IN_FAILED');
    expect(failed).toMatchObject({
      area: 'auth',
      rowId: staff.id,
      accountId: staff.id,
      ip: '192.0.2.44',
      device: deviceLabel(CHROME),
    });
    expect(failed!.device).toMatch(/^Chrome 142/);
    const before = await s.rowCount('auditLog');
    expect((await login('ghost@test.local', 'wrong-password')).statusCode).toBe(401);
    expect(await s.rowCount('auditLog')).toBe(before);
  });

  it('records a sign-in refused by the throttle, for an existing account only', async () => {
    const staff = await s.staff();
    const ip = freshAddress();
    for (let i = 0; i < 10; i++) await login(staff.email, `wrong-${i}`, { remoteAddress: ip });
    const res = await login(staff.email, staff.password, { remoteAddress: ip });
    expect(res.statusCode).toBe(429);
    expect(await s.auditOf(staff.id, 'SIGN_IN_THROTTLED')).toMatchObject([{ ip }]);
    const before = await s.rowCount('auditLog');
    expect((await login('ghost@test.local', 'x-password', { remoteAddress: ip })).statusCode).toBe(
      429,
    );
    expect(await s.rowCount('auditLog')).toBe(before);
  });
});

describe('new passwords too easy to guess', () => {
  it('are refused on the caller’s own change, naming the field and the reason', async () => {
    const staff = await s.staff();
    const local = staff.email.split('@')[0]!;
    for (const [newPassword, reason] of [
      ['password123', /common/i],
      [`${local}!`, /name, email or phone/],
      ['aaaaaaaaaaaa', /Repeated/i],
      ['kV9-pL2x', /Too easy to guess/],
    ] as const) {
      const res = await s.api({
        method: 'POST',
        url: PATHS.passReset,
        token: staff.token,
        payload: { oldPassword: staff.password, newPassword },
      });
      expect(res.statusCode, newPassword).toBe(400);
      const body = res.json();
      expect(body.message).toBe(MESSAGES.weakPassword);
      expect(body.details).toHaveLength(1);
      expect(body.details[0].path).toBe('newPassword');
      expect(body.details[0].message).toMatch(reason);
    }
    expect((await login(staff.email, staff.password)).statusCode).toBe(200);
  });

  it('are refused when the owner creates staff or sets a staff password', async () => {
    const count = await s.rowCount('accounts');
    const created = await s.api({
      method: 'POST',
      url: PATHS.staffCreate,
      token: s.adminToken,
      payload: {
        name: 'Priya Raman',
        email: 'priya@test.local',
        phoneNumber: '9000000123',
        password: 'priyaraman',
        roles: 'Editor',
      },
    });
    expect(created.statusCode).toBe(400);
    expect(created.json().details).toEqual([
      { path: 'password', message: 'Must not be built from the account’s name, email or phone' },
    ]);
    expect(await s.rowCount('accounts')).toBe(count);

    const staff = await s.staff();
    const set = await s.api({
      method: 'PATCH',
      url: PATHS.staffPassword(staff.id),
      token: s.adminToken,
      payload: { password: 'qwertyuiop' },
    });
    expect(set.statusCode).toBe(400);
    expect(set.json().details[0].path).toBe('password');
    expect((await me(staff.token)).statusCode).toBe(200);
    const strong = await s.api({
      method: 'PATCH',
      url: PATHS.staffPassword(staff.id),
      token: s.adminToken,
      payload: { password: 'Quartz-Lamp-Violin-42' },
    });
    expect(strong.statusCode, strong.body).toBe(200);
  });

  it('stop a first start with a weak ADMIN_PASSWORD; a generated one passes the rule', async () => {
    const { handle, dispose } = await newDatabase();
    try {
      await migrateToLatest(handle);
      await expect(
        ensureFirstAdmin(handle.db, { email: 'owner@test.local', password: 'password1' }),
      ).rejects.toThrow(/ADMIN_PASSWORD: Too easy to guess/);
      const created = await ensureFirstAdmin(handle.db, { email: undefined, password: undefined });
      expect((await passwordStrength(created!.password!)).ok).toBe(true);
    } finally {
      await dispose();
    }
  });

  it('leave the fixtures’ passwords alone', async () => {
    expect((await passwordStrength(ADMIN.password, { email: ADMIN.email })).ok).toBe(true);
  });
});
