/**
 * Device tokens (API.md, "Device tokens"): a browser that signed in to an account keeps a cookie
 * naming that account and a random nonce, signed by the server. A later sign-in to the same account
 * that presents it is throttled on the device's own budget (auth/throttle.ts), so strangers who
 * lock the account cannot lock out its owner's browser. No table: the signature is the proof, and
 * the nonce names the device's failure count.
 *
 * Token: `<accountId>.<nonce>.<HMAC-SHA256>`, the HMAC keyed with a key derived from the JWT
 * secret for this use alone, so a device token can never pass for a JWT's signature or the reverse.
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

function signature(secret: Uint8Array, accountId: number, nonce: string): Buffer {
  return createHmac('sha256', keyOf(secret)).update(`${accountId}.${nonce}`).digest();
}

/** A token for `accountId`: a new device, or (`nonce` given) the same device renewed. */
export function issueDeviceToken(
  secret: Uint8Array,
  accountId: number,
  nonce: string = randomBytes(16).toString('base64url'),
): string {
  return `${accountId}.${nonce}.${signature(secret, accountId, nonce).toString('base64url')}`;
}

/** The token if this server signed it, else undefined. */
export function verifyDeviceToken(secret: Uint8Array, value: string): DeviceToken | undefined {
  const match = FORMAT.exec(value);
  if (!match) return undefined;
  const accountId = Number(match[1]);
  const nonce = match[2]!;
  const given = Buffer.from(match[3]!, 'base64url');
  const expected = signature(secret, accountId, nonce);
  if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
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
 * The device token the request presents: a valid one, `'refused'` for a device cookie this server
 * did not sign (forged, damaged, or signed with another secret), undefined for none.
 */
export function readDeviceToken(
  request: FastifyRequest,
  secret: Uint8Array,
): DeviceToken | 'refused' | undefined {
  const value = deviceCookie(request);
  if (value === undefined) return undefined;
  return verifyDeviceToken(secret, value) ?? 'refused';
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

/** Gives the browser `token` to keep (a successful sign-in's answer). */
export function setDeviceCookie(request: FastifyRequest, reply: FastifyReply, token: string) {
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
