/**
 * Passkeys (WebAuthn, API.md "Second factors, passkeys, sessions, device tokens"): adding one
 * (a signed-in account), listing, renaming and removing one's own, and signing in with one alone.
 * The ceremonies' challenges live in auth_challenges (auth/challenges.ts), each good for one use;
 * the relying party's id and origins come from WEBAUTHN_RP_ID and WEBAUTHN_ORIGIN (config.ts).
 *
 * Every passkey is discoverable (residentKey 'required') and verifies its user (a PIN or a
 * biometric: userVerification 'required'), because it signs in on its own: the sign-in options
 * never list an account's credentials, so they say nothing of which emails have passkeys.
 */
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  generateAuthenticationOptions,
  generateRegistrationOptions,
  verifyAuthenticationResponse,
  verifyRegistrationResponse,
  type AuthenticationResponseJSON,
  type RegistrationResponseJSON,
} from '@simplewebauthn/server';
import { isoBase64URL, isoUint8Array } from '@simplewebauthn/server/helpers';
import {
  CHALLENGE_MINUTES,
  MESSAGES,
  PATHS,
  deleteResponse,
  idParams,
  loginResponse,
  passkeyCreated,
  passkeyList,
  passkeyLoginBody,
  passkeyLoginOptionsBody,
  passkeyRegisterBody,
  passkeyRenameBody,
  passkeyRenamed,
  webauthnOptions,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError, conflict, notFound, unauthorized } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { storeChallenge, useChallenge } from '../../auth/challenges.ts';
import { factorAdded, factorRemoved } from '../../auth/second-factor.ts';
import { completeSignIn } from '../../auth/sign-in.ts';
import type { AppContext } from '../../context.ts';
import { record } from '../audit/record.ts';

const TRANSPORTS = new Set(['ble', 'cable', 'hybrid', 'internal', 'nfc', 'smart-card', 'usb']);
const CEREMONY_MS = CHALLENGE_MINUTES * 60_000;

/** The challenge a response's client data signed, or undefined when it cannot be read. */
function signedChallenge(response: { response: { clientDataJSON: string } }): string | undefined {
  try {
    const data: unknown = JSON.parse(isoBase64URL.toUTF8String(response.response.clientDataJSON));
    const challenge = (data as { challenge?: unknown } | null)?.challenge;
    return typeof challenge === 'string' && challenge.length > 0 && challenge.length <= 128
      ? challenge
      : undefined;
  } catch {
    return undefined;
  }
}

/** A registration that could not be verified: the form names the response. */
const registrationRefused = () =>
  new HttpError(400, MESSAGES.passkeyRefused, {
    details: [{ path: 'response', message: MESSAGES.passkeyRefused }],
  });
const signInRefused = () => unauthorized(MESSAGES.passkeyRefused);

/** Why the library refused a response, for the operator (a wrong WEBAUTHN_ORIGIN shows here). */
function logRefusal(request: FastifyRequest, err: unknown) {
  request.log.info({ reason: err instanceof Error ? err.message : String(err) }, 'passkey refused');
}

const passkeyRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, config } = app.ctx;
  const { rpId, rpName, origins } = config.webauthn;

  app.post(
    PATHS.passkeyRegisterOptions,
    {
      // It stores a challenge, changing nothing of the account: the verify call is audited.
      config: { access: access.signedIn, enrolment: true, recentProof: true, audit: false },
      schema: {
        tags: ['auth'],
        summary: 'Starts adding a passkey: the options for navigator.credentials.create()',
        description:
          `The challenge is good for ${CHALLENGE_MINUTES} minutes and one \`register/verify\`. ` +
          'The caller’s passkeys are excluded, so an authenticator is not added twice.',
        response: answers(webauthnOptions),
      },
    },
    async (request) => {
      const me = request.account;
      const [account, existing] = await Promise.all([
        db
          .selectFrom('accounts')
          .select(['email', 'phoneNumber', 'name'])
          .where('id', '=', me.id)
          .executeTakeFirstOrThrow(),
        db
          .selectFrom('passkeys')
          .select(['credentialId', 'transports'])
          .where('accountId', '=', me.id)
          .execute(),
      ]);
      const userName = account.email ?? account.phoneNumber ?? String(me.id);
      const options = await generateRegistrationOptions({
        rpName,
        rpID: rpId,
        userName,
        userDisplayName: account.name ?? userName,
        // The user handle: the account's id (a passkey's sign-in names its account by it).
        userID: isoUint8Array.fromUTF8String(String(me.id)),
        timeout: CEREMONY_MS,
        excludeCredentials: existing.map((p) => ({
          id: p.credentialId,
          ...(p.transports ? { transports: p.transports.split(',') } : {}),
        })),
        authenticatorSelection: { residentKey: 'required', userVerification: 'required' },
      });
      await storeChallenge(db, {
        id: options.challenge,
        kind: 'passkey-register',
        accountId: me.id,
      });
      return { ...options };
    },
  );

  app.post(
    PATHS.passkeyRegisterVerify,
    {
      // The response is an object, which a form cannot carry.
      config: { access: access.signedIn, enrolment: true, recentProof: true, jsonBody: true },
      schema: {
        tags: ['auth'],
        summary: 'Adds a passkey: the browser’s answer to the creation options, and a name',
        description:
          'The response must sign a challenge of `register/options` handed to the caller, unused ' +
          `and under ${CHALLENGE_MINUTES} minutes old, on WEBAUTHN_ORIGIN for WEBAUTHN_RP_ID, ` +
          'with the user verified; otherwise 400 naming `response` (the challenge is used ' +
          'either way). A passkey already added answers 409. Lifts an enrolment-only session ' +
          '(the owner requires a second factor).',
        body: passkeyRegisterBody,
        response: answers(passkeyCreated),
      },
    },
    async (request) => {
      const me = request.account;
      const { name } = request.body;
      const response = request.body.response as unknown as RegistrationResponseJSON;
      const challenge = signedChallenge(response);
      const used =
        challenge &&
        (await useChallenge(db, { id: challenge, kind: 'passkey-register', accountId: me.id }));
      if (!challenge || !used) throw registrationRefused();
      let verified;
      try {
        verified = await verifyRegistrationResponse({
          response,
          expectedChallenge: challenge,
          expectedOrigin: origins,
          expectedRPID: rpId,
          requireUserVerification: true,
        });
      } catch (err) {
        logRefusal(request, err);
      }
      if (!verified?.verified) throw registrationRefused();
      const { credential } = verified.registrationInfo;
      const transports = (credential.transports ?? []).filter((t) => TRANSPORTS.has(t));

      const created = await inTransaction(db, request.log, async (trx) => {
        // A clash inserts nothing (no error, which would end a PostgreSQL transaction).
        const row = await trx
          .insertInto('passkeys')
          .values({
            accountId: me.id,
            credentialId: credential.id,
            publicKey: isoBase64URL.fromBuffer(credential.publicKey),
            counter: credential.counter,
            transports: transports.length > 0 ? transports.join(',') : null,
            name,
            createdAt: now(),
            lastUsedAt: null,
          })
          .onConflict((oc) => oc.column('credentialId').doNothing())
          .returning(['id', 'name', 'createdAt'])
          .executeTakeFirst();
        if (!row) throw conflict(MESSAGES.passkeyTaken, 'response');
        await factorAdded(trx, request, { field: 'passkey', old: null, new: name });
        return row;
      });
      return { message: MESSAGES.passkeyAdded, result: created };
    },
  );

  app.get(
    PATHS.passkeys,
    {
      config: { access: access.signedIn, enrolment: true },
      schema: {
        tags: ['auth'],
        summary: 'The caller’s passkeys, newest first',
        response: answers(passkeyList),
      },
    },
    async (request) => {
      const result = await db
        .selectFrom('passkeys')
        .select(['id', 'name', 'createdAt', 'lastUsedAt'])
        .where('accountId', '=', request.account.id)
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .execute();
      return { result };
    },
  );

  /** One of the caller's passkeys, read in `trx` (404 for anyone else's). */
  async function ownPasskey(trx: typeof db, accountId: number, id: number) {
    const row = await trx
      .selectFrom('passkeys')
      .select(['id', 'name', 'createdAt', 'lastUsedAt'])
      .where('id', '=', id)
      .where('accountId', '=', accountId)
      .executeTakeFirst();
    if (!row) throw notFound(MESSAGES.passkeyNotFound);
    return row;
  }

  app.patch(
    PATHS.passkey(':id'),
    {
      // A passkey has no version: nothing to compare an If-Match with.
      config: { access: access.signedIn, ifMatch: false },
      schema: {
        tags: ['auth'],
        summary: 'Renames one of the caller’s passkeys',
        description: 'Another account’s passkey answers 404.',
        params: idParams,
        body: passkeyRenameBody,
        response: answers(passkeyRenamed),
      },
    },
    async (request) => {
      const me = request.account;
      const { name } = request.body;
      const result = await inTransaction(db, request.log, async (trx) => {
        const before = await ownPasskey(trx, me.id, request.params.id);
        await trx
          .updateTable('passkeys')
          .set({ name })
          .where('id', '=', before.id)
          .where('accountId', '=', me.id)
          .execute();
        await record(trx, request, {
          area: 'auth',
          rowId: me.id,
          action: 'UPDATE',
          changes: [{ field: 'passkey', old: before.name, new: name }],
        });
        return { ...before, name };
      });
      return { message: MESSAGES.passkeyRenamed, result };
    },
  );

  app.delete(
    PATHS.passkey(':id'),
    {
      config: { access: access.signedIn, ifMatch: false, recentProof: true },
      schema: {
        tags: ['auth'],
        summary: 'Removes one of the caller’s passkeys',
        description:
          'It no longer signs in. The caller’s other sessions end (this one goes on): a session ' +
          'begun with it, or while it was trusted, is not left open. Another account’s passkey ' +
          'answers 404.',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const me = request.account;
      const id = request.params.id;
      await inTransaction(db, request.log, async (trx) => {
        const row = await ownPasskey(trx, me.id, id);
        const deleted = await trx
          .deleteFrom('passkeys')
          .where('id', '=', id)
          .where('accountId', '=', me.id)
          .executeTakeFirst();
        // Removed meanwhile by another call: that call answered for it.
        if (deleted.numDeletedRows !== 1n) throw notFound(MESSAGES.passkeyNotFound);
        await factorRemoved(trx, request, { field: 'passkey', old: row.name, new: null });
      });
      return { message: MESSAGES.passkeyRemoved, result: { id } };
    },
  );

  const signInLimit = { max: 60, timeWindow: '1 minute' };
  /** Counted for /metrics as the password sign-in counts its own. */
  const countSignIn = async (_request: FastifyRequest, reply: { statusCode: number }) => {
    if (reply.statusCode === 401) app.metrics.signInFailures.inc();
    else if (reply.statusCode === 429) app.metrics.signInThrottled.inc();
  };

  app.post(
    PATHS.passkeyLoginOptions,
    {
      config: { access: access.public, rateLimit: signInLimit },
      schema: {
        tags: ['auth'],
        summary: 'Starts a passkey sign-in: the options for navigator.credentials.get()',
        description:
          'No credentials are listed: every passkey here is discoverable, and the browser offers ' +
          'those it holds for this site. With `email` (the account a password step named), only ' +
          'a passkey of that account is then accepted. The answer is the same whether or not the ' +
          `email belongs to an account. The challenge is good for ${CHALLENGE_MINUTES} minutes ` +
          'and one `login/verify`.',
        security: [],
        body: passkeyLoginOptionsBody,
        response: answers(webauthnOptions),
      },
    },
    async (request) => {
      const email = request.body.email?.toLowerCase();
      const account = email
        ? await db
            .selectFrom('accounts')
            .select('id')
            .where((eb) => eb(eb.fn('lower', ['email']), '=', email))
            .where('role', '<>', 'USER')
            .where('status', '<>', 'DELETED')
            .executeTakeFirst()
        : undefined;
      const options = await generateAuthenticationOptions({
        rpID: rpId,
        allowCredentials: [],
        timeout: CEREMONY_MS,
        userVerification: 'required',
      });
      await storeChallenge(db, {
        id: options.challenge,
        kind: 'passkey-login',
        accountId: account?.id ?? null,
      });
      return { ...options };
    },
  );

  app.post(
    PATHS.passkeyLoginVerify,
    {
      config: { access: access.public, rateLimit: signInLimit, jsonBody: true, keepAnswer: false },
      onResponse: countSignIn,
      schema: {
        tags: ['auth'],
        summary: 'Signs in with a passkey: the browser’s answer to the request options',
        description:
          'A passkey is a sign-in on its own (and the second step after a password). The ' +
          'response must sign a challenge of `login/options`, unused and under ' +
          `${CHALLENGE_MINUTES} minutes old, on WEBAUTHN_ORIGIN for WEBAUTHN_RP_ID, with the user ` +
          'verified and the signature counter moving on; otherwise 401. Throttled as the ' +
          'password sign-in is (429 with Retry-After): LOGIN_MAX_FAILURES attempts in ' +
          'LOGIN_WINDOW_MINUTES from one address. Records a login-history row IN.',
        security: [],
        body: passkeyLoginBody,
        response: answers(loginResponse),
      },
    },
    async (request, reply) => {
      const response = request.body.response as unknown as AuthenticationResponseJSON;
      const checked = await checkAssertion(app.ctx, request, response, 'passkey-login');
      if (!checked) throw signInRefused();
      const { account, attempt } = checked;
      if (account.status !== 'ACTIVE') {
        await attempt.uncounted();
        throw unauthorized(MESSAGES.accountNotActive);
      }
      await attempt.succeeded();
      return completeSignIn(app.ctx, request, reply, account, 'passkey');
    },
  );
};

