/**
 * Passkeys (API.md "Second factors, passkeys, sessions, device tokens"), with a software
 * authenticator (webauthn-authenticator.ts) standing in for the browser: adding, listing,
 * renaming and removing one's own, signing in with one alone, and every way a ceremony's answer
 * is refused.
 */
import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES, PASSKEY_NAME_MAX, PATHS, NO_CONTROL_CHARACTERS } from '@master-admin/contract';
import { loadConfig } from '../src/config.ts';
import { startServer } from './harness.ts';
import {
  passkeyCeremonies,
  type Bend,
  type SoftwareAuthenticator,
} from './webauthn-authenticator.ts';

const s = await startServer();
afterAll(() => s.close());

const {
  rpId,
  nextAddress,
  newAuthenticator,
  registerOptions,
  registerVerify,
  addPasskey,
  loginOptions,
  loginVerify,
  signIn,
} = passkeyCeremonies(s);

const passkeysOf = async (token: string) =>
  (await s.api({ url: PATHS.passkeys, token })).json<{
    result: Array<{ id: number; name: string; createdAt: string; lastUsedAt: string | null }>;
  }>().result;

const expectRegistrationRefused = (res: { statusCode: number; json(): unknown }) => {
  expect(res.statusCode).toBe(400);
  expect(res.json()).toMatchObject({
    message: MESSAGES.passkeyRefused,
    details: [{ path: 'response', message: MESSAGES.passkeyRefused }],
  });
};
const expectSignInRefused = (res: { statusCode: number; json(): unknown }) => {
  expect(res.statusCode).toBe(401);
  expect(res.json()).toMatchObject({ message: MESSAGES.passkeyRefused });
};

