/**
 * Security events of the sign-in calls and the proofs of presence: entries about an account that
 * are kept though the request that saw them fails (a wrong password, a throttled attempt).
 */
import type { FastifyRequest } from 'fastify';
import type { AuditAction, AuditChange } from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import type { Attempt } from '../../auth/throttle.ts';
import { HttpError } from '../../http/errors.ts';
import { recordAlone } from '../audit/record.ts';

/** A security event about `accountId`, kept though the request that saw it fails. */
export const securityEvent = (
  db: Db,
  request: FastifyRequest,
  accountId: number,
  action: AuditAction,
  changes?: AuditChange[],
) =>
  recordAlone(db, request, {
    area: 'auth',
    rowId: accountId,
    action,
    accountId,
    ...(changes ? { changes } : {}),
  });

/** Runs `begin` (a throttle's decision); a refusal of an existing account's attempt is audited. */
export async function throttled(
  db: Db,
  request: FastifyRequest,
  accountId: number | undefined,
  begin: () => Promise<Attempt>,
): Promise<Attempt> {
  try {
    return await begin();
  } catch (err) {
    if (accountId !== undefined && err instanceof HttpError && err.statusCode === 429) {
      await securityEvent(db, request, accountId, 'SIGN_IN_THROTTLED');
    }
    throw err;
  }
}
