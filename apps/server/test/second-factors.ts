/**
 * What the tests of sign-in, second factors and proofs of presence share: a browser's user agent,
 * sign-in calls from addresses of their own, an authenticator app's codes (from `otpauth`, as the
 * app makes them), a staff account with one set up, and the device cookie an answer sets.
 */
import { expect } from 'vitest';
import { Secret, TOTP } from 'otpauth';
import type { LightMyRequestResponse } from 'fastify';
import { PATHS } from '@master-admin/contract';
import type { TestServer } from './harness.ts';

export const CHROME =
  'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) ' +
  'Chrome/142.0.0.0 Safari/537.36';

const totpOf = (secret: string) =>
  new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 });
/** The app's code `steps` periods of 30 s from now. */
export const codeAt = (secret: string, steps = 0) =>
  totpOf(secret).generate({ timestamp: Date.now() + steps * 30_000 });

/** `count` six-digit codes that are none of the app's codes around now. */
export function wrongCodes(secret: string, count = 1): string[] {
  const near = new Set([-2, -1, 0, 1, 2].map((steps) => codeAt(secret, steps)));
  const codes: string[] = [];
  for (let n = 100_000; codes.length < count; n++) if (!near.has(String(n))) codes.push(String(n));
  return codes;
}

/** The device cookie a sign-in's answer sets: its value and attributes. */
export function deviceCookieOf(res: LightMyRequestResponse) {
  const header = [res.headers['set-cookie'] ?? []].flat().find((c) => c.startsWith('device='));
  if (!header) return undefined;
  const [pair, ...attributes] = header.split('; ');
  return { value: pair!.slice('device='.length), attributes };
}

export type Call = { remoteAddress?: string; headers?: Record<string, string> };

/** Sign-in calls on `s`, each from an address of its own unless told (`first`: where to begin). */
export function signInCalls(s: TestServer, first = '198.18') {
  /** Each failing test signs in from addresses of its own: the address count is shared. */
  let addresses = 0;
  const freshAddress = () => {
    addresses += 1;
    return `${first}.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
  };

  const post = (url: string, payload: object, call: Call = {}) =>
    s.api({
      method: 'POST',
      url,
      payload,
      remoteAddress: call.remoteAddress ?? freshAddress(),
      headers: { 'user-agent': CHROME, ...call.headers },
    });
  const login = (email: string, password: string, call: Call = {}) =>
    post(PATHS.login, { email, password }, call);
  const verify = (payload: object, call: Call = {}) => post(PATHS.loginVerify, payload, call);

  /**
   * As if the codes accepted so far were from long ago (a code is accepted once, and a test signs
   * in more often than every 30 s): the next code of the window is accepted again.
   */
  const timePasses = (accountId: number) =>
    s.ctx.db
      .updateTable('totpFactors')
      .set({ lastStep: null })
      .where('accountId', '=', accountId)
      .execute();

  /** A staff account with an authenticator app on, its secret and its recovery codes. */
  async function staffWithTotp() {
    const staff = await s.staff({ dashboard: ['VIEW'] });
    const setup = await s.api({ method: 'POST', url: PATHS.totp, token: staff.token });
    expect(setup.statusCode, setup.body).toBe(200);
    const { secret } = setup.json<{ secret: string }>();
    const confirmed = await s.api({
      method: 'POST',
      url: PATHS.totpConfirm,
      token: staff.token,
      payload: { code: codeAt(secret) },
    });
    expect(confirmed.statusCode, confirmed.body).toBe(200);
    await timePasses(staff.id);
    return {
      ...staff,
      secret,
      recoveryCodes: confirmed.json<{ recoveryCodes: string[] }>().recoveryCodes,
    };
  }

  /** The challenge of a right password for an account with a second factor. */
  async function challengeFor(email: string, password: string, call: Call = {}) {
    const res = await login(email, password, call);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ challenge: string; methods: string[] }>();
    expect(body.challenge).toMatch(/^[A-Za-z0-9_-]{43}$/);
    return body;
  }

  return { freshAddress, post, login, verify, timePasses, staffWithTotp, challengeFor };
}
