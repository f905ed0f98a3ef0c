/**
 * Proof of presence (API.md, "Proof of presence for what a stolen token must not do"): a session
 * proves again who it is, with the password, a code or a passkey, and for REAUTH_WINDOW_SECONDS
 * may make the changes that would let someone keep or take the account (routes that declare
 * `config.recentProof`, http/access.ts). A bearer token alone cannot: it never knew the password.
 *
 * Proofs are throttled as sign-ins are, on the same counts (a wrong password here counts as one
 * at sign-in, a wrong code as a wrong second step), so proving is no faster way to guess; a
 * browser holding its device token tries on its own budget. A refused proof answers 409 naming
 * the field, as a wrong old password does: the caller is signed in, and 401 would read as
 * "signed out". Each proof and each refusal is audited (REAUTH, REAUTH_FAILED).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { generateAuthenticationOptions } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON } from '@simplewebauthn/server';
import {
  CHALLENGE_MINUTES,
  MESSAGES,
  PATHS,
  reauthAnswer,
  reauthBody,
  webauthnOptions,
  type ReauthAnswer,
} from '@master-admin/contract';
import { access, proofUntil } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { conflict } from '../../http/errors.ts';
import { inTransaction } from '../../db/transaction.ts';
import { verifyPassword } from '../../auth/passwords.ts';
import { knownDevice } from '../../auth/device-token.ts';
import { storeChallenge } from '../../auth/challenges.ts';
import { spendCode } from '../../auth/second-factor.ts';
import { markProved } from '../../auth/sessions.ts';
import { record } from '../audit/record.ts';
import { checkAssertion } from './passkeys.ts';
import { securityEvent, throttled } from './security-events.ts';

type Method = 'password' | 'totp' | 'recovery' | 'passkey';

const reauthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, throttle, secret, config } = app.ctx;
  const windowSeconds = config.reauthWindowSeconds;

  app.post(
    PATHS.reauth,
    {
      // Open to a session that may only enrol: enrolling needs a recent proof too.
      config: {
        access: access.signedIn,
        enrolment: true,
        rateLimit: { max: 60, timeWindow: '1 minute' },
      },
      schema: {
        tags: ['auth'],
        summary: 'Proves again who the caller is, for the changes that need a recent proof',
        description:
          'One proof: `{ password }`, `{ method: "totp" | "recovery", code }` (a code from the ' +
          'authenticator app, or an unused recovery code, which is then used up), or ' +
          '`{ response }`, a passkey’s answer to `auth/reauth/passkey/options` (JSON). ' +
          `Answers until when the proof counts (REAUTH_WINDOW_SECONDS, ${windowSeconds} s by ` +
          'default). A refused proof answers 409 naming the field (`password`, `code`, ' +
          '`response`). Throttled as sign-ins are, on the same counts (429 with Retry-After): ' +
          'per address, and per account (passwords and codes apart), or on the device’s own ' +
          'budget for a browser that sends its `device` cookie. Changes that need a recent ' +
          'proof: adding or removing a passkey or an authenticator app, new recovery codes, ' +
          'ending other sessions, the owner’s changes of a staff member’s password, email or ' +
          'second factors (a password change proves by its old password).',
        body: reauthBody,
        response: answers(reauthAnswer),
      },
    },
    async (request): Promise<ReauthAnswer> => {
      const me = request.account;
      const { password, method: codeMethod, code, response } = request.body;
      const account = await db
        .selectFrom('accounts')
        .select(['id', 'passwordHash'])
        .where('id', '=', me.id)
        .executeTakeFirstOrThrow();
      const device = knownDevice(request, secret, account);
      const refused = async (method: Method, field: string, message: string) => {
        await securityEvent(db, request, me.id, 'REAUTH_FAILED', [
          { field: 'method', old: null, new: method },
        ]);
        return conflict(message, field);
      };

      let method: Method;
      if (password !== undefined) {
        method = 'password';
        const attempt = await throttled(db, request, me.id, () =>
          throttle.begin(request.ip, { accountId: me.id }, device ? { device } : {}),
        );
        if (!(await verifyPassword(account.passwordHash, password))) {
          throw await refused(method, 'password', MESSAGES.wrongPassword);
        }
        await attempt.succeeded();
      } else if (code !== undefined && codeMethod !== undefined) {
        method = codeMethod;
        const attempt = await throttled(db, request, me.id, () =>
          throttle.beginCode(request.ip, me.id, device ? { device } : {}),
        );
        const spent = await inTransaction(db, request.log, (trx) =>
          spendCode(trx, me.id, code, codeMethod),
        ).catch(async (err: unknown) => {
          await attempt.uncounted();
          throw err;
        });
        if (!spent) throw await refused(method, 'code', MESSAGES.invalidCode);
        await attempt.succeeded();
      } else {
        method = 'passkey';
        const answer = response as unknown as AuthenticationResponseJSON;
        const checked = await checkAssertion(app.ctx, request, answer, 'passkey-reauth');
        // Another account's passkey proves nothing about this one.
        if (checked?.account.id !== me.id) {
          throw await refused(method, 'response', MESSAGES.passkeyRefused);
        }
        await checked.attempt.succeeded();
      }

      const provedAt = await inTransaction(db, request.log, async (trx) => {
        const at = await markProved(trx, me.sessionId);
        await record(trx, request, {
          area: 'auth',
          rowId: me.id,
          action: 'REAUTH',
          changes: [{ field: 'method', old: null, new: method }],
        });
        return at;
      });
      return { message: MESSAGES.reauthDone, until: proofUntil({ provedAt }, windowSeconds) };
    },
  );

  app.post(
    PATHS.reauthPasskeyOptions,
    {
      // It stores a challenge, changing nothing of the account: the proof is audited.
      config: {
        access: access.signedIn,
        enrolment: true,
        audit: false,
        rateLimit: { max: 60, timeWindow: '1 minute' },
      },
      schema: {
        tags: ['auth'],
        summary: 'Starts a proof by passkey: the options for navigator.credentials.get()',
        description:
          'Lists the caller’s passkeys, so the browser offers only those. The challenge is good ' +
          `for ${CHALLENGE_MINUTES} minutes and one \`auth/reauth\`, by this account only. 409 ` +
          'when the account has no passkey.',
        response: answers(webauthnOptions),
      },
    },
    async (request) => {
      const me = request.account;
      const passkeys = await db
        .selectFrom('passkeys')
        .select(['credentialId', 'transports'])
        .where('accountId', '=', me.id)
        .execute();
      if (passkeys.length === 0) throw conflict(MESSAGES.noPasskey);
      const options = await generateAuthenticationOptions({
        rpID: config.webauthn.rpId,
        allowCredentials: passkeys.map((p) => ({
          id: p.credentialId,
          ...(p.transports ? { transports: p.transports.split(',') } : {}),
        })),
        timeout: CHALLENGE_MINUTES * 60_000,
        userVerification: 'required',
      });
      await storeChallenge(db, { id: options.challenge, kind: 'passkey-reauth', accountId: me.id });
      return { ...options };
    },
  );
};
export default reauthRoutes;