describe('adding a passkey', () => {
  it('answers creation options for the caller: a one-use challenge, the caller’s user handle', async () => {
    const staff = await s.staff();
    const options = await registerOptions(staff.token);
    expect(options).toMatchObject({
      rp: { id: rpId, name: 'Master Admin' },
      user: { name: staff.email, id: Buffer.from(String(staff.id)).toString('base64url') },
      authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      excludeCredentials: [],
    });
    const stored = await s.ctx.db
      .selectFrom('authChallenges')
      .selectAll()
      .where('id', '=', options.challenge)
      .executeTakeFirstOrThrow();
    expect(stored).toMatchObject({ kind: 'passkey-register', accountId: staff.id, usedAt: null });
    expect(Date.parse(stored.expiresAt) - Date.parse(stored.createdAt)).toBe(5 * 60_000);
  });

  it('stores it, lists it, names it in the audit log, and excludes it from the next options', async () => {
    const staff = await s.staff();
    const authenticator = newAuthenticator();
    const options = await registerOptions(staff.token);
    const res = await registerVerify(staff.token, {
      name: '  Work laptop ',
      response: authenticator.register(options),
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      message: MESSAGES.passkeyAdded,
      result: { id: expect.any(Number), name: 'Work laptop', createdAt: expect.any(String) },
    });
    const row = await s.ctx.db
      .selectFrom('passkeys')
      .selectAll()
      .where('id', '=', body.result.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      accountId: staff.id,
      credentialId: authenticator.id,
      counter: 0,
      transports: 'internal',
    });
    expect(await passkeysOf(staff.token)).toEqual([
      {
        id: body.result.id,
        name: 'Work laptop',
        createdAt: body.result.createdAt,
        lastUsedAt: null,
      },
    ]);
    const [entry] = await s.auditOf(staff.id, 'FACTOR_ADDED');
    expect(entry).toMatchObject({ area: 'auth', rowId: staff.id });
    expect(JSON.parse(entry!.changes)).toEqual([
      { field: 'passkey', old: null, new: 'Work laptop' },
    ]);
    const next = await registerOptions(staff.token);
    expect(next).toMatchObject({
      excludeCredentials: [{ id: authenticator.id, type: 'public-key' }],
    });
  });

  it('lifts the account’s enrolment-only sessions', async () => {
    const staff = await s.staff();
    await s.ctx.db
      .updateTable('sessions')
      .set({ enrolmentOnly: true })
      .where('accountId', '=', staff.id)
      .execute();
    await addPasskey(staff.token);
    const limited = await s.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('accountId', '=', staff.id)
      .where('enrolmentOnly', '=', true)
      .execute();
    expect(limited).toEqual([]);
  });

  it('refuses the same authenticator twice (409), and a challenge used once already', async () => {
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    const again = await registerVerify(staff.token, {
      name: 'Again',
      response: authenticator.register(await registerOptions(staff.token)),
    });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      message: MESSAGES.passkeyTaken,
      details: [{ path: 'response', message: MESSAGES.passkeyTaken }],
    });

    const other = newAuthenticator();
    const response = other.register(await registerOptions(staff.token));
    expect((await registerVerify(staff.token, { name: 'One', response })).statusCode).toBe(200);
    expectRegistrationRefused(await registerVerify(staff.token, { name: 'Two', response }));
    expect(await passkeysOf(staff.token)).toHaveLength(2);
  });

  it('refuses an answer to a challenge not handed out, or handed to another account', async () => {
    const staff = await s.staff();
    const other = await s.staff();
    const authenticator = newAuthenticator();
    const forged = { challenge: Buffer.from('made up').toString('base64url'), user: { id: 'x' } };
    expectRegistrationRefused(
      await registerVerify(staff.token, { name: 'A', response: authenticator.register(forged) }),
    );
    const othersOptions = await registerOptions(other.token);
    expectRegistrationRefused(
      await registerVerify(staff.token, {
        name: 'A',
        response: authenticator.register(othersOptions),
      }),
    );
    // Its challenge was not spent by the refusal: the account it was for can still use it.
    const res = await registerVerify(other.token, {
      name: 'Mine',
      response: authenticator.register(othersOptions),
    });
    expect(res.statusCode, res.body).toBe(200);
    // A sign-in challenge is not a registration one.
    const signInChallenge = await loginOptions();
    expectRegistrationRefused(
      await registerVerify(staff.token, {
        name: 'A',
        response: newAuthenticator().register({ ...signInChallenge, user: { id: 'x' } }),
      }),
    );
  });

  it('refuses another origin, another RP id, an expired challenge, and no user verification', async () => {
    const staff = await s.staff();
    const bends: Array<[string, Bend]> = [
      ['origin', { origin: 'https://evil.example' }],
      ['RP id', { rpId: 'evil.example' }],
      ['type', { type: 'webauthn.get' }],
      ['user not verified', { flags: 0x01 | 0x40 }],
    ];
    for (const [label, bend] of bends) {
      const options = await registerOptions(staff.token);
      const res = await registerVerify(staff.token, {
        name: label,
        response: newAuthenticator().register(options, bend),
      });
      expect(res.statusCode, label).toBe(400);
      expectRegistrationRefused(res);
    }
    const options = await registerOptions(staff.token);
    await s.ctx.db
      .updateTable('authChallenges')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', options.challenge)
      .execute();
    expectRegistrationRefused(
      await registerVerify(staff.token, {
        name: 'Late',
        response: newAuthenticator().register(options),
      }),
    );
    expect(await passkeysOf(staff.token)).toEqual([]);
    expect(await s.auditOf(staff.id, 'FACTOR_ADDED')).toEqual([]);
  });

  it('needs a signed-in caller', async () => {
    expect((await s.api({ method: 'POST', url: PATHS.passkeyRegisterOptions })).statusCode).toBe(
      401,
    );
    expect((await registerVerify('not-a-token', { name: 'A', response: {} })).statusCode).toBe(401);
  });
});

