/**
 * Request ids (API.md, Operations): every request gets one, answered in `X-Request-Id` and
 * carried by every log line of the request (pino's `reqId`) and by a 5xx body (errors.ts). The
 * incoming `X-Request-Id` is kept only from a proxy TRUST_PROXY trusts, so a client cannot plant
 * ids in the logs; anything else gets a new one.
 */
import type { IncomingMessage } from 'node:http';
import { randomUUID } from 'node:crypto';
import proxyAddr from '@fastify/proxy-addr';
import type { FastifyInstance } from 'fastify';

/** What an incoming id may be: short, and nothing a log reader or a header could trip on. */
const INCOMING_ID = /^[A-Za-z0-9._:-]{1,128}$/;

export type TrustProxy = (address: string, hop: number) => boolean;

/**
 * TRUST_PROXY as a function of a peer's address: the one rule both Fastify (`request.ip`) and the
 * request id follow. False: no proxy is trusted.
 */
export function trustProxy(setting: boolean | string): TrustProxy | false {
  if (setting === false) return false;
  if (setting === true) return () => true;
  return proxyAddr.compile(setting.split(',').map((s) => s.trim()));
}

/** Fastify's `genReqId`: the trusted proxy's id when it is well-formed, else a new UUID. */
export function requestIdOf(trust: TrustProxy | false) {
  return (req: IncomingMessage): string => {
    const incoming = req.headers['x-request-id'];
    if (
      trust &&
      typeof incoming === 'string' &&
      INCOMING_ID.test(incoming) &&
      trust(req.socket.remoteAddress ?? '', 0)
    ) {
      return incoming;
    }
    return randomUUID();
  };
}

/** Every answer names its request: registered first, so even a refusal in an early hook has it. */
export function registerRequestId(app: FastifyInstance) {
  app.addHook('onRequest', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
}
