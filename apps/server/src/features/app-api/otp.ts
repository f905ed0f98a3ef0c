/**
 * One-time sign-in codes (API.md "Apps API"): six digits, valid OTP_TTL_SECONDS, kept only as a
 * keyed hash, compared in constant time, ended by OTP_MAX_TRIES wrong tries or by a newer code.
 * They go out through OTP_SENDER: `log` writes them to the server log (development and tests);
 * `webhook` POSTs `{ phoneNumber, code, app }` to OTP_WEBHOOK_URL with
 * `X-Signature: sha256=<HMAC-SHA-256 of "<X-Timestamp>.<body>" with OTP_WEBHOOK_SECRET>`, so any
 * SMS gateway can be wired without code (and can refuse a replayed or forged call).
 */
import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import { PartUnavailable } from '../../http/parts.ts';

/** How long the webhook may take to take a code. */
const WEBHOOK_TIMEOUT_MS = 5_000;

export function newCode(): string {
  return String(randomInt(0, 1_000_000)).padStart(6, '0');
}

/** The code's stored form: keyed with the server's secret (six digits are too few to hash bare). */
export function codeHash(
  secret: Uint8Array,
  masterAppId: number,
  phoneNumber: string,
  code: string,
) {
  return createHmac('sha256', secret)
    .update(`otp:${masterAppId}:${phoneNumber}:${code}`)
    .digest('hex');
}

export function sameHash(a: string, b: string): boolean {
  const x = Buffer.from(a, 'hex');
  const y = Buffer.from(b, 'hex');
  return x.length === y.length && timingSafeEqual(x, y);
}

export type OtpMessage = { phoneNumber: string; code: string; app: { id: number; name: string } };

export interface OtpSender {
  send(message: OtpMessage): Promise<void>;
}

/** The signature a webhook call carries, for the gateway to check (and the tests). */
export function webhookSignature(secret: string, timestamp: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
}

export function otpSender(config: Config['otp'], log: FastifyBaseLogger): OtpSender {
  if (config.sender === 'log') {
    return {
      async send(message) {
        log.info(
          { otp: { phoneNumber: message.phoneNumber, code: message.code, app: message.app.id } },
          'one-time sign-in code (OTP_SENDER=log)',
        );
      },
    };
  }
  return {
    async send(message) {
      const body = JSON.stringify(message);
      const timestamp = String(Math.floor(Date.now() / 1000));
      let answer: Response;
      try {
        answer = await fetch(config.url, {
          method: 'POST',
          headers: {
            'content-type': 'application/json',
            'x-timestamp': timestamp,
            'x-signature': webhookSignature(config.secret, timestamp, body),
          },
          body,
          signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
        });
      } catch (err) {
        throw new PartUnavailable('sms', err);
      }
      if (!answer.ok) {
        throw new PartUnavailable('sms', new Error(`the webhook answered ${answer.status}`));
      }
    },
  };
}
