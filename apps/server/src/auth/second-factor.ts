/**
 * Second factors (API.md, "Second factors, passkeys, sessions, device tokens"): what counts as one,
 * TOTP codes (RFC 6238, as authenticator apps make them) and recovery codes, and the sign-in's
 * second step. A second factor is a confirmed TOTP or a passkey; recovery codes come with a TOTP
 * and go with it.
 */
import { createHash, randomBytes, randomInt } from 'node:crypto';
import { PostgresAdapter, sql, type Expression, type RawBuilder, type SqlBool } from 'kysely';
import { Secret, TOTP } from 'otpauth';
import {
  RECOVERY_CODE_COUNT,
  TOTP_DIGITS,
  TOTP_PERIOD_SECONDS,
  type Role,
  type SecondFactorMethod,
} from '@master-admin/contract';
import type { FastifyRequest } from 'fastify';
import type { Db } from '../db/connect.ts';
import { record } from '../features/audit/record.ts';
import { liftEnrolmentOnly, revokeSessionsOf } from './sessions.ts';
import { storeChallenge, type ChallengeKind } from './challenges.ts';
import { now } from '../db/dialect.ts';

export const TOTP_ISSUER = 'Master Admin';

type AccountIdValue = Expression<number> | number;

/** Whether the account has a confirmed TOTP. */
export const hasTotp = (accountId: AccountIdValue): RawBuilder<SqlBool> =>
  sql`exists (select 1 from totp_factors where totp_factors.account_id = ${accountId}
    and totp_factors.confirmed_at is not null)`;
/** Whether the account has a passkey. */
export const hasPasskey = (accountId: AccountIdValue): RawBuilder<SqlBool> =>
  sql`exists (select 1 from passkeys where passkeys.account_id = ${accountId})`;
/** Whether the account has a recovery code not used yet. */
export const hasRecoveryCode = (accountId: AccountIdValue): RawBuilder<SqlBool> =>
  sql`exists (select 1 from recovery_codes where recovery_codes.account_id = ${accountId}
    and recovery_codes.used_at is null)`;
/** The one rule: a second factor is a confirmed TOTP or a passkey. */
export const hasSecondFactor = (accountId: AccountIdValue): RawBuilder<SqlBool> =>
  sql`(${hasTotp(accountId)} or ${hasPasskey(accountId)})`;

/**
 * Whether a session of this account may only enrol a second factor: the owner requires one, the
 * account is STAFF (the owner's own accounts are never held back) and has none. Read with the
 * transaction that starts or changes the session, so the answer and the session agree; on
 * PostgreSQL the setting's row is share-locked, so a change of the setting (which locks it to
 * write) waits for this session and then limits it too, or this waits and reads the new setting.
 */
export async function needsEnrolment(trx: Db, account: { id: number; role: Role }) {
  if (account.role !== 'STAFF') return false;
  let query = trx
    .selectFrom('securitySettings')
    .select((eb) => ['requireSecondFactor', eb.not(hasSecondFactor(account.id)).as('missing')])
    .where('id', '=', 1);
  if (trx.getExecutor().adapter instanceof PostgresAdapter) query = query.forShare();
  const row = await query.executeTakeFirst();
  return Boolean(row?.requireSecondFactor) && Boolean(row?.missing);
}

/**
 * After a factor is removed (its other sessions ended): while the owner requires a factor and the
 * account has none left, the caller's own session may only enrol again, from its next call.
 */
export async function limitIfNoFactorLeft(
  trx: Db,
  account: { id: number; role: Role },
  sessionId: string,
): Promise<void> {
  if (!(await needsEnrolment(trx, account))) return;
  await trx
    .updateTable('sessions')
    .set({ enrolmentOnly: true })
    .where('id', '=', sessionId)
    .execute();
}

/** A code as typed: spaces and dashes are ignored. */
export const typedCode = (code: string) => code.replace(/[\s-]/g, '');

export function newTotpSecret(): string {
  return new Secret({ size: 20 }).base32;
}

function totpOf(secret: string, label = 'Master Admin') {
  return new TOTP({
    issuer: TOTP_ISSUER,
    label,
    secret,
    algorithm: 'SHA1',
    digits: TOTP_DIGITS,
    period: TOTP_PERIOD_SECONDS,
  });
}

/** The `otpauth://` URL an authenticator app scans (as a QR code) to add the account. */
export const otpauthUrl = (secret: string, label: string) => totpOf(secret, label).toString();

/**
 * The time step `code` belongs to when it is the secret's code for now or for one step either
 * side (a phone's clock may drift), else undefined.
 */
export function totpStep(secret: string, code: string, at = Date.now()): number | undefined {
  const token = typedCode(code);
  if (!new RegExp(`^\\d{${TOTP_DIGITS}}$`).test(token)) return undefined;
  const totp = totpOf(secret);
  const delta = totp.validate({ token, timestamp: at, window: 1 });
  return delta === null ? undefined : totp.counter({ timestamp: at }) + delta;
}

/** Crockford's base32: no i, l, o or u, so a code read aloud or copied by hand stays right. */
const RECOVERY_ALPHABET = '0123456789abcdefghjkmnpqrstvwxyz';
const RECOVERY_LENGTH = 10;

/** RECOVERY_CODE_COUNT new codes, `xxxxx-xxxxx` (50 random bits each), all different. */
export function newRecoveryCodes(): string[] {
  const codes = new Set<string>();
  while (codes.size < RECOVERY_CODE_COUNT) {
    let code = '';
    for (let i = 0; i < RECOVERY_LENGTH; i++) code += RECOVERY_ALPHABET[randomInt(32)];
    codes.add(`${code.slice(0, 5)}-${code.slice(5)}`);
  }
  return [...codes];
}

