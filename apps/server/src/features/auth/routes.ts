/**
 * Sign-in, sign-out, own password and own profile: the calls every account makes for itself.
 */
import { deviceLabel } from '../../auth/device.ts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  loginAnswer,
  loginBody,
  loginResponse,
  loginVerifyBody,
  messageResponse,
  passResetBody,
  passResetResponse,
  myPermissions,
  profile,
  type LoginAnswer,
  type MyPermissions,
  type SecondFactorMethod,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { conflict, notFound, unauthorized } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { hashPassword, refuseWeakPassword, verifyPassword } from '../../auth/passwords.ts';
import { markProved, revokeSession, revokeSessionsOf } from '../../auth/sessions.ts';
import { completeSignIn } from '../../auth/sign-in.ts';
import { useChallenge } from '../../auth/challenges.ts';
import { knownDevice, readDeviceToken, rememberDevice } from '../../auth/device-token.ts';
import {
  LOGIN_CHALLENGE,
  hasPasskey,
  hasRecoveryCode,
  hasTotp,
  newLoginChallenge,
  spendCode,
} from '../../auth/second-factor.ts';
import { audited, record } from '../audit/record.ts';
import { securityEvent, throttled } from './security-events.ts';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, throttle, secret } = app.ctx;

  // Counted for /metrics, whichever check refused: a wrong password or code, or a throttled try.
  const countFailures = async (_request: FastifyRequest, reply: FastifyReply) => {
    if (reply.statusCode === 401) app.metrics.signInFailures.inc();
    else if (reply.statusCode === 429) app.metrics.signInThrottled.inc();
  };

  app.post(
    PATHS.login,
    {
      config: {
        access: access.public,
        // A coarse flood guard; failed attempts are throttled separately below.
        rateLimit: { max: 60, timeWindow: '1 minute' },
        // The answer is a token: never kept (http/idempotency.ts); a new sign-in is harmless.
        keepAnswer: false,
      },
      onResponse: countFailures,
      schema: {
        tags: ['auth'],
        summary: 'Signs in with an email (or phone number) and password',
        description:
          'Throttled (429 with Retry-After): after LOGIN_MAX_FAILURES (10) attempts in ' +
          'LOGIN_WINDOW_MINUTES (15) from one address, for any account; and after that many ' +
          'failures for one account (counted on the account, whether its email or its phone ' +
          'number was typed), from any address with a recent failure (an address with ' +
          'none still has its password checked). A browser that sends the `device` cookie an ' +
          'earlier sign-in to this account set (since its last password change) is checked ' +
          "against its own budget (LOGIN_DEVICE_MAX_FAILURES, 5, a window) instead of the account's " +
          'count, so it still gets in while the account is locked for unknown devices; once that ' +
          'budget is spent it is counted as an unknown device. ' +
          'An account with a second factor (an authenticator app or a passkey) answers ' +
          '`{ challenge, methods }` and no token: the sign-in ends with `auth/admin/login/verify` ' +
          'within 5 minutes, or through the passkey calls. Otherwise the answer is the token, ' +
          'with a login-history ' +
          'row IN and `Set-Cookie: device=…` (HttpOnly, SameSite=Strict, Path=/api/v1/auth; ' +
          'Secure unless served over plain HTTP on the machine itself).',
        security: [],
        body: loginBody,
        response: answers(loginAnswer),
      },
    },
    async (request, reply): Promise<LoginAnswer> => {
      const identifier = request.body.email.trim();
      // The one statement an unknown identifier costs, with what the second step needs.
      let query = db
        .selectFrom('accounts as a')
        .select(['a.id', 'a.role', 'a.email', 'a.phoneNumber', 'a.passwordHash', 'a.status'])
        .select((eb) => [
          hasTotp(eb.ref('a.id')).as('totp'),
          hasPasskey(eb.ref('a.id')).as('passkey'),
          hasRecoveryCode(eb.ref('a.id')).as('recovery'),
        ])
        .where('a.role', '<>', 'USER')
        .where('a.status', '<>', 'DELETED');
      query = identifier.includes('@')
        ? query.where((eb) => eb(eb.fn('lower', ['a.email']), '=', identifier.toLowerCase()))
        : query.where('a.phoneNumber', '=', identifier);
      const account = await query.executeTakeFirst();

      // A device token counts only for the account it was given to, since its last password
      // change; any other is ignored.
      const presented = account ? readDeviceToken(request, secret, account) : undefined;
      const device = typeof presented === 'object' ? presented : undefined;
      if (account && (presented === 'other' || presented === 'refused')) {
        const why =
          presented === 'other'
            ? 'another account’s'
            : 'not valid: not signed by this server, or ended by a password change';
        await securityEvent(db, request, account.id, 'DEVICE_REFUSED', [
          { field: 'device', old: null, new: why },
        ]);
      }

      // Counted on the account, whichever of its identifiers was typed.
      const counted = account ? { accountId: account.id } : { identifier };
      const attempt = await throttled(db, request, account?.id, () =>
        throttle.begin(request.ip, counted, device ? { device: device.nonce } : {}),
      );
      const valid = await verifyPassword(account?.passwordHash ?? null, request.body.password);
      // A failure keeps its place in the counts: that is what throttles guessing.
      if (!account || !valid) {
        if (account) await securityEvent(db, request, account.id, 'SIGN_IN_FAILED');
        throw unauthorized(MESSAGES.invalidCredentials);
      }
      if (account.status !== 'ACTIVE') {
        await attempt.uncounted();
        throw unauthorized(MESSAGES.accountNotActive);
      }
      await attempt.succeeded();

      const methods: SecondFactorMethod[] = [];
      if (account.totp) methods.push('totp');
      if (account.recovery) methods.push('recovery');
      if (account.passkey) methods.push('passkey');
      if (account.totp || account.passkey) {
        return { challenge: await newLoginChallenge(db, account.id), methods };
      }
      return completeSignIn(app.ctx, request, reply, account, 'password');
    },
  );

  app.post(
    PATHS.loginVerify,
    {
      config: {
        access: access.public,
        rateLimit: { max: 60, timeWindow: '1 minute' },
        keepAnswer: false,
      },
      onResponse: countFailures,
      schema: {
        tags: ['auth'],
        summary:
          'Ends a sign-in with a second factor: a code from the authenticator app, or a recovery code',
        description:
          '`challenge` is what `auth/admin/login` answered; it lasts 5 minutes and is good for one ' +
          'success (an unknown, expired or used one answers 401 "' +
          MESSAGES.challengeExpired +
          '"). A wrong code answers 401; codes are throttled per address and per account, apart ' +
          'from passwords and from every address alike (429 with Retry-After), except that a ' +
          'browser sending a valid `device` cookie of the account tries on its own budget. A ' +
          'code from the app is accepted once ' +
          '(and one step of 30 s either side of now); a recovery code once. Spaces and dashes ' +
          'in a code are ignored. On success the answer is as a sign-in without a second factor.',
        security: [],
        body: loginVerifyBody,
        response: answers(loginResponse),
      },
    },
    async (request, reply) => {
      const { challenge, method, code } = request.body;
      const found = await db
        .selectFrom('authChallenges as c')
        .innerJoin('accounts as a', 'a.id', 'c.accountId')
        .select(['a.id', 'a.role', 'a.email', 'a.phoneNumber', 'a.status', 'a.passwordHash'])
        .select(['c.expiresAt', 'c.usedAt'])
        .where('c.id', '=', challenge)
        .where('c.kind', '=', LOGIN_CHALLENGE)
        .executeTakeFirst();
      if (!found || found.usedAt !== null || found.expiresAt <= now()) {
        throw unauthorized(MESSAGES.challengeExpired);
      }
      const account = found;
      // A known device tries codes on its own budget: guesses from elsewhere never lock it out.
      const device = knownDevice(request, secret, account);
      const attempt = await throttled(db, request, account.id, () =>
        throttle.beginCode(request.ip, account.id, device ? { device } : {}),
      );
      if (account.status !== 'ACTIVE') {
        await attempt.uncounted();
        throw unauthorized(MESSAGES.accountNotActive);
      }
      // The code is spent and the challenge used together: a request that loses the challenge
      // to another (two at once) rolls back, its code unspent.
      const spent = await inTransaction(db, request.log, async (trx) => {
        if (!(await spendCode(trx, account.id, code, method))) return false;
        const used = await useChallenge(trx, { id: challenge, kind: LOGIN_CHALLENGE });
        if (!used) throw unauthorized(MESSAGES.challengeExpired);
        return true;
      }).catch(async (err: unknown) => {
        await attempt.uncounted();
        throw err;
      });
      if (!spent) {
        await securityEvent(db, request, account.id, 'SIGN_IN_FAILED', [
          { field: 'method', old: null, new: method },
        ]);
        throw unauthorized(MESSAGES.invalidCode);
      }
      await attempt.succeeded();
      return completeSignIn(app.ctx, request, reply, account, method);
    },
  );

  app.post(
    PATHS.logout,
    {
      config: { access: access.signedIn, enrolment: true },
      schema: {
        tags: ['auth'],
        summary: 'Signs out: the token stops working at once',
        response: answers(messageResponse),
      },
    },
    async (request) => {
      await inTransaction(db, request.log, async (trx) => {
        await revokeSession(trx, request.account.sessionId);
        await trx
          .insertInto('loginHistory')
          .values({
            accountId: request.account.id,
            ip: request.ip,
            status: 'OUT',
            device: deviceLabel(request.headers['user-agent']),
            createdAt: now(),
          })
          .execute();
        await record(trx, request, { area: 'auth', rowId: request.account.id, action: 'SIGN_OUT' });
      });
      return { message: MESSAGES.loggedOut };
    },
  );

  app.post(
    PATHS.passReset,
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['auth'],
        summary: 'Changes the caller’s own password',
        description:
          'A new password too easy to guess answers 400 naming `newPassword`, with the reason ' +
          '(it must not be common, nor built from the account’s email, name or phone). A wrong ' +
          'old password answers 409 naming `oldPassword`. The old password is this change’s ' +
          'proof of presence, so it is throttled as a sign-in is (429 with Retry-After; a ' +
          'browser with its `device` cookie tries on its own budget). The caller’s other sessions ' +
          'end and this one goes on, proved; every device token of the account ends but this ' +
          'browser’s, which gets a new one (`Set-Cookie: device=…`).',
        body: passResetBody,
        response: answers(passResetResponse),
      },
    },
    async (request, reply) => {
      const me = request.account;
      const row = await db
        .selectFrom('accounts')
        .select(['id', 'email', 'name', 'phoneNumber', 'passwordHash'])
        .where('id', '=', me.id)
        .executeTakeFirstOrThrow();
      await refuseWeakPassword(request.body.newPassword, row, 'newPassword');
      const device = knownDevice(request, secret, row);
      const attempt = await throttled(db, request, me.id, () =>
        throttle.begin(request.ip, { accountId: me.id }, device ? { device } : {}),
      );
      if (!(await verifyPassword(row.passwordHash, request.body.oldPassword))) {
        await securityEvent(db, request, me.id, 'REAUTH_FAILED', [
          { field: 'method', old: null, new: 'password' },
        ]);
        throw conflict(MESSAGES.oldPasswordMismatch, 'oldPassword');
      }
      await attempt.succeeded();
      const passwordHash = await hashPassword(request.body.newPassword);
      const target = { area: 'auth', table: 'accounts', action: 'PASSWORD', ids: [me.id] } as const;
      await audited(db, request, target, async (trx) => {
        await trx
          .updateTable('accounts')
          .set({ passwordHash, updatedAt: now() })
          .where('id', '=', me.id)
          .execute();
        await revokeSessionsOf(trx, me.id, me.sessionId);
        await markProved(trx, me.sessionId);
      });
      rememberDevice(request, reply, secret, { id: me.id, passwordHash }, row);
      return { message: MESSAGES.passwordReset, result: { id: row.id, email: row.email } };
    },
  );

  app.get(
    PATHS.adminDetail,
    {
      config: { access: access.signedIn, enrolment: true },
      schema: {
        tags: ['auth'],
        summary: 'The caller’s own profile',
        response: answers(profile),
      },
    },
    async (request) => {
      const row = await db
        .selectFrom('accounts')
        .select(['id', 'phoneNumber', 'email', 'status', 'createdAt'])
        .where('id', '=', request.account.id)
        .executeTakeFirst();
      if (!row) throw notFound();
      return row;
    },
  );

  app.get(
    PATHS.myPermissions,
    {
      config: { access: access.signedIn, enrolment: true },
      schema: {
        tags: ['auth'],
        summary: 'What the caller may do',
        description:
          'Per menu name, the permission kinds the caller holds; a SUPER_ADMIN holds every kind of every menu. The web app hides what the server would refuse; the server still checks every call.',
        response: answers(myPermissions),
      },
    },
    async (request): Promise<MyPermissions> => {
      const me = request.account;
      const rows =
        me.role === 'SUPER_ADMIN'
          ? await db
              .selectFrom('menus as m')
              .crossJoin('permissions as p')
              .select(['m.name as menu', 'p.name as kind'])
              .orderBy('m.id')
              .orderBy('p.id')
              .execute()
          : await db
              .selectFrom('userPermissions as up')
              .innerJoin('menus as m', 'm.id', 'up.menuId')
              .innerJoin('permissions as p', 'p.id', 'up.permissionId')
              .select(['m.name as menu', 'p.name as kind'])
              .where('up.accountId', '=', me.id)
              .where('up.status', '=', true)
              .orderBy('m.id')
              .orderBy('p.id')
              .execute();
      const grants: MyPermissions['grants'] = {};
      for (const { menu, kind } of rows) (grants[menu] ??= []).push(kind);
      return { role: me.role, grants };
    },
  );
};
export default authRoutes;