describe('signing in with a passkey alone', () => {
  it('answers a token that works, records login history IN and the audit entry, and notes the use', async () => {
    const staff = await s.staff();
    const { authenticator, id } = await addPasskey(staff.token);
    const options = await loginOptions();
    expect(options).toMatchObject({ rpId, userVerification: 'required', allowCredentials: [] });
    const res = await loginVerify(authenticator.assert(options), '203.0.113.9');
    expect(res.statusCode, res.body).toBe(200);
    const { token, loginId } = res.json<{ token: string; loginId: string }>();
    expect(loginId).toBe(staff.email);
    const me = await s.api({ url: PATHS.adminDetail, token });
    expect(me.statusCode).toBe(200);
    expect(me.json().id).toBe(staff.id);

    const history = await s.ctx.db
      .selectFrom('loginHistory')
      .selectAll()
      .where('accountId', '=', staff.id)
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(history).toMatchObject({ status: 'IN', ip: '203.0.113.9' });
    const signIns = await s.auditOf(staff.id, 'SIGN_IN');
    expect(signIns.at(-1)).toMatchObject({
      area: 'auth',
      rowId: staff.id,
      ip: '203.0.113.9',
      device: 'Firefox 140 on macOS',
    });
    const session = await s.ctx.db
      .selectFrom('sessions')
      .select(['signInMethod'])
      .where('accountId', '=', staff.id)
      .orderBy('createdAt', 'desc')
      .executeTakeFirstOrThrow();
    expect(session.signInMethod).toBe('passkey');
    const passkey = await s.ctx.db
      .selectFrom('passkeys')
      .select(['counter', 'lastUsedAt'])
      .where('id', '=', id)
      .executeTakeFirstOrThrow();
    expect(passkey.counter).toBe(1);
    expect(passkey.lastUsedAt).not.toBeNull();
    expect((await passkeysOf(staff.token))[0]!.lastUsedAt).toBe(passkey.lastUsedAt);
  });

  it('answers the same options whether or not the email names an account', async () => {
    const staff = await s.staff();
    await addPasskey(staff.token);
    const known = await loginOptions({ email: staff.email.toUpperCase() });
    const unknown = await loginOptions({ email: 'nobody@test.local' });
    const shape = (o: object) => ({ ...o, challenge: 'x' });
    expect(shape(known)).toEqual(shape(unknown));
    expect(known.allowCredentials).toEqual([]);
  });

  it('with an email, accepts only a passkey of that account', async () => {
    const staff = await s.staff();
    const other = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    expectSignInRefused(await signIn(authenticator, { email: other.email }));
    const res = await signIn(authenticator, { email: staff.email });
    expect(res.statusCode, res.body).toBe(200);
    // An email of no account binds to none: the passkey names its account.
    expect((await signIn(authenticator, { email: 'nobody@test.local' })).statusCode).toBe(200);
  });

  it('refuses a challenge not handed out, used already, expired, or a registration one', async () => {
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    expectSignInRefused(
      await loginVerify(
        authenticator.assert({ challenge: Buffer.from('nope').toString('base64url') }),
      ),
    );
    const options = await loginOptions();
    const response = authenticator.assert(options);
    expect((await loginVerify(response)).statusCode).toBe(200);
    expectSignInRefused(await loginVerify(response));

    const late = await loginOptions();
    await s.ctx.db
      .updateTable('authChallenges')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', late.challenge)
      .execute();
    expectSignInRefused(await loginVerify(authenticator.assert(late)));

    const registration = await registerOptions(staff.token);
    expectSignInRefused(await loginVerify(authenticator.assert(registration)));
  });

  it('refuses another origin, another RP id, a wrong type, no user verification, a bad signature', async () => {
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    const bends: Array<[string, Bend]> = [
      ['origin', { origin: 'https://evil.example' }],
      ['RP id', { rpId: 'evil.example' }],
      ['type', { type: 'webauthn.create' }],
      ['user not verified', { flags: 0x01 }],
    ];
    for (const [label, bend] of bends) {
      const res = await signIn(authenticator, { bend });
      expect(res.statusCode, label).toBe(401);
      expectSignInRefused(res);
    }
    const options = await loginOptions();
    const response = authenticator.assert(options);
    const tampered = {
      ...response,
      response: {
        ...response.response,
        signature: newAuthenticator().assert(options).response.signature,
      },
    };
    expectSignInRefused(await loginVerify(tampered));
  });

  it('refuses a signature counter that goes backwards (a cloned authenticator)', async () => {
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    expect((await signIn(authenticator, { bend: { counter: 5 } })).statusCode).toBe(200);
    expectSignInRefused(await signIn(authenticator, { bend: { counter: 5 } }));
    expectSignInRefused(await signIn(authenticator, { bend: { counter: 3 } }));
    expect((await signIn(authenticator, { bend: { counter: 6 } })).statusCode).toBe(200);
  });

  it('refuses a passkey it does not know, and one whose user handle names another account', async () => {
    expectSignInRefused(await signIn(newAuthenticator()));
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    authenticator.userHandle = Buffer.from(String(s.adminId)).toString('base64url');
    expectSignInRefused(await signIn(authenticator));
  });

  it('refuses an account that is not active (401 saying so), and one deleted as unknown', async () => {
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    await s.ctx.db
      .updateTable('accounts')
      .set({ status: 'SUSPENDED' })
      .where('id', '=', staff.id)
      .execute();
    const res = await signIn(authenticator);
    expect(res.statusCode).toBe(401);
    expect(res.json().message).toBe(MESSAGES.accountNotActive);
    await s.ctx.db
      .updateTable('accounts')
      .set({ status: 'DELETED' })
      .where('id', '=', staff.id)
      .execute();
    expectSignInRefused(await signIn(authenticator));
  });

  it('throttles a flood of bad answers from one address (429), and lets the owner in elsewhere', async () => {
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    const address = '198.51.100.20';
    const max = s.config.login.maxFailures;
    for (let i = 0; i < max; i++) {
      const bad = await signIn(authenticator, {
        remoteAddress: address,
        bend: { rpId: 'evil.example', counter: 100 + i },
      });
      expectSignInRefused(bad);
    }
    const refused = await signIn(authenticator, { remoteAddress: address });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().message).toBe(MESSAGES.tooManyAttempts);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    // The passkey's failures lock it only for addresses that failed: its owner still gets in.
    expect((await signIn(authenticator)).statusCode).toBe(200);
  });

  it('gives back the address’s place on success', async () => {
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    const address = '198.51.100.21';
    for (let i = 0; i < s.config.login.maxFailures + 3; i++) {
      const res = await signIn(authenticator, { remoteAddress: address });
      expect(res.statusCode, `sign-in ${i + 1}`).toBe(200);
    }
  });
});

