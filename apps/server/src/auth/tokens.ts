/**
 * Bearer tokens: HS256 JWTs that carry only a session id. The session row, checked on every call,
 * decides whether the token still works, so revoking it takes effect at once on every instance.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHmac, randomBytes } from 'node:crypto';
import { jwtVerify } from 'jose';

const ISSUER = 'master-admin';
const HEADER = Buffer.from(JSON.stringify({ alg: 'HS256', typ: 'JWT' })).toString('base64url');

/**
 * Signs a token (RFC 7519, HS256) in place: jose would sign through WebCrypto's thread pool,
 * and under load each such hop waits its turn, adding to every sign-in. jose verifies.
 */
export async function signToken(
  secret: Uint8Array,
  claims: { sessionId: string; accountId: number },
  expiresAt: Date,
): Promise<string> {
  const payload = Buffer.from(
    JSON.stringify({
      sid: claims.sessionId,
      sub: String(claims.accountId),
      iss: ISSUER,
      iat: Math.floor(Date.now() / 1000),
      exp: Math.floor(expiresAt.getTime() / 1000),
    }),
  ).toString('base64url');
  const signature = createHmac('sha256', secret).update(`${HEADER}.${payload}`).digest('base64url');
  return `${HEADER}.${payload}.${signature}`;
}

const MAX_REMEMBERED_TOKENS = 10_000;

/**
 * Reads tokens, remembering the ones whose signature checked out: a token cannot change, so the
 * signature is checked once, not on every call. Expiry is checked on every call; revocation
 * lives in the session row, which every call reads (sessions.ts), so a remembered token of a
 * revoked session fails on its very next call, on every instance.
 */
export class TokenReader {
  readonly #secret: Uint8Array;
  readonly #verified = new Map<string, { sessionId: string; expiresAtMs: number }>();

  constructor(secret: Uint8Array) {
    this.#secret = secret;
  }

  async sessionOf(token: string): Promise<string | undefined> {
    const known = this.#verified.get(token);
    if (known) return known.expiresAtMs > Date.now() ? known.sessionId : undefined;
    let payload;
    try {
      ({ payload } = await jwtVerify(token, this.#secret, {
        algorithms: ['HS256'],
        issuer: ISSUER,
      }));
    } catch {
      return undefined;
    }
    if (typeof payload.sid !== 'string' || typeof payload.exp !== 'number') return undefined;
    if (this.#verified.size >= MAX_REMEMBERED_TOKENS) {
      this.#verified.delete(this.#verified.keys().next().value!);
    }
    this.#verified.set(token, { sessionId: payload.sid, expiresAtMs: payload.exp * 1000 });
    return payload.sid;
  }
}

/**
 * The signing secret: JWT_SECRET, else one generated on first start into the data folder
 * (mode 0600) so every restart and every instance sharing the folder agree.
 */
export function loadSecret(configured: string | undefined, dataDir: string): Uint8Array {
  if (configured) return new TextEncoder().encode(configured);
  const file = path.join(dataDir, 'jwt-secret');
  fs.mkdirSync(dataDir, { recursive: true });
  try {
    fs.writeFileSync(file, randomBytes(48).toString('base64url'), { mode: 0o600, flag: 'wx' });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  }
  return new TextEncoder().encode(fs.readFileSync(file, 'utf8').trim());
}
