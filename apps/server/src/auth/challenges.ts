/**
 * Challenges handed out for a ceremony that ends in a later call (a WebAuthn registration or
 * sign-in): one row each in auth_challenges, good for CHALLENGE_MINUTES and for one use. Using
 * one is a single conditional update, so two calls presenting the same challenge cannot both
 * pass, whichever instance answers them.
 */
import { CHALLENGE_MINUTES } from '@master-admin/contract';
import type { Db } from '../db/connect.ts';
import { now } from '../db/dialect.ts';

export type ChallengeKind = 'login' | 'passkey-register' | 'passkey-login' | 'passkey-reauth';

/** Stores `id` (the challenge itself, random) as a challenge of `kind`, for `accountId` if any. */
export async function storeChallenge(
  db: Db,
  input: { id: string; kind: ChallengeKind; accountId: number | null },
): Promise<void> {
  const at = Date.now();
  // Challenges nobody used are of no use once expired: each new one clears those.
  await db
    .deleteFrom('authChallenges')
    .where('expiresAt', '<=', new Date(at).toISOString())
    .execute();
  await db
    .insertInto('authChallenges')
    .values({
      id: input.id,
      kind: input.kind,
      accountId: input.accountId,
      createdAt: new Date(at).toISOString(),
      expiresAt: new Date(at + CHALLENGE_MINUTES * 60_000).toISOString(),
      usedAt: null,
    })
    .execute();
}

/**
 * Uses the challenge `id` of `kind` (of `accountId`, when given): answers the account it was
 * handed out for (null: none) when it was there, unexpired and unused, and is now used; undefined
 * otherwise, and nothing changed.
 */
export async function useChallenge(
  db: Db,
  input: { id: string; kind: ChallengeKind; accountId?: number },
): Promise<{ accountId: number | null } | undefined> {
  const at = now();
  let update = db
    .updateTable('authChallenges')
    .set({ usedAt: at })
    .where('id', '=', input.id)
    .where('kind', '=', input.kind)
    .where('usedAt', 'is', null)
    .where('expiresAt', '>', at);
  if (input.accountId !== undefined) update = update.where('accountId', '=', input.accountId);
  return update.returning('accountId').executeTakeFirst();
}
