import { hash, verify, type Algorithm } from '@node-rs/argon2';

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