describe('renaming and removing passkeys', () => {
  it('renames one’s own (audited), and answers 404 for another account’s', async () => {
    const staff = await s.staff();
    const other = await s.staff();
    const { id } = await addPasskey(staff.token, 'Old name');
    const res = await s.api({
      method: 'PATCH',
      url: PATHS.passkey(id),
      token: staff.token,
      payload: { name: 'Phone' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.passkeyRenamed,
      result: { id, name: 'Phone', createdAt: expect.any(String), lastUsedAt: null },
    });
    expect((await passkeysOf(staff.token)).map((p) => p.name)).toEqual(['Phone']);
    const [entry] = await s.auditOf(staff.id, 'UPDATE');
    expect(JSON.parse(entry!.changes)).toEqual([
      { field: 'passkey', old: 'Old name', new: 'Phone' },
    ]);

    for (const method of ['PATCH', 'DELETE'] as const) {
      const foreign = await s.api({
        method,
        url: PATHS.passkey(id),
        token: other.token,
        ...(method === 'PATCH' ? { payload: { name: 'Mine now' } } : {}),
      });
      expect(foreign.statusCode, method).toBe(404);
      expect(foreign.json().message).toBe(MESSAGES.passkeyNotFound);
    }
    expect((await passkeysOf(staff.token)).map((p) => p.name)).toEqual(['Phone']);
  });

  it('removes one: it no longer signs in, the caller’s other sessions end, this one goes on', async () => {
    const staff = await s.staff();
    const { authenticator, id } = await addPasskey(staff.token);
    const viaPasskey = (await signIn(authenticator)).json().token as string;
    const other = await s.tokenFor(staff.id);
    const res = await s.api({ method: 'DELETE', url: PATHS.passkey(id), token: staff.token });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.passkeyRemoved, result: { id } });
    expect(await passkeysOf(staff.token)).toEqual([]);
    for (const token of [viaPasskey, other]) {
      expect((await s.api({ url: PATHS.adminDetail, token })).statusCode).toBe(401);
    }
    expect((await s.api({ url: PATHS.adminDetail, token: staff.token })).statusCode).toBe(200);
    expectSignInRefused(await signIn(authenticator));
    const [entry] = await s.auditOf(staff.id, 'FACTOR_REMOVED');
    expect(entry).toMatchObject({ area: 'auth', rowId: staff.id });
    expect(JSON.parse(entry!.changes)).toEqual([{ field: 'passkey', old: 'Laptop', new: null }]);
    const again = await s.api({ method: 'DELETE', url: PATHS.passkey(id), token: staff.token });
    expect(again.statusCode).toBe(404);
  });

  it('takes no If-Match (a passkey has no version)', async () => {
    const staff = await s.staff();
    const { id } = await addPasskey(staff.token);
    const res = await s.api({
      method: 'PATCH',
      url: PATHS.passkey(id),
      token: staff.token,
      headers: { 'if-match': '"1"' },
      payload: { name: 'X' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'If-Match', message: expect.any(String) }]);
  });
});

