/**
 * Device tokens (API.md, "Device tokens"): a browser that signed in to an account keeps a cookie
 * naming that account and a random nonce, signed by the server. A later sign-in to the same account
 * that presents it is throttled on the device's own budget (auth/throttle.ts), so strangers who
 * lock the account cannot lock out its owner's browser. No table: the signature is the proof, and
 * the nonce names the device's failure count.
 *
 * Token: `<accountId>.<nonce>.<HMAC-SHA256>`, the HMAC keyed with a key derived from the JWT
 * secret for this use alone, so a device token can never pass for a JWT's signature or the reverse.
 * It signs the account's password hash too: whatever changes the password (its owner, the owner
 * of the console, the operator's tool) ends every device token of the account at once, on every
 * instance, with nothing to remember; the browser that made the change is given a new one.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { API_BASE } from '@master-admin/contract';

export const DEVICE_COOKIE = 'device';
/** How long a browser is remembered after its last sign-in. */
export const DEVICE_TOKEN_DAYS = 180;
/** Sent only to the sign-in calls, where it is read. */
const COOKIE_PATH = `${API_BASE}/auth`;

export type DeviceToken = { accountId: number; nonce: string };

const FORMAT = /^([1-9]\d{0,9})\.([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/;

const keys = new WeakMap<Uint8Array, Buffer>();
function keyOf(secret: Uint8Array): Buffer {
  let key = keys.get(secret);
  if (!key) {
    key = createHmac('sha256', secret).update('master-admin device token key v1').digest();
    keys.set(secret, key);
  }
  return key;
}

/** The account a device token is for, as it is now: its password hash is signed too. */
export type DeviceAccount = { id: number; passwordHash: string | null };

function signature(secret: Uint8Array, account: DeviceAccount, nonce: string): Buffer {
  return createHmac('sha256', keyOf(secret))
    .update(`${account.id}.${nonce}.${account.passwordHash ?? ''}`)
    .digest();
}

/** A token for `account`: a new device, or (`nonce` given) the same device renewed. */
export function issueDeviceToken(
  secret: Uint8Array,
  account: DeviceAccount,
  nonce: string = randomBytes(16).toString('base64url'),
): string {
  return `${account.id}.${nonce}.${signature(secret, account, nonce).toString('base64url')}`;
}

/**
 * What a device token says of `account`: the token (valid: this server signed it for this
 * account since its last password change), `'other'` (it names another account), or `'refused'`
 * (forged, damaged, signed with another secret, or ended by a password change).
 */
export function verifyDeviceToken(
  secret: Uint8Array,
  value: string,
  account: DeviceAccount,
): DeviceToken | 'other' | 'refused' {
  const match = FORMAT.exec(value);
  if (!match) return 'refused';
  const accountId = Number(match[1]);
  if (accountId !== account.id) return 'other';
  const nonce = match[2]!;
  const given = Buffer.from(match[3]!, 'base64url');
  const expected = signature(secret, account, nonce);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return 'refused';
  return { accountId, nonce };
}

/** The value of the request's device cookie (the first, when several), if it sends one. */
function deviceCookie(request: FastifyRequest): string | undefined {
  const header = request.headers.cookie;
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const at = part.indexOf('=');
    if (at < 0 || part.slice(0, at).trim() !== DEVICE_COOKIE) continue;
    return part.slice(at + 1).trim();
  }
  return undefined;
}

/**
 * The device token the request presents, as it stands for `account` (`verifyDeviceToken`);
 * undefined for none.
 */
export function readDeviceToken(
  request: FastifyRequest,
  secret: Uint8Array,
  account: DeviceAccount,
): DeviceToken | 'other' | 'refused' | undefined {
  const value = deviceCookie(request);
  return value === undefined ? undefined : verifyDeviceToken(secret, value, account);
}

/** The nonce of the request's valid device token for `account`, if it presents one. */
export function knownDevice(
  request: FastifyRequest,
  secret: Uint8Array,
  account: DeviceAccount,
): string | undefined {
  const token = readDeviceToken(request, secret, account);
  return typeof token === 'object' ? token.nonce : undefined;
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[?::1\]?)$/i;
const LOOPBACK_IP = /^(127(\.\d{1,3}){3}|::1|::ffff:127(\.\d{1,3}){3})$/;

/**
 * Plain HTTP on the machine itself (`npm start` opened at http://localhost:3000): the one case
 * where the cookie goes without `Secure`, which a browser would refuse over HTTP. Behind a proxy
 * that terminates TLS, TRUST_PROXY makes `request.protocol` https.
 */
function plainLoopback(request: FastifyRequest): boolean {
  return (
    request.protocol === 'http' &&
    LOOPBACK_HOST.test(request.hostname) &&
    LOOPBACK_IP.test(request.ip)
  );
}

/**
 * Gives the browser a device token for `account` to keep (a successful sign-in's answer, a
 * password change's): the same device (its nonce, so its budget) when it presents a valid one.
 * `before`: the account as it was when the request came (a password change's old hash).
 */
export function rememberDevice(
  request: FastifyRequest,
  reply: FastifyReply,
  secret: Uint8Array,
  account: DeviceAccount,
  before: DeviceAccount = account,
) {
  const nonce = knownDevice(request, secret, before);
  setDeviceCookie(request, reply, issueDeviceToken(secret, account, nonce));
}

/** Gives the browser `token` to keep. */
function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
  const attributes = [
    `${DEVICE_COOKIE}=${token}`,
    `Max-Age=${DEVICE_TOKEN_DAYS * 24 * 3600}`,
    `Path=${COOKIE_PATH}`,
    'HttpOnly',
    'SameSite=Strict',
    ...(plainLoopback(request) ? [] : ['Secure']),
  ];
  void reply.header('set-cookie', attributes.join('; '));
}
