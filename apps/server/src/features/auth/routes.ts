/**
 * Sign-in, sign-out, own password and own profile: the calls every account makes for itself.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  loginBody,
  loginResponse,
  messageResponse,
  passResetBody,
  passResetResponse,
  myPermissions,
  profile,
  type MyPermissions,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { conflict, notFound, unauthorized } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { inTransaction } from '../../db/transaction.ts';
import { hashPassword, verifyPassword } from '../../auth/passwords.ts';
import { revokeSession, revokeSessionsOf } from '../../auth/sessions.ts';
import { completeSignIn } from '../../auth/sign-in.ts';
import { audited, record } from '../audit/record.ts';

const authRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, throttle } = app.ctx;

  app.post(
    PATHS.login,
    {
      config: {
        access: access.public,
        // A coarse flood guard; failed attempts are throttled separately below.
        rateLimit: { max: 60, timeWindow: '1 minute' },
      },
      // Counted for /metrics, whichever check refused.
      onResponse: async (_request, reply) => {
        if (reply.statusCode === 401) app.metrics.signInFailures.inc();
        else if (reply.statusCode === 429) app.metrics.signInThrottled.inc();
      },
      schema: {
        tags: ['auth'],
        summary: 'Signs in with an email (or phone number) and password',
        description:
          'Throttled (429 with Retry-After): after LOGIN_MAX_FAILURES (10) attempts in ' +
          'LOGIN_WINDOW_MINUTES (15) from one address, for any account; and after that many ' +
          'failures for one account, from any address with a recent failure (an address with ' +
          'none still has its password checked). Records a login-history row IN.',
        security: [],
        body: loginBody,
        response: answers(loginResponse),
      },
    },
    async (request, reply) => {
      const identifier = request.body.email.trim();
      const attempt = await throttle.begin(request.ip, identifier);

      let query = db
        .selectFrom('accounts')
        .select(['id', 'role', 'email', 'phoneNumber', 'passwordHash', 'status'])
        .where('role', '<>', 'USER')
        .where('status', '<>', 'DELETED');
      query = identifier.includes('@')
        ? query.where((eb) => eb(eb.fn('lower', ['email']), '=', identifier.toLowerCase()))
        : query.where('phoneNumber', '=', identifier);
      const account = await query.executeTakeFirst();
      const valid = await verifyPassword(account?.passwordHash ?? null, request.body.password);
      // A failure keeps its place in the counts: that is what throttles guessing.
      if (!account || !valid) throw unauthorized(MESSAGES.invalidCredentials);
      if (account.status !== 'ACTIVE') {
        await attempt.uncounted();
        throw unauthorized(MESSAGES.accountNotActive);
      }
      await attempt.succeeded();
      return completeSignIn(app.ctx, request, reply, account, 'password');
    },
  );

  app.post(
    PATHS.logout,
    {
      config: { access: access.signedIn },
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
          'A wrong old password answers 409. The caller’s other sessions end; this one goes on.',
        body: passResetBody,
        response: answers(passResetResponse),
      },
    },
    async (request) => {
      const me = request.account;
      const row = await db
        .selectFrom('accounts')
        .select(['id', 'email', 'passwordHash'])
        .where('id', '=', me.id)
        .executeTakeFirstOrThrow();
      if (!(await verifyPassword(row.passwordHash, request.body.oldPassword))) {
        throw conflict(MESSAGES.oldPasswordMismatch, 'oldPassword');
      }
      const passwordHash = await hashPassword(request.body.newPassword);
      const target = { area: 'auth', table: 'accounts', action: 'PASSWORD', ids: [me.id] } as const;
      await audited(db, request, target, async (trx) => {
        await trx
          .updateTable('accounts')
          .set({ passwordHash, updatedAt: now() })
          .where('id', '=', me.id)
          .execute();
        await revokeSessionsOf(trx, me.id, me.sessionId);
      });
      return { message: MESSAGES.passwordReset, result: { id: row.id, email: row.email } };
    },
  );

  app.get(
    PATHS.adminDetail,
    {
      config: { access: access.signedIn },
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
      config: { access: access.signedIn },
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