describe('bad input: 400 naming the field, never a crash', () => {
  const garbageResponses: Array<[string, unknown]> = [
    ['not an object', 'abc'],
    ['no response', { id: 'a', rawId: 'a', type: 'public-key' }],
    ['wrong type', { id: 'a', rawId: 'a', type: 'password', response: { clientDataJSON: 'a' } }],
    [
      'a number for the id',
      { id: 1, rawId: 'a', type: 'public-key', response: { clientDataJSON: 'a' } },
    ],
    [
      'an overlong id',
      { id: 'a'.repeat(1401), rawId: 'a', type: 'public-key', response: { clientDataJSON: 'a' } },
    ],
  ];

  it('in a registration', async () => {
    const staff = await s.staff();
    const authenticator = newAuthenticator();
    const good = () => registerOptions(staff.token).then((o) => authenticator.register(o));
    const cases: Array<[string, unknown, string]> = [
      ['an unknown key', { name: 'A', response: await good(), extra: 1 }, 'extra'],
      ['no name', { response: await good() }, 'name'],
      ['a blank name', { name: '   ', response: await good() }, 'name'],
      ['a number for the name', { name: 5, response: await good() }, 'name'],
      [
        'an overlong name',
        { name: 'a'.repeat(PASSKEY_NAME_MAX + 1), response: await good() },
        'name',
      ],
      ['a control character', { name: 'A\u0000B', response: await good() }, 'name'],
      ...garbageResponses.map(([label, response]): [string, unknown, string] => [
        label,
        { name: 'A', response },
        'response',
      ]),
    ];
    for (const [label, payload, field] of cases) {
      const res = await registerVerify(staff.token, payload);
      expect(res.statusCode, label).toBe(400);
      expect(
        res.json().details.map((d: { path: string }) => d.path.split('.')[0]),
        label,
      ).toContain(field);
    }
    const tooLong = await registerVerify(staff.token, {
      name: 'a'.repeat(101),
      response: await good(),
    });
    expect(tooLong.json().details).toEqual([
      { path: 'name', message: `Must be at most ${PASSKEY_NAME_MAX} characters` },
    ]);
    const control = await registerVerify(staff.token, { name: 'A\u0007', response: await good() });
    expect(control.json().details).toEqual([{ path: 'name', message: NO_CONTROL_CHARACTERS }]);
  });

  it('a response that is the right shape but garbage inside: 400 (registration) or 401 (sign-in)', async () => {
    const staff = await s.staff();
    type Registration = ReturnType<SoftwareAuthenticator['register']>;
    const insides: Array<(r: Registration) => unknown> = [
      (r) => ({ ...r, response: { clientDataJSON: 'not base64 json!' } }),
      (r) => ({ ...r, response: { clientDataJSON: Buffer.from('[1,2]').toString('base64url') } }),
      (r) => ({ ...r, response: { clientDataJSON: Buffer.from('null').toString('base64url') } }),
      (r) => ({ ...r, response: { ...r.response, attestationObject: 'AAAA' } }),
      (r) => ({ ...r, response: { ...r.response, attestationObject: 5 } }),
      (r) => ({ ...r, response: { ...r.response, attestationObject: undefined } }),
    ];
    for (const [i, bend] of insides.entries()) {
      const fresh = newAuthenticator().register(await registerOptions(staff.token));
      const res = await registerVerify(staff.token, { name: 'A', response: bend(fresh) });
      expect(res.statusCode, `registration ${i}: ${res.body}`).toBe(400);
      expect(res.json().details, `registration ${i}`).toEqual([
        { path: 'response', message: MESSAGES.passkeyRefused },
      ]);
    }
    const { authenticator } = await addPasskey(staff.token);
    const assertion = authenticator.assert(await loginOptions());
    const signIns: unknown[] = [
      { ...assertion, response: { clientDataJSON: 'garbage' } },
      { ...assertion, response: { ...assertion.response, authenticatorData: '' } },
      { ...assertion, response: { ...assertion.response, signature: 7 } },
      { ...assertion, response: { ...assertion.response, userHandle: 7 } },
    ];
    for (const [i, response] of signIns.entries()) {
      const res = await loginVerify(response);
      expect(res.statusCode, `sign-in ${i}: ${res.body}`).toBe(401);
    }
  });

  it('in a sign-in and its options', async () => {
    const cases: Array<[string, string, unknown, string]> = [
      ['options: an unknown key', PATHS.passkeyLoginOptions, { extra: 1 }, 'extra'],
      ['options: a number for the email', PATHS.passkeyLoginOptions, { email: 5 }, 'email'],
      [
        'options: an overlong email',
        PATHS.passkeyLoginOptions,
        { email: `${'a'.repeat(250)}@x.io` },
        'email',
      ],
      [
        'options: a control character',
        PATHS.passkeyLoginOptions,
        { email: 'a\u0000@x.io' },
        'email',
      ],
      [
        'verify: an unknown key',
        PATHS.passkeyLoginVerify,
        {
          response: { id: 'a', rawId: 'a', type: 'public-key', response: { clientDataJSON: 'a' } },
          extra: 1,
        },
        'extra',
      ],
      ['verify: no response', PATHS.passkeyLoginVerify, {}, 'response'],
      ...garbageResponses.map(([label, response]): [string, string, unknown, string] => [
        `verify: ${label}`,
        PATHS.passkeyLoginVerify,
        { response },
        'response',
      ]),
    ];
    for (const [label, url, payload, field] of cases) {
      const res = await s.api({
        method: 'POST',
        url,
        payload: payload as object,
        remoteAddress: nextAddress(),
      });
      expect(res.statusCode, label).toBe(400);
      expect(
        res.json().details.map((d: { path: string }) => d.path.split('.')[0]),
        label,
      ).toContain(field);
    }
  });

  it('in a rename and a removal', async () => {
    const staff = await s.staff();
    const { id } = await addPasskey(staff.token);
    const renames: Array<[string, unknown, string]> = [
      ['an unknown key', { name: 'A', extra: 1 }, 'extra'],
      ['no name', {}, 'name'],
      ['an overlong name', { name: 'a'.repeat(PASSKEY_NAME_MAX + 1) }, 'name'],
      ['a control character', { name: 'A\u001bB' }, 'name'],
      ['an object', { name: { a: 1 } }, 'name'],
    ];
    for (const [label, payload, field] of renames) {
      const res = await s.api({
        method: 'PATCH',
        url: PATHS.passkey(id),
        token: staff.token,
        payload: payload as object,
      });
      expect(res.statusCode, label).toBe(400);
      expect(
        res.json().details.map((d: { path: string }) => d.path),
        label,
      ).toContain(field);
    }
    for (const bad of ['0', 'abc', '01', '1.5']) {
      for (const method of ['PATCH', 'DELETE'] as const) {
        const res = await s.api({
          method,
          url: PATHS.passkey(bad),
          token: staff.token,
          ...(method === 'PATCH' ? { payload: { name: 'A' } } : {}),
        });
        expect(res.statusCode, `${method} ${bad}`).toBe(400);
        expect(res.json().details[0].path).toBe('id');
      }
    }
    expect((await passkeysOf(staff.token)).map((p) => p.name)).toEqual(['Laptop']);
  });
});

