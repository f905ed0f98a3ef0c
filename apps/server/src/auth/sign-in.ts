/**
 * The end of every successful sign-in, whichever way it came (a password, a password and a second
 * factor, a passkey): the session, the login-history row, the audit entry, the device token and
 * the token. One place, so every way in starts the same kind of session: one that may only enrol
 * a second factor when the owner requires one and the account has none.
 */
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { LoginResponse, Role } from '@master-admin/contract';
import type { AppContext } from '../context.ts';
import { now } from '../db/dialect.ts';
import { inTransaction } from '../db/transaction.ts';
import { deviceLabel } from './device.ts';
import { record } from '../features/audit/record.ts';
import { rememberDevice } from './device-token.ts';
import { needsEnrolment } from './second-factor.ts';
import { startSession, type SignInMethod } from './sessions.ts';
import { signToken } from './tokens.ts';

export type SigningIn = {
  id: number;
  role: Role;
  email: string | null;
  phoneNumber: string | null;
};

export async function completeSignIn(
  ctx: Pick<AppContext, 'db' | 'secret' | 'config'>,
  request: FastifyRequest,
  reply: FastifyReply,
  account: SigningIn,
  method: SignInMethod,
): Promise<LoginResponse> {
  const { db, secret, config } = ctx;
  const { sessionId, expiresAt, passwordHash } = await inTransaction(
    db,
    request.log,
    async (trx) => {
      const session = await startSession(trx, {
        accountId: account.id,
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        ttlHours: config.sessionTtlHours,
        method,
        enrolmentOnly: await needsEnrolment(trx, account),
      });
      await trx
        .insertInto('loginHistory')
        .values({
          accountId: account.id,
          ip: request.ip,
          status: 'IN',
          device: deviceLabel(request.headers['user-agent']),
          createdAt: now(),
        })
        .execute();
      const entry = { area: 'auth', rowId: account.id, action: 'SIGN_IN' } as const;
      await record(trx, request, { ...entry, accountId: account.id });
      // What the device token signs: read with the session, so both are of the same password.
      const { passwordHash } = await trx
        .selectFrom('accounts')
        .select('passwordHash')
        .where('id', '=', account.id)
        .executeTakeFirstOrThrow();
      return { ...session, passwordHash };
    },
  );
  // The browser is remembered for this account: the same device (its budget) when it already was.
  rememberDevice(request, reply, secret, { id: account.id, passwordHash });
  const token = await signToken(secret, { sessionId, accountId: account.id }, expiresAt);
  return { token, loginId: account.email ?? account.phoneNumber ?? String(account.id) };
}
