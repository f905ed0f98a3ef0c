/**
 * Bearer tokens: HS256 JWTs that carry only a session id. The session row, checked on every call,
 * decides whether the token still works, so revoking it takes effect at once on every instance.
 */
import fs from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { SignJWT, jwtVerify } from 'jose';

const ISSUER = 'master-admin';

export async function signToken(
  secret: Uint8Array,
  claims: { sessionId: string; accountId: number },
  expiresAt: Date,
): Promise<string> {
  return new SignJWT({ sid: claims.sessionId })
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(String(claims.accountId))
    .setIssuer(ISSUER)
    .setIssuedAt()
    .setExpirationTime(expiresAt)
    .sign(secret);
}

/** The session id of a valid token, or undefined for a forged, expired or malformed one. */
export async function readToken(secret: Uint8Array, token: string): Promise<string | undefined> {
  try {
    const { payload } = await jwtVerify(token, secret, { algorithms: ['HS256'], issuer: ISSUER });
    return typeof payload.sid === 'string' ? payload.sid : undefined;
  } catch {
    return undefined;
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
