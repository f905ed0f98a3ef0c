import { randomBytes } from 'node:crypto';
import type { Role } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { now } from '../db/dialect.ts';

/** The account behind a request, as the access check and the handlers see it. */
export type SignedIn = { id: number; role: Role; email: string | null; sessionId: string };

export async function startSession(
  db: Db,
  input: { accountId: number; ip: string; userAgent: string | undefined; ttlHours: number },
): Promise<{ sessionId: string; expiresAt: Date }> {
  const sessionId = randomBytes(24).toString('base64url');
  const expiresAt = new Date(Date.now() + input.ttlHours * 3_600_000);
  await db
    .insertInto('sessions')
    .values({
      id: sessionId,
      accountId: input.accountId,
      ip: input.ip.slice(0, 64),
      userAgent: input.userAgent?.slice(0, 512) ?? null,
      createdAt: now(),
      expiresAt: expiresAt.toISOString(),
      revokedAt: null,
    })
    .execute();
  return { sessionId, expiresAt };
}

/**
 * The signed-in account of a live session: not revoked, not expired, the account ACTIVE and
 * allowed into the back-office. Anything else is no session at all.
 */
export async function findSignedIn(db: Db, sessionId: string): Promise<SignedIn | undefined> {
  const row = await db
    .selectFrom('sessions as s')
    .innerJoin('accounts as a', 'a.id', 's.accountId')
    .select(['a.id', 'a.role', 'a.email', 'a.status', 's.expiresAt', 's.revokedAt'])
    .where('s.id', '=', sessionId)
    .executeTakeFirst();
  if (!row || row.revokedAt !== null || row.expiresAt <= now()) return undefined;
  if (row.status !== 'ACTIVE' || row.role === 'USER') return undefined;
  return { id: row.id, role: row.role, email: row.email, sessionId };
}

export async function revokeSession(db: Db, sessionId: string): Promise<void> {
  await db
    .updateTable('sessions')
    .set({ revokedAt: now() })
    .where('id', '=', sessionId)
    .where('revokedAt', 'is', null)
    .execute();
}

/** Ends every session of an account (but `keep`, the caller's own, when given). */
export async function revokeSessionsOf(db: Db, accountId: number, keep?: string): Promise<void> {
  let q = db
    .updateTable('sessions')
    .set({ revokedAt: now() })
    .where('accountId', '=', accountId)
    .where('revokedAt', 'is', null);
  if (keep) q = q.where('id', '<>', keep);
  await q.execute();
}
