import { randomBytes } from 'node:crypto';
import { hash, verify, type Algorithm } from '@node-rs/argon2';
import { MESSAGES } from '@master-admin/contract';
import { passwordStrength } from '@master-admin/contract/password-strength';
import { HttpError } from '../http/errors.ts';

// Algorithm is a const enum, which erasable TypeScript cannot read: 2 is Argon2id.
const ARGON2ID = 2 as Algorithm;

/** argon2id with OWASP's recommended cost (19 MiB, 2 passes). */
const OPTIONS = { algorithm: ARGON2ID, memoryCost: 19_456, timeCost: 2, parallelism: 1 };

export function hashPassword(password: string): Promise<string> {
  return hash(password, OPTIONS);
}

/**
 * Checks a password. With no stored hash (unknown account) it still does the same work against a
 * throw-away hash, so the answer takes as long whether or not the account exists.
 */
export async function verifyPassword(stored: string | null, password: string): Promise<boolean> {
  try {
    return await verify(stored ?? (await decoyHash), password);
  } catch {
    return false;
  }
}

const decoyHash = hashPassword(crypto.randomUUID());

/** Whose password it is: what a password must not be built from. */
export type PasswordOwner = Parameters<typeof passwordStrength>[1];

/**
 * The strength rule (API.md: new passwords are refused when weak) as a route answers it: 400
 * naming `field`, with the reason, for a new password too easy to guess for `owner`.
 */
export async function refuseWeakPassword(password: string, owner: PasswordOwner, field: string) {
  const { ok, reason } = await passwordStrength(password, owner);
  if (!ok) {
    throw new HttpError(400, MESSAGES.weakPassword, {
      details: [{ path: field, message: reason ?? MESSAGES.weakPassword }],
    });
  }
}

/**
 * A random password (16 characters, 96 bits) for the first admin and the operator's tool, one the
 * strength rule accepts (a random one nearly always is; the rare one that spells a word is drawn
 * again).
 */
export async function generatedPassword(): Promise<string> {
  for (;;) {
    const password = randomBytes(12).toString('base64url');
    if ((await passwordStrength(password)).ok) return password;
  }
}
