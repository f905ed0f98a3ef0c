/**
 * The caller's own second factors: an authenticator app (TOTP) with its recovery codes, and what
 * the profile's security section shows (API.md, "Second factors, passkeys, sessions, device
 * tokens"). Open to a session that may only enrol a second factor (`enrolment: true`).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  codeBody,
  messageResponse,
  myFactors,
  totpConfirmed,
  totpSetup,
  type MyFactors,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { conflict } from '../../http/errors.ts';
import type { Db } from '../../db/connect.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { record } from '../audit/record.ts';
import {
  factorAdded,
  factorRemoved,
  hasTotp,
  newTotpSecret,
  otpauthUrl,
  replaceRecoveryCodes,
  spendCode,
  totpStep,
} from '../../auth/second-factor.ts';

const TAGS = ['account'];
const enrolment = { access: access.signedIn, enrolment: true } as const;

/** 409 unless the account has an authenticator app set up (confirmed). */
async function requireTotpOn(db: Db, accountId: number) {
  const on = await db
    .selectFrom('totpFactors')
    .select('accountId')
    .where('accountId', '=', accountId)
    .where('confirmedAt', 'is not', null)
    .executeTakeFirst();
  if (!on) throw conflict(MESSAGES.totpNotOn);
}

/** A wrong code from a signed-in caller: like a wrong old password, 409 naming the field. */
const invalidCode = () => conflict(MESSAGES.invalidCode, 'code');

const totpRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, throttle } = app.ctx;

  app.get(
    PATHS.myFactors,
    {
      config: enrolment,
      schema: {
        tags: TAGS,
        summary: 'The caller’s second factors',
        description:
          'Whether an authenticator app is set up, how many passkeys and unused recovery codes ' +
          'there are, and whether this session may only enrol a second factor (the owner ' +
          'requires one and the account has none).',
        response: answers(myFactors),
      },
    },
    async (request): Promise<MyFactors> => {
      const me = request.account;
      const row = await db
        .selectFrom('accounts as a')
        .select((eb) => [
          hasTotp(eb.ref('a.id')).as('totp'),
          eb
            .selectFrom('passkeys')
            .select((p) => p.fn.countAll<number>().as('n'))
            .whereRef('passkeys.accountId', '=', 'a.id')
            .as('passkeys'),
          eb
            .selectFrom('recoveryCodes')
            .select((r) => r.fn.countAll<number>().as('n'))
            .whereRef('recoveryCodes.accountId', '=', 'a.id')
            .where('recoveryCodes.usedAt', 'is', null)
            .as('recoveryCodesLeft'),
        ])
        .where('a.id', '=', me.id)
        .executeTakeFirstOrThrow();
      return {
        totp: Boolean(row.totp),
        passkeys: Number(row.passkeys ?? 0),
        recoveryCodesLeft: Number(row.recoveryCodesLeft ?? 0),
        enrolmentRequired: me.enrolmentOnly,
      };
    },
  );

  app.post(
    PATHS.totp,
    {
      // A set-up not confirmed signs nobody in: the factor is recorded once confirmed
      // (FACTOR_ADDED), and its secret is never written to the log.
      // Its answer is the secret: never kept (http/idempotency.ts).
      config: { ...enrolment, recentProof: true, audit: false, keepAnswer: false },
      schema: {
        tags: TAGS,
        summary: 'Starts setting up an authenticator app',
        description:
          'Answers a new secret and its `otpauth://` URL (issuer "Master Admin", the account’s ' +
          'email as label) for the app to scan; nothing is active until `account/me/totp/confirm` ' +
          'gets a code from it. Calling again replaces a set-up not confirmed yet. 409 when an ' +
          'app is set up already.',
        response: answers(totpSetup),
      },
    },
    async (request) => {
      const me = request.account;
      const secret = newTotpSecret();
      const at = now();
      // One statement: a set-up not confirmed is replaced, a confirmed one is left alone.
      const written = await db
        .insertInto('totpFactors')
        .values({ accountId: me.id, secret, createdAt: at, confirmedAt: null, lastStep: null })
        .onConflict((oc) =>
          oc
            .column('accountId')
            .doUpdateSet({ secret, createdAt: at, lastStep: null })
            .where('totpFactors.confirmedAt', 'is', null),
        )
        .executeTakeFirst();
      if (Number(written.numInsertedOrUpdatedRows ?? 0) === 0) {
        throw conflict(MESSAGES.totpAlreadyOn);
      }
      const label = me.email ?? `account ${me.id}`;
      return { secret, otpauthUrl: otpauthUrl(secret, label) };
    },
  );

  app.post(
    PATHS.totpConfirm,
    {
      // Its answer holds recovery codes: never kept; confirming again answers 409.
      config: { ...enrolment, recentProof: true, keepAnswer: false },
      schema: {
        tags: TAGS,
        summary: 'Turns the authenticator app on with a code from it',
        description:
          'Answers 10 recovery codes, shown only this once (each signs in once instead of a ' +
          'code; older ones stop working). A wrong code answers 409 naming `code`; 409 when no ' +
          'set-up was started or an app is on already. A session that could only enrol a second ' +
          'factor may do everything from its next call.',
        body: codeBody,
        response: answers(totpConfirmed),
      },
    },
    async (request) => {
      const me = request.account;
      const factor = await db
        .selectFrom('totpFactors')
        .select(['secret', 'confirmedAt'])
        .where('accountId', '=', me.id)
        .executeTakeFirst();
      if (!factor) throw conflict(MESSAGES.totpNotStarted);
      if (factor.confirmedAt !== null) throw conflict(MESSAGES.totpAlreadyOn);
      const step = totpStep(factor.secret, request.body.code);
      if (step === undefined) throw invalidCode();
      const recoveryCodes = await inTransaction(db, request.log, async (trx) => {
        // The secret checked is the one confirmed (a new set-up meanwhile would change it), and
        // the confirming code is not accepted again to sign in.
        const confirmed = await trx
          .updateTable('totpFactors')
          .set({ confirmedAt: now(), lastStep: step })
          .where('accountId', '=', me.id)
          .where('secret', '=', factor.secret)
          .where('confirmedAt', 'is', null)
          .executeTakeFirst();
        if (confirmed.numUpdatedRows === 0n) throw conflict(MESSAGES.totpNotStarted);
        const codes = await replaceRecoveryCodes(trx, me.id);
        await factorAdded(trx, request, { field: 'totp', old: false, new: true });
        return codes;
      });
      return { message: MESSAGES.totpEnabled, recoveryCodes };
    },
  );

  app.delete(
    PATHS.totp,
    {
      config: { ...enrolment, recentProof: true },
      schema: {
        tags: TAGS,
        summary: 'Turns the authenticator app off',
        description:
          'Takes a current code from the app or an unused recovery code (a wrong one answers 409 ' +
          'naming `code`; LOGIN_DEVICE_MAX_FAILURES wrong codes a window per session, then 429 ' +
          'with Retry-After). Removes the app and the recovery codes, and ends every other ' +
          'session of the account. 409 when no app is on.',
        body: codeBody,
        response: answers(messageResponse),
      },
    },
    async (request) => {
      const me = request.account;
      await requireTotpOn(db, me.id);
      // The session has just proved who it is: its tries are its own, and a stolen token (which
      // cannot prove) cannot spend the account's budget of codes here.
      const attempt = await throttle.beginOnSession(request.ip, me.sessionId);
      const removed = await inTransaction(db, request.log, async (trx) => {
        if (!(await spendCode(trx, me.id, request.body.code))) return false;
        await trx.deleteFrom('totpFactors').where('accountId', '=', me.id).execute();
        await trx.deleteFrom('recoveryCodes').where('accountId', '=', me.id).execute();
        await factorRemoved(trx, request, { field: 'totp', old: true, new: false });
        return true;
      }).catch(async (err: unknown) => {
        await attempt.uncounted();
        throw err;
      });
      if (!removed) throw invalidCode();
      await attempt.succeeded();
      return { message: MESSAGES.totpDisabled };
    },
  );

  app.post(
    PATHS.recoveryCodes,
    {
      // Its answer is the codes: never kept; running again replaces codes never seen.
      config: { access: access.signedIn, recentProof: true, keepAnswer: false },
      schema: {
        tags: TAGS,
        summary: 'Makes new recovery codes; the old ones stop working',
        description:
          'Answers 10 new recovery codes, shown only this once; every earlier code, used or not, ' +
          'stops working. 409 when no authenticator app is set up (recovery codes come with it).',
        response: answers(totpConfirmed),
      },
    },
    async (request) => {
      const me = request.account;
      const recoveryCodes = await inTransaction(db, request.log, async (trx) => {
        await requireTotpOn(trx, me.id);
        const codes = await replaceRecoveryCodes(trx, me.id);
        await record(trx, request, { area: 'auth', rowId: me.id, action: 'RECOVERY_CODES' });
        return codes;
      });
      return { message: MESSAGES.recoveryCodesRenewed, recoveryCodes };
    },
  );
};
export default totpRoutes;