/**
 * What is stored of a recovery code (SHA-256, hex): the codes are random, so a plain hash is
 * enough. Undefined for something that cannot be a code. Case, spaces and dashes do not matter,
 * and the letters Crockford's alphabet reads as digits (i, l → 1; o → 0) are read so.
 */
export function recoveryCodeHash(code: string): string | undefined {
  const normal = typedCode(code).toLowerCase().replace(/[il]/g, '1').replace(/o/g, '0');
  if (normal.length !== RECOVERY_LENGTH || [...normal].some((c) => !RECOVERY_ALPHABET.includes(c)))
    return undefined;
  return createHash('sha256').update(normal).digest('hex');
}

/** Replaces the account's recovery codes with new ones; answers them (shown once). */
export async function replaceRecoveryCodes(trx: Db, accountId: number): Promise<string[]> {
  const codes = newRecoveryCodes();
  const at = now();
  await trx.deleteFrom('recoveryCodes').where('accountId', '=', accountId).execute();
  await trx
    .insertInto('recoveryCodes')
    .values(
      codes.map((code) => ({
        accountId,
        codeHash: recoveryCodeHash(code)!,
        createdAt: at,
        usedAt: null,
      })),
    )
    .execute();
  return codes;
}

/**
 * Spends one of the account's second-step codes: a TOTP code of a time step after the last one
 * accepted, or a recovery code not used before. Answers whether it was good. Each check and its
 * spending are one conditional statement, so of two requests with the same code only one wins.
 * `method` undefined: whichever the code's form says (six digits, or a recovery code).
 */
export async function spendCode(
  trx: Db,
  accountId: number,
  code: string,
  method?: Exclude<SecondFactorMethod, 'passkey'>,
): Promise<boolean> {
  const kind = method ?? (/^\d+$/.test(typedCode(code)) ? 'totp' : 'recovery');
  if (kind === 'recovery') {
    const codeHash = recoveryCodeHash(code);
    if (!codeHash) return false;
    const spent = await trx
      .updateTable('recoveryCodes')
      .set({ usedAt: now() })
      .where('accountId', '=', accountId)
      .where('codeHash', '=', codeHash)
      .where('usedAt', 'is', null)
      .executeTakeFirst();
    return spent.numUpdatedRows > 0n;
  }
  const factor = await trx
    .selectFrom('totpFactors')
    .select('secret')
    .where('accountId', '=', accountId)
    .where('confirmedAt', 'is not', null)
    .executeTakeFirst();
  const step = factor && totpStep(factor.secret, code);
  if (step === undefined) return false;
  const spent = await trx
    .updateTable('totpFactors')
    .set({ lastStep: step })
    .where('accountId', '=', accountId)
    .where('confirmedAt', 'is not', null)
    .where((eb) => eb.or([eb('lastStep', 'is', null), eb('lastStep', '<', step)]))
    .executeTakeFirst();
  return spent.numUpdatedRows > 0n;
}

export const LOGIN_CHALLENGE = 'login' satisfies ChallengeKind;

/**
 * A sign-in's second step: a challenge (32 random bytes) that names the account whose password
 * was right, good for CHALLENGE_MINUTES and one success (auth/challenges.ts, as every challenge).
 */
export async function newLoginChallenge(db: Db, accountId: number): Promise<string> {
  const id = randomBytes(32).toString('base64url');
  await storeChallenge(db, { id, kind: LOGIN_CHALLENGE, accountId });
  return id;
}

/**
 * What adding a factor (an authenticator app, a passkey) brings, wherever it is added: the
 * account's enrolment-only sessions are lifted and the audit log says which factor.
 */
export async function factorAdded(
  trx: Db,
  request: FastifyRequest,
  change: { field: 'totp' | 'passkey'; old: unknown; new: unknown },
): Promise<void> {
  await liftEnrolmentOnly(trx, request.account.id);
  await record(trx, request, {
    area: 'auth',
    rowId: request.account.id,
    action: 'FACTOR_ADDED',
    changes: [change],
  });
}

/**
 * What removing a factor brings (API.md: sessions end on disabling a factor): the caller's other
 * sessions end, the caller's own is limited to enrolment again when the owner requires a factor
 * and none is left, and the audit log says which factor.
 */
export async function factorRemoved(
  trx: Db,
  request: FastifyRequest,
  change: { field: 'totp' | 'passkey'; old: unknown; new: unknown },
): Promise<void> {
  const me = request.account;
  await revokeSessionsOf(trx, me.id, me.sessionId);
  await limitIfNoFactorLeft(trx, me, me.sessionId);
  await record(trx, request, {
    area: 'auth',
    rowId: me.id,
    action: 'FACTOR_REMOVED',
    changes: [change],
  });
}

/**
 * Removes every second factor of an account (its authenticator app, recovery codes and passkeys)
 * and ends all its sessions: the owner's or the operator's remedy when someone else enrolled a
 * factor (API.md "Proof of presence"), or its owner lost theirs. Answers what was removed. The
 * caller records it (FACTORS_RESET) and lifts the account's sign-in locks.
 */
export async function resetFactors(
  trx: Db,
  accountId: number,
): Promise<{ totp: boolean; passkeys: number }> {
  const totp = await trx
    .deleteFrom('totpFactors')
    .where('accountId', '=', accountId)
    .returning('confirmedAt')
    .execute();
  await trx.deleteFrom('recoveryCodes').where('accountId', '=', accountId).execute();
  const passkeys = await trx.deleteFrom('passkeys').where('accountId', '=', accountId).execute();
  await revokeSessionsOf(trx, accountId);
  return {
    totp: totp.some((row) => row.confirmedAt !== null),
    passkeys: passkeys.reduce((n, r) => n + Number(r.numDeletedRows), 0),
  };
}