describe('configuration', () => {
  const base = { DATA_DIR: '/tmp/unused' };
  it('defaults to the address npm start prints', () => {
    expect(loadConfig({ ...base, PORT: '4100' }).webauthn).toEqual({
      rpId: 'localhost',
      rpName: 'Master Admin',
      origins: ['http://localhost:4100'],
    });
  });

  it('takes a list of origins, and an RP id alone means its HTTPS site', () => {
    expect(
      loadConfig({
        ...base,
        WEBAUTHN_RP_ID: 'Example.com',
        WEBAUTHN_ORIGIN: 'https://admin.example.com, https://example.com:8443/',
        WEBAUTHN_RP_NAME: 'Acme Admin',
      }).webauthn,
    ).toEqual({
      rpId: 'example.com',
      rpName: 'Acme Admin',
      origins: ['https://admin.example.com', 'https://example.com:8443'],
    });
    expect(loadConfig({ ...base, WEBAUTHN_RP_ID: 'admin.example.com' }).webauthn.origins).toEqual([
      'https://admin.example.com',
    ]);
  });

  it('refuses an origin off the RP id, a path, or an RP id with a scheme, naming the variable', () => {
    expect(() =>
      loadConfig({ ...base, WEBAUTHN_RP_ID: 'example.com', WEBAUTHN_ORIGIN: 'https://other.com' }),
    ).toThrow(/WEBAUTHN_ORIGIN: https:\/\/other\.com is not on WEBAUTHN_RP_ID/);
    expect(() => loadConfig({ ...base, WEBAUTHN_ORIGIN: 'http://localhost:3000/app' })).toThrow(
      /WEBAUTHN_ORIGIN/,
    );
    expect(() => loadConfig({ ...base, WEBAUTHN_RP_ID: 'https://example.com' })).toThrow(
      /WEBAUTHN_RP_ID/,
    );
  });
});
