/**
 * Leaving a load balancer without losing a request (API.md, Operations). On SIGTERM or SIGINT:
 *
 * 1. Draining: readiness (`health/ready`) answers 503 at once; everything else is served as
 *    before, each answer closing its connection, for DRAIN_SECONDS, so the balancer's probe
 *    notices and sends no more, and clients open their next connection elsewhere.
 * 2. The listener closes: no new connections. Requests under way finish, for up to
 *    SHUTDOWN_TIMEOUT_SECONDS; a request that still arrives on a connection the server already
 *    had is served too (a 503 to a request the proxy already sent would be a lost request).
 * 3. The pools close (database, reader threads, Redis, media sweeps) and the process exits 0.
 *
 * When requests are still under way at the timeout, their connections are cut, the pools get
 * FORCE_GRACE_MS more to close, and the process exits 1 (requests were lost: it was not clean).
 * Each further signal ends the current wait at once: the drain period, then the wait for requests
 * under way (cutting them, as the timeout would).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';

export class Lifecycle {
  /** From the signal on: readiness answers 503 and answers close their connection. */
  draining = false;
}

declare module 'fastify' {
  interface FastifyInstance {
    lifecycle: Lifecycle;
  }
}

export function registerLifecycle(app: FastifyInstance) {
  const lifecycle = new Lifecycle();
  app.decorate('lifecycle', lifecycle);
  app.addHook('onSend', async (_request, reply) => {
    if (lifecycle.draining) void reply.header('connection', 'close');
  });

  // Each connection: its requests under way, and how much it had sent when its last one ended.
  // Node's close ends idle keep-alive connections, but not one that has sent nothing since (a new
  // one waits for its headers, up to a minute): a client that opened connections ahead of
  // requests it never sent (a browser's preconnect, a fetch pool) would hold the close up past
  // its timeout. One that has sent part of a request keeps it: that request is served.
  const connections = new Map<Socket, { underWay: number; readAtRest: number }>();
  app.server.on('connection', (socket: Socket) => {
    connections.set(socket, { underWay: 0, readAtRest: 0 });
    socket.once('close', () => connections.delete(socket));
  });
  app.server.on('request', (request: IncomingMessage, response: ServerResponse) => {
    const { socket } = request;
    const state = connections.get(socket);
    if (!state) return;
    state.underWay += 1;
    response.once('close', () => {
      state.underWay -= 1;
      state.readAtRest = socket.bytesRead;
    });
  });

  // Closed without a drain (the tests, a failed start): answers still end their connection, or
  // a keep-alive connection would hold the close up until its timeout. A connection silent since
  // its last answer (or since it opened) is ended now: it sent nothing that would be lost.
  app.addHook('preClose', async () => {
    lifecycle.draining = true;
    for (const [socket, state] of connections) {
      if (state.underWay === 0 && socket.bytesRead === state.readAtRest) socket.destroy();
    }
  });
}

export type ShutdownOptions = { drainSeconds: number; timeoutSeconds: number };

const FORCE_GRACE_MS = 5000;

/** Runs the sequence above on the first SIGTERM or SIGINT, and exits. */
export function exitOnSignals(app: FastifyInstance, options: ShutdownOptions) {
  let skipWait: (() => void) | undefined;
  /** `ms`, or less when a further signal comes. */
  const wait = (ms: number) =>
    new Promise<void>((resolve) => {
      const timer = setTimeout(done, ms);
      function done() {
        clearTimeout(timer);
        skipWait = undefined;
        resolve();
      }
      skipWait = done;
    });

  async function shutDown(signal: string): Promise<number> {
    app.lifecycle.draining = true;
    app.log.info(
      { signal, drainSeconds: options.drainSeconds },
      'shutdown: draining (readiness answers 503, requests are still served)',
    );
    await wait(options.drainSeconds * 1000);
    app.log.info(
      { timeoutSeconds: options.timeoutSeconds },
      'shutdown: no new connections; finishing requests under way',
    );
    let closed = false;
    const closing = app.close().then(() => (closed = true));
    await Promise.race([closing, wait(options.timeoutSeconds * 1000)]);
    if (!closed) {
      app.log.error('shutdown: requests still under way at the timeout; cutting their connections');
      app.server.closeAllConnections();
      await Promise.race([closing, wait(FORCE_GRACE_MS)]);
      return 1;
    }
    app.log.info('shutdown: done, requests finished and pools closed');
    return 0;
  }

  let started = false;
  const onSignal = (signal: string) => {
    if (started) {
      app.log.warn({ signal }, 'shutdown: another signal, the current wait ends now');
      skipWait?.();
      return;
    }
    started = true;
    shutDown(signal).then(
      (code) => process.exit(code),
      (err: unknown) => {
        app.log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => onSignal('SIGTERM'));
  process.on('SIGINT', () => onSignal('SIGINT'));
}
