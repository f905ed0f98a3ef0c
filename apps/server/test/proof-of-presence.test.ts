/**
 * A stolen token must not become a stolen account (issue #31; API.md "Proof of presence for what a
 * stolen token must not do"). Each finding of the review is an attack here, made as the attacker
 * made it, that must now fail: with only a bearer token (a session that signed in long ago),
 * adding a passkey or an authenticator app, removing one, ending the owner's other sessions; code
 * guesses that locked the owner out; a lock that counted the typed identifier; an unthrottled
 * old-password check; device tokens that outlived a password change. Then what stands in their
 * place: proofs by password, code and passkey, the owner's and the operator's reset of factors.
 */
import { afterAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { API_BASE, MESSAGES, PATHS } from '@master-admin/contract';
import { startServer } from './harness.ts';
import { codeAt, deviceCookieOf, signInCalls, wrongCodes, type Call } from './second-factors.ts';
import { passkeyCeremonies } from './webauthn-authenticator.ts';

const s = await startServer();
afterAll(() => s.close());

const { freshAddress, post, login, verify, timePasses, staffWithTotp, challengeFor } = signInCalls(
  s,
  '198.19',
);
const { newAuthenticator, addPasskey, registerVerify } = passkeyCeremonies(s);

const reauth = (token: string, payload: object, call: Call = {}) =>
  post(PATHS.reauth, payload, {
    ...call,
    headers: { authorization: `Bearer ${token}`, ...call.headers },
  });

function expectProofAsked(res: LightMyRequestResponse) {
  expect(res.statusCode, res.body).toBe(403);
  expect(res.json()).toEqual({
    statusCode: 403,
    error: 'Forbidden',
    message: MESSAGES.reauthRequired,
    reauth: true,
  });
}

const factorsOf = async (token: string) =>
  (await s.api({ url: PATHS.myFactors, token })).json<{ totp: boolean; passkeys: number }>();

const cookie = (res: LightMyRequestResponse) => ({
  cookie: `device=${deviceCookieOf(res)!.value}`,
});

/** A token of `email` signed in through the full sign-in (second step included), and its device. */
async function signedIn(account: { email: string; password: string; secret?: string }) {
  const first = await login(account.email, account.password);
  expect(first.statusCode, first.body).toBe(200);
  const answer = account.secret
    ? await verify({
        challenge: first.json().challenge,
        method: 'totp',
        code: codeAt(account.secret),
      })
    : first;
  expect(answer.statusCode, answer.body).toBe(200);
  return { token: answer.json<{ token: string }>().token, device: cookie(answer) };
}

describe('a stolen token (its session proved itself long ago)', () => {
  it('cannot add a passkey, nor remove the owner’s, and nothing changes', async () => {
    const staff = await s.staff();
    const { id } = await addPasskey(staff.token);
    await s.staleProof(staff.token);

    expectProofAsked(
      await s.api({ method: 'POST', url: PATHS.passkeyRegisterOptions, token: staff.token }),
    );
    const attacker = newAuthenticator();
    const response = attacker.register({
      challenge: 'bm90LWEtY2hhbGxlbmdl',
      user: { id: Buffer.from(String(staff.id)).toString('base64url') },
    });
    expectProofAsked(await registerVerify(staff.token, { name: 'Mine now', response }));
    expectProofAsked(await s.api({ method: 'DELETE', url: PATHS.passkey(id), token: staff.token }));
    expect((await factorsOf(staff.token)).passkeys).toBe(1);
    // So the passkey the attacker could not add signs no one in.
    expect(await s.rowCount('passkeys')).toBe(1);
  });

  it('cannot add an authenticator app, make recovery codes, nor turn the owner’s off', async () => {
    const bare = await s.staff();
    await s.staleProof(bare.token);
    expectProofAsked(await s.api({ method: 'POST', url: PATHS.totp, token: bare.token }));
    expectProofAsked(
      await s.api({
        method: 'POST',
        url: PATHS.totpConfirm,
        token: bare.token,
        payload: { code: '123456' },
      }),
    );
    expect((await factorsOf(bare.token)).totp).toBe(false);

    const owner = await staffWithTotp();
    await s.staleProof(owner.token);
    expectProofAsked(await s.api({ method: 'POST', url: PATHS.recoveryCodes, token: owner.token }));
    // Not even one code guess: the proof comes first.
    expectProofAsked(
      await s.api({
        method: 'DELETE',
        url: PATHS.totp,
        token: owner.token,
        payload: { code: codeAt(owner.secret) },
      }),
    );
    expect((await factorsOf(owner.token)).totp).toBe(true);
    expect(await s.auditOf(owner.id, 'REAUTH_FAILED')).toHaveLength(0);
  });

  it('of the owner cannot end the owner’s other sessions through the staff screens either', async () => {
    const stolen = await s.tokenFor(s.adminId);
    const kept = await s.tokenFor(s.adminId);
    await s.staleProof(stolen);
    const listed = (await s.api({ url: PATHS.staffSessions(s.adminId), token: stolen })).json<{
      result: Array<{ id: number; current: boolean }>;
    }>().result;
    const others = listed.filter((row) => !row.current);
    expect(others.length).toBeGreaterThan(0);
    for (const row of others) {
      expectProofAsked(
        await s.api({
          method: 'DELETE',
          url: PATHS.staffSession(s.adminId, row.id),
          token: stolen,
        }),
      );
    }
    expect((await s.api({ url: PATHS.adminDetail, token: kept })).statusCode).toBe(200);
  });

  it('cannot end the owner’s other sessions; signing itself out needs no proof', async () => {
    const staff = await s.staff();
    const other = await s.login(staff.email, staff.password);
    await s.staleProof(staff.token);
    const sessions = (await s.api({ url: PATHS.mySessions, token: staff.token })).json<{
      result: Array<{ id: number; current: boolean }>;
    }>().result;
    const mine = sessions.find((row) => row.current)!;
    const theirs = sessions.find((row) => !row.current)!;
    expectProofAsked(await s.api({ method: 'DELETE', url: PATHS.mySessions, token: staff.token }));
    expectProofAsked(
      await s.api({ method: 'DELETE', url: PATHS.mySession(theirs.id), token: staff.token }),
    );
    expect((await s.api({ url: PATHS.adminDetail, token: other })).statusCode).toBe(200);
    const out = await s.api({
      method: 'DELETE',
      url: PATHS.mySession(mine.id),
      token: staff.token,
    });
    expect(out.statusCode, out.body).toBe(200);
    expect((await s.api({ url: PATHS.adminDetail, token: staff.token })).statusCode).toBe(401);
  });

  it('guessing codes locks out only the guesser: the owner’s known browser still gets in', async () => {
    const owner = await staffWithTotp();
    const { device } = await signedIn(owner);
    await timePasses(owner.id);
    const stolen = await s.tokenFor(owner.id);
    await s.staleProof(stolen);
    // From 105 addresses: ten guesses are checked, then every address is refused.
    const guesses = wrongCodes(owner.secret, 105);
    const answers: number[] = [];
    for (const code of guesses) {
      answers.push((await reauth(stolen, { method: 'totp', code })).statusCode);
    }
    expect(answers.filter((status) => status === 409)).toHaveLength(10);
    expect(answers.slice(10).every((status) => status === 429)).toBe(true);
    expect(await s.auditOf(owner.id, 'REAUTH_FAILED')).toHaveLength(10);

    // The owner, on the browser that signed in before: the second step, a code and a recovery
    // code, are checked on its own budget.
    const { challenge } = await challengeFor(owner.email, owner.password, { headers: device });
    const code = await verify(
      { challenge, method: 'totp', code: codeAt(owner.secret) },
      { headers: device },
    );
    expect(code.statusCode, code.body).toBe(200);
    const again = await challengeFor(owner.email, owner.password, { headers: device });
    const recovery = await verify(
      { challenge: again.challenge, method: 'recovery', code: owner.recoveryCodes[0]! },
      { headers: device },
    );
    expect(recovery.statusCode, recovery.body).toBe(200);
    // And proves on it too.
    await timePasses(owner.id);
    const proof = await reauth(
      recovery.json<{ token: string }>().token,
      { method: 'totp', code: codeAt(owner.secret) },
      { headers: device },
    );
    expect(proof.statusCode, proof.body).toBe(200);
  });
});

describe('proving who one is: POST auth/reauth', () => {
  it('by password opens the changes for REAUTH_WINDOW_SECONDS, this session only; audited', async () => {
    const staff = await s.staff();
    const elsewhere = await s.login(staff.email, staff.password);
    await s.staleProof(staff.token);
    await s.staleProof(elsewhere);
    const before = Date.now();
    const res = await reauth(staff.token, { password: staff.password });
    expect(res.statusCode, res.body).toBe(200);
    const { message, until } = res.json<{ message: string; until: string }>();
    expect(message).toBe(MESSAGES.reauthDone);
    const window = Date.parse(until) - before;
    expect(window).toBeGreaterThanOrEqual(299_000);
    expect(window).toBeLessThanOrEqual(301_000);
    await addPasskey(staff.token);
    // Another session of the same account proved nothing.
    expectProofAsked(await s.api({ method: 'POST', url: PATHS.totp, token: elsewhere }));
    const [entry] = await s.auditOf(staff.id, 'REAUTH');
    expect(entry).toMatchObject({ area: 'auth', rowId: staff.id });
    expect(JSON.parse(entry!.changes)).toEqual([{ field: 'method', old: null, new: 'password' }]);
  });

  it('by a code from the app, or a recovery code, which is then used up', async () => {
    const staff = await staffWithTotp();
    await s.staleProof(staff.token);
    const byApp = await reauth(staff.token, { method: 'totp', code: codeAt(staff.secret) });
    expect(byApp.statusCode, byApp.body).toBe(200);
    // The same code is not accepted twice.
    await s.staleProof(staff.token);
    const replay = await reauth(staff.token, { method: 'totp', code: codeAt(staff.secret) });
    expect(replay.statusCode).toBe(409);
    const byRecovery = await reauth(staff.token, {
      method: 'recovery',
      code: staff.recoveryCodes[1]!.toUpperCase(),
    });
    expect(byRecovery.statusCode, byRecovery.body).toBe(200);
    const factors = (await s.api({ url: PATHS.myFactors, token: staff.token })).json<{
      recoveryCodesLeft: number;
    }>();
    expect(factors.recoveryCodesLeft).toBe(9);
    expect(
      (await s.api({ method: 'POST', url: PATHS.recoveryCodes, token: staff.token })).statusCode,
    ).toBe(200);
  });

  it('by a passkey of the caller’s own; another account’s proves nothing', async () => {
    const staff = await s.staff();
    const other = await s.staff();
    const mine = await addPasskey(staff.token);
    const theirs = await addPasskey(other.token);
    await s.staleProof(staff.token);
    const options = async () => {
      const res = await s.api({
        method: 'POST',
        url: PATHS.reauthPasskeyOptions,
        token: staff.token,
      });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ challenge: string; allowCredentials: Array<{ id: string }> }>();
    };
    const first = await options();
    expect(first.allowCredentials.map((c) => c.id)).toEqual([mine.authenticator.id]);
    const refused = await reauth(staff.token, { response: theirs.authenticator.assert(first) });
    expect(refused.statusCode).toBe(409);
    expect(refused.json()).toMatchObject({
      message: MESSAGES.passkeyRefused,
      details: [{ path: 'response', message: MESSAGES.passkeyRefused }],
    });
    // Its challenge was used by the refusal.
    expect(
      (await reauth(staff.token, { response: mine.authenticator.assert(first) })).statusCode,
    ).toBe(409);
    const res = await reauth(staff.token, { response: mine.authenticator.assert(await options()) });
    expect(res.statusCode, res.body).toBe(200);
    expect(
      (await s.api({ method: 'DELETE', url: PATHS.passkey(mine.id), token: staff.token }))
        .statusCode,
    ).toBe(200);
    // No passkey left: nothing to prove with.
    const none = await s.api({
      method: 'POST',
      url: PATHS.reauthPasskeyOptions,
      token: staff.token,
    });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(MESSAGES.noPasskey);
  });

  it('refuses a wrong proof with 409 naming the field, audited, and nothing opens', async () => {
    const staff = await staffWithTotp();
    await s.staleProof(staff.token);
    const wrong = await reauth(staff.token, { password: 'not-the-password' });
    expect(wrong.statusCode).toBe(409);
    expect(wrong.json()).toMatchObject({
      message: MESSAGES.wrongPassword,
      details: [{ path: 'password', message: MESSAGES.wrongPassword }],
    });
    const code = await reauth(staff.token, { method: 'totp', code: wrongCodes(staff.secret)[0]! });
    expect(code.json()).toMatchObject({
      details: [{ path: 'code', message: MESSAGES.invalidCode }],
    });
    const failed = await s.auditOf(staff.id, 'REAUTH_FAILED');
    expect(failed.map((e) => JSON.parse(e.changes)[0].new)).toEqual(['password', 'totp']);
    expectProofAsked(await s.api({ method: 'POST', url: PATHS.recoveryCodes, token: staff.token }));
    // Still signed in: a refused proof ends no session.
    expect((await s.api({ url: PATHS.adminDetail, token: staff.token })).statusCode).toBe(200);
  });

  it('answers bad input with 400 naming the field, and proves nothing', async () => {
    const staff = await s.staff();
    await s.staleProof(staff.token);
    const cases: Array<[object | string, string]> = [
      [{}, 'password'],
      [{ password: '' }, 'password'],
      [{ password: staff.password, method: 'totp', code: '123456' }, 'method'],
      [{ method: 'totp' }, 'code'],
      [{ code: '123456' }, 'method'],
      [{ method: 'sms', code: '123456' }, 'method'],
      [{ password: staff.password, extra: 1 }, 'extra'],
      [{ response: 'not an object' }, 'response'],
      [{ password: 'a\u0000b' }, 'password'],
      ['response=%7B%7D', 'response'],
    ];
    for (const [payload, field] of cases) {
      const res = await s.api({
        method: 'POST',
        url: PATHS.reauth,
        token: staff.token,
        remoteAddress: freshAddress(),
        ...(typeof payload === 'string'
          ? { payload, headers: { 'content-type': 'application/x-www-form-urlencoded' } }
          : { payload }),
      });
      expect(res.statusCode, `${JSON.stringify(payload)}: ${res.body}`).toBe(400);
      expect(res.json<{ details: Array<{ path: string }> }>().details.map((d) => d.path)).toContain(
        field,
      );
    }
    expectProofAsked(await s.api({ method: 'POST', url: PATHS.totp, token: staff.token }));
    expect(await s.auditOf(staff.id, 'REAUTH')).toHaveLength(0);
    // A form body carries a password as well as JSON does.
    const form = await s.api({
      method: 'POST',
      url: PATHS.reauth,
      token: staff.token,
      payload: `password=${encodeURIComponent(staff.password)}`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(form.statusCode, form.body).toBe(200);
  });

  it('is throttled as sign-in: wrong passwords through a stolen token lock strangers out, not the owner', async () => {
    const owner = await s.staff();
    const { device } = await signedIn(owner);
    const stolen = await s.tokenFor(owner.id);
    const guessers = Array.from({ length: 10 }, () => freshAddress());
    for (const [i, remoteAddress] of guessers.entries()) {
      expect((await reauth(stolen, { password: `guess-${i}` }, { remoteAddress })).statusCode).toBe(
        409,
      );
    }
    // The same count as sign-in's: the password step is locked where guesses came from.
    const locked = await reauth(
      stolen,
      { password: owner.password },
      { remoteAddress: guessers[0] },
    );
    expect(locked.statusCode).toBe(429);
    expect(Number(locked.headers['retry-after'])).toBeGreaterThan(0);
    expect(
      (await login(owner.email, owner.password, { remoteAddress: guessers[1] })).statusCode,
    ).toBe(429);
    // The owner's browser, even from an address that guessed: its own budget.
    const home = await login(owner.email, owner.password, {
      remoteAddress: guessers[2],
      headers: device,
    });
    expect(home.statusCode, home.body).toBe(200);
    const proof = await reauth(
      home.json<{ token: string }>().token,
      { password: owner.password },
      { remoteAddress: guessers[3], headers: device },
    );
    expect(proof.statusCode, proof.body).toBe(200);
  });
});

describe('the counts behind every lock', () => {
  it('count the account, whether its email or its phone number is typed', async () => {
    const staff = await s.staff();
    const phone = `+1555${String(staff.id).padStart(7, '0')}`;
    await s.ctx.db
      .updateTable('accounts')
      .set({ phoneNumber: phone })
      .where('id', '=', staff.id)
      .execute();
    const guessers = Array.from({ length: 10 }, () => freshAddress());
    for (const [i, remoteAddress] of guessers.entries()) {
      const typed = i % 2 === 0 ? staff.email.toUpperCase() : phone;
      expect((await login(typed, `guess-${i}`, { remoteAddress })).statusCode).toBe(401);
    }
    // Locked under either name, for the addresses that guessed.
    for (const typed of [phone, staff.email]) {
      const res = await login(typed, staff.password, { remoteAddress: guessers[4] });
      expect(res.statusCode, typed).toBe(429);
    }
    // A clean address still has its password checked (the owner is not locked out).
    expect((await login(phone, staff.password)).statusCode).toBe(200);
  });

  it('throttle the old password of a password change as a sign-in; the right one is a proof', async () => {
    const staff = await s.staff();
    await s.staleProof(staff.token);
    const address = freshAddress();
    const change = (oldPassword: string, remoteAddress = address) =>
      post(
        PATHS.passReset,
        { oldPassword, newPassword: 'a fresh passphrase 7' },
        { remoteAddress, headers: { authorization: `Bearer ${staff.token}` } },
      );
    for (let i = 0; i < 10; i++) expect((await change(`guess-${i}`)).statusCode).toBe(409);
    const refused = await change(staff.password);
    expect(refused.statusCode).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(await s.auditOf(staff.id, 'REAUTH_FAILED')).toHaveLength(10);
    // From a clean address (the account's lock spares it), the right one changes the password,
    // and proves the session.
    const done = await change(staff.password, freshAddress());
    expect(done.statusCode, done.body).toBe(200);
    expect(deviceCookieOf(done)?.value).toMatch(new RegExp(`^${staff.id}\\.`));
    const add = await s.api({ method: 'POST', url: PATHS.totp, token: staff.token });
    expect(add.statusCode, add.body).toBe(200);
  });
});

describe('device tokens', () => {
  /** Ten failures for `email` from ten addresses: the account is locked for those. */
  async function lock(email: string) {
    const guessers = Array.from({ length: 10 }, () => freshAddress());
    for (const [i, remoteAddress] of guessers.entries()) {
      expect((await login(email, `guess-${i}`, { remoteAddress })).statusCode).toBe(401);
    }
    return guessers;
  }

  it('end with a password change, but for the browser that made it', async () => {
    const staff = await s.staff();
    const laptop = await signedIn(staff);
    const phone = await signedIn(staff);
    const changed = await post(
      PATHS.passReset,
      { oldPassword: staff.password, newPassword: 'a fresh passphrase 8' },
      { headers: { authorization: `Bearer ${phone.token}`, ...phone.device } },
    );
    expect(changed.statusCode, changed.body).toBe(200);
    const renewed = cookie(changed);
    // The same device, renewed: its nonce stays.
    expect(renewed.cookie.split('.')[1]).toBe(phone.device.cookie.split('.')[1]);
    const password = 'a fresh passphrase 8';
    const guessers = await lock(staff.email);
    const at = { remoteAddress: guessers[0] };
    expect((await login(staff.email, password, { ...at, headers: laptop.device })).statusCode).toBe(
      429,
    );
    expect((await login(staff.email, password, { ...at, headers: phone.device })).statusCode).toBe(
      429,
    );
    expect((await login(staff.email, password, { ...at, headers: renewed })).statusCode).toBe(200);
    const refused = await s.auditOf(staff.id, 'DEVICE_REFUSED');
    expect(JSON.parse(refused[0]!.changes)[0].new).toMatch(/ended by a password change/);

    // The owner setting a new password ends that one too (and lifts the lock: locked again here).
    const owner = await s.api({
      method: 'PATCH',
      url: PATHS.staffPassword(staff.id),
      token: s.adminToken,
      payload: { password: 'another fresh passphrase 9' },
    });
    expect(owner.statusCode, owner.body).toBe(200);
    const unlocked = await login(staff.email, 'another fresh passphrase 9', {
      remoteAddress: guessers[2],
    });
    expect(unlocked.statusCode).toBe(200);
    const again = await lock(staff.email);
    const next = await login(staff.email, 'another fresh passphrase 9', {
      remoteAddress: again[0],
      headers: renewed,
    });
    expect(next.statusCode).toBe(429);
  });

  it('stolen and guessed with, leave the owner’s own browser no worse off than any other', async () => {
    const owner = await s.staff();
    const { device } = await signedIn(owner);
    // Five wrong passwords spend the device's budget; the sixth counts on the account.
    for (let i = 0; i < 6; i++) {
      expect((await login(owner.email, `stolen-${i}`, { headers: device })).statusCode).toBe(401);
    }
    // The owner, with the same cookie, from a clean address: checked, and in.
    const res = await login(owner.email, owner.password, { headers: device });
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('the owner’s and the operator’s reset of a staff member’s factors', () => {
  it('removes the app and passkeys someone enrolled, ends every session, and needs the owner’s proof', async () => {
    const staff = await staffWithTotp();
    const { authenticator } = await addPasskey(staff.token);
    const owner = await s.tokenFor(s.adminId);
    await s.staleProof(owner);
    expectProofAsked(
      await s.api({ method: 'DELETE', url: PATHS.staffFactors(staff.id), token: owner }),
    );
    expect((await factorsOf(staff.token)).totp).toBe(true);

    expect((await reauth(owner, { password: 'admin-password-1' })).statusCode).toBe(200);
    const res = await s.api({ method: 'DELETE', url: PATHS.staffFactors(staff.id), token: owner });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.factorsReset,
      result: { id: staff.id, totp: true, passkeys: 1 },
    });
    expect((await s.api({ url: PATHS.adminDetail, token: staff.token })).statusCode).toBe(401);
    // The password alone signs in again; the passkey no longer does.
    const again = await login(staff.email, staff.password);
    expect(again.json()).toHaveProperty('token');
    const { signIn } = passkeyCeremonies(s);
    expect((await signIn(authenticator)).statusCode).toBe(401);
    const [entry] = await s.auditOf(s.adminId, 'FACTORS_RESET');
    expect(entry).toMatchObject({ area: 'staff', rowId: staff.id });
    // Nothing left to remove; not a staff account, or none at all: 404.
    const twice = await s.api({
      method: 'DELETE',
      url: PATHS.staffFactors(staff.id),
      token: owner,
    });
    expect(twice.json().result).toEqual({ id: staff.id, totp: false, passkeys: 0 });
    for (const id of [s.adminId, 999_999]) {
      const missing = await s.api({ method: 'DELETE', url: PATHS.staffFactors(id), token: owner });
      expect(missing.statusCode).toBe(404);
    }
    const staffCaller = await s.staff();
    expect(
      (
        await s.api({
          method: 'DELETE',
          url: PATHS.staffFactors(staff.id),
          token: staffCaller.token,
        })
      ).statusCode,
    ).toBe(403);
  });

  it('of a password, an email or a phone number needs the owner’s recent proof; a name does not', async () => {
    const staff = await s.staff();
    const owner = await s.tokenFor(s.adminId);
    await s.staleProof(owner);
    expectProofAsked(
      await s.api({
        method: 'PATCH',
        url: PATHS.staffPassword(staff.id),
        token: owner,
        payload: { password: 'a fresh passphrase 10' },
      }),
    );
    expectProofAsked(
      await s.api({
        method: 'PATCH',
        url: PATHS.staffUpdate(staff.id),
        token: owner,
        payload: { email: `new-${staff.email}` },
      }),
    );
    expectProofAsked(
      await s.api({
        method: 'PATCH',
        url: PATHS.staffUpdate(staff.id),
        token: owner,
        payload: { phoneNumber: '+15550001234' },
      }),
    );
    for (const payload of [{ name: 'Renamed' }, { email: staff.email }]) {
      const res = await s.api({
        method: 'PATCH',
        url: PATHS.staffUpdate(staff.id),
        token: owner,
        payload,
      });
      expect(res.statusCode, res.body).toBe(200);
    }
    expect(await login(staff.email, staff.password)).toMatchObject({ statusCode: 200 });
  });
});

describe('the routes that need a recent proof', () => {
  it('are exactly the ones that let someone keep or take an account, each refused without one', async () => {
    const needing = s.app.declaredRoutes
      .filter((r) => r.recentProof)
      .map((r) => `${r.method} ${r.url.slice(API_BASE.length)}`)
      .sort();
    expect(needing).toEqual(
      [
        'POST /auth/passkey/register/options',
        'POST /auth/passkey/register/verify',
        'DELETE /account/me/passkeys/:id',
        'POST /account/me/totp',
        'POST /account/me/totp/confirm',
        'DELETE /account/me/totp',
        'POST /account/me/recovery-codes',
        'DELETE /account/me/sessions',
        'PATCH /account/staff/password/:id',
        'DELETE /account/staff/:id/factors',
        'POST /account/add-staff',
        'PUT /account/security',
      ].sort(),
    );
    const owner = await s.tokenFor(s.adminId);
    await s.staleProof(owner);
    for (const route of needing) {
      const [method, url] = route.split(' ') as [string, string];
      const res = await s.api({
        method: method,
        url: url.replace(':id', '1'),
        token: owner,
      });
      expectProofAsked(res);
    }
    // And the document says so.
    const doc = (await s.app.inject({ url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, { description?: string }>>;
    }>();
    expect(doc.paths[`${API_BASE}/account/me/totp`]!.post!.description).toMatch(
      /Needs a recent proof of presence/,
    );
  });

  it('include new recovery codes, which replace the old ones', async () => {
    const staff = await staffWithTotp();
    const res = await s.api({ method: 'POST', url: PATHS.recoveryCodes, token: staff.token });
    expect(res.statusCode, res.body).toBe(200);
    const { message, recoveryCodes } = res.json<{ message: string; recoveryCodes: string[] }>();
    expect(message).toBe(MESSAGES.recoveryCodesRenewed);
    expect(recoveryCodes).toHaveLength(10);
    expect(recoveryCodes).not.toContain(staff.recoveryCodes[0]);
    const old = await challengeFor(staff.email, staff.password);
    const refused = await verify({
      challenge: old.challenge,
      method: 'recovery',
      code: staff.recoveryCodes[0]!,
    });
    expect(refused.statusCode).toBe(401);
    const fresh = await verify({
      challenge: old.challenge,
      method: 'recovery',
      code: recoveryCodes[0]!,
    });
    expect(fresh.statusCode, fresh.body).toBe(200);
    expect(await s.auditOf(staff.id, 'RECOVERY_CODES')).toHaveLength(1);
    const bare = await s.staff();
    const none = await s.api({ method: 'POST', url: PATHS.recoveryCodes, token: bare.token });
    expect(none.statusCode).toBe(409);
    expect(none.json().message).toBe(MESSAGES.totpNotOn);
  });
});