/**
 * Checks a passkey's answer to a challenge of `kind` (a sign-in's, or a proof of presence's): it
 * must sign a challenge handed out for that use, unused and unexpired (for the account it was
 * handed to, when it names one), on WEBAUTHN_ORIGIN for WEBAUTHN_RP_ID, with the user verified
 * and the signature counter moving on. Failures count per address (and per passkey): a flood of
 * assertions is refused early (429). Answers the passkey's account and the throttle's attempt
 * (to settle), or undefined when refused (the attempt then counts as a failure).
 */
export async function checkAssertion(
  ctx: Pick<AppContext, 'db' | 'throttle' | 'config'>,
  request: FastifyRequest,
  response: AuthenticationResponseJSON,
  kind: 'passkey-login' | 'passkey-reauth',
) {
  const { db, throttle, config } = ctx;
  const { rpId, origins } = config.webauthn;
  const passkey = await db
    .selectFrom('passkeys as p')
    .innerJoin('accounts as a', 'a.id', 'p.accountId')
    .select([
      'p.id as passkeyId',
      'p.publicKey',
      'p.counter',
      'p.transports',
      'a.id',
      'a.role',
      'a.status',
      'a.email',
      'a.phoneNumber',
    ])
    .where('p.credentialId', '=', response.id)
    .executeTakeFirst();
  const attempt = await throttle.begin(request.ip, {
    identifier: `passkey:${passkey ? passkey.passkeyId : 'unknown'}`,
  });
  const challenge = signedChallenge(response);
  const used = challenge && (await useChallenge(db, { id: challenge, kind }));
  if (!challenge || !used || !passkey) return undefined;
  // An account that cannot sign in here at all reads as an unknown passkey.
  if (passkey.role === 'USER' || passkey.status === 'DELETED') return undefined;
  // Options asked for one account's passkey (a password step named it, or the caller's own).
  if (used.accountId !== null && used.accountId !== passkey.id) return undefined;
  const userHandle = response.response.userHandle;
  if (userHandle && userHandle !== isoBase64URL.fromUTF8String(String(passkey.id))) {
    return undefined;
  }
  let verified;
  try {
    verified = await verifyAuthenticationResponse({
      response,
      expectedChallenge: challenge,
      expectedOrigin: origins,
      expectedRPID: rpId,
      credential: {
        id: response.id,
        publicKey: isoBase64URL.toBuffer(passkey.publicKey),
        counter: Number(passkey.counter),
        ...(passkey.transports ? { transports: passkey.transports.split(',') } : {}),
      },
      requireUserVerification: true,
    });
  } catch (err) {
    logRefusal(request, err);
  }
  if (!verified?.verified) return undefined;
  await db
    .updateTable('passkeys')
    .set({ counter: verified.authenticationInfo.newCounter, lastUsedAt: now() })
    .where('id', '=', passkey.passkeyId)
    .execute();
  const { id, role, status, email, phoneNumber } = passkey;
  return { account: { id, role, status, email, phoneNumber }, attempt };
}

export default passkeyRoutes;
