/**
 * `GET /metrics` in Prometheus's text format (API.md, Operations), only when METRICS_TOKEN is set
 * and only with it as the bearer token. Each app has its own registry (tests build many apps in
 * one process). Requests are counted and timed by route pattern (`/api/v1/poster/:id`, never the
 * URL itself, so the series stay few); a request no route matched counts as `unmatched`.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyPluginAsync } from 'fastify';
import { z } from 'zod';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { DatabaseHandle } from '../db/connect.ts';
import { PgReadPool, SqliteReadPool } from '../db/reads.ts';
import { errorResponse } from '@master-admin/contract';
import { HttpError } from './errors.ts';

export const METRICS_PATH = '/metrics';

/** The counters other modules add to; they count whether or not `/metrics` is served. */
export class Metrics {
  /** METRICS_TOKEN: without it there is no `/metrics`. */
  readonly token: string | undefined;

  readonly registry = new Registry();
  readonly uploadBytes = new Counter({
    name: 'media_upload_bytes_total',
    help: 'Bytes of uploaded files received, by kind (image, video)',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly sweepRemovals = new Counter({
    name: 'media_sweep_removed_files_total',
    help: 'Files the media sweep removed: stored files no row names, and half-written ones',
    registers: [this.registry],
  });
  readonly signInFailures = new Counter({
    name: 'signin_failures_total',
    help: 'Sign-ins refused (401): a wrong identifier or password, a passkey not verified, or an account not active',
    registers: [this.registry],
  });
  readonly eventStreams = new Gauge({
    name: 'event_streams_open',
    help: 'Event streams (GET /api/v1/events) open on this instance',
    registers: [this.registry],
  });
  readonly signInThrottled = new Counter({
    name: 'signin_throttled_total',
    help: 'Sign-ins refused by throttling or the rate limit (429)',
    registers: [this.registry],
  });

  constructor(token: string | undefined) {
    this.token = token;
    // Every kind is a series from the start (at 0), so a rate over it has a beginning.
    for (const kind of ['image', 'video']) this.uploadBytes.inc({ kind }, 0);
  }
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
  interface FastifyContextConfig {
    /** The answer stays open (the event stream): counted, not timed. */
    streaming?: true;
  }
}

/**
 * With a token: prom-client's default metrics, the pools, and every request counted and timed
 * (registered before the routes, so the hook applies to all of them).
 */
export function registerMetrics(app: FastifyInstance, metrics: Metrics, database: DatabaseHandle) {
  app.decorate('metrics', metrics);
  // Without a token nothing reads the series: no per-request cost.
  if (metrics.token === undefined) return;
  const { registry } = metrics;
  collectDefaultMetrics({ register: registry });

  const labelNames = ['route', 'method', 'status'] as const;
  const requests = new Counter({
    name: 'http_requests_total',
    help: 'Requests answered, by route pattern, method and status',
    labelNames,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'http_request_duration_seconds',
    help: 'Time from receiving a request to its answer sent, by route pattern, method and status',
    labelNames,
    registers: [registry],
  });
  app.addHook('onResponse', async (request, reply) => {
    const labels = {
      route: request.routeOptions.url ?? 'unmatched',
      method: request.method,
      status: reply.statusCode,
    };
    requests.inc(labels);
    // A stream lasts minutes or hours: timed with the requests, it would say nothing of them.
    if (!request.routeOptions.config.streaming) duration.observe(labels, reply.elapsedTime / 1000);
  });

  registerPoolGauges(registry, database);
}

/**
 * `GET /metrics` (registered after the API document's plugin, which lists it); without a token
 * it is an unknown route like any other.
 */
export const metricsRoutes: FastifyPluginAsync = async (app) => {
  const { registry, token } = app.metrics;
  if (token === undefined) return;
  const expected = digest(token);
  app.get(
    METRICS_PATH,
    {
      schema: {
        tags: ['operations'],
        summary: 'Metrics in Prometheus text format (only when METRICS_TOKEN is set)',
        description:
          'Needs `Authorization: Bearer <METRICS_TOKEN>` (not a sign-in token); a missing or ' +
          'wrong one answers 401 with the usual JSON error. Without METRICS_TOKEN set there ' +
          'is no such path: 404 with the usual JSON error, as for any unknown path.',
        security: [{ metricsToken: [] }],
        // No query, as on every route of the API: a key given is refused, never ignored.
        querystring: z.strictObject({}),
        produces: ['text/plain'],
        response: {
          200: z.string().meta({ description: 'Prometheus text format 0.0.4' }),
          401: errorResponse.meta({
            description: 'The metrics token is missing or wrong (`WWW-Authenticate: Bearer`)',
          }),
        },
      },
    },
    async (request, reply) => {
      const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization ?? '');
      // Compared as digests: same length, and in constant time.
      if (!match?.[1] || !timingSafeEqual(digest(match[1]), expected)) {
        throw new HttpError(401, 'The metrics token is missing or wrong', {
          headers: { 'www-authenticate': 'Bearer' },
        });
      }
      return reply.type(registry.contentType).send(await registry.metrics());
    },
  );
};

const digest = (value: string) => createHash('sha256').update(value).digest();

/** The database pools, read when scraped: PostgreSQL's two pools, or SQLite's read queue. */
function registerPoolGauges(registry: Registry, database: DatabaseHandle) {
  const { reads, main } = database;
  if (reads instanceof SqliteReadPool) {
    new Gauge({
      name: 'db_read_queue',
      help: 'Reads sent to the SQLite reader threads and not answered yet (waiting or running)',
      registers: [registry],
      collect() {
        this.set(reads.pending);
      },
    });
    return;
  }
  // The main pool serves sign-in and writes; `reads` the list reads; `lookups` the access check.
  const pools = { main, reads, lookups: database.lookups };
  new Gauge({
    name: 'db_pool_connections',
    help: 'PostgreSQL connections by pool (main, reads, lookups) and state (in_use, idle)',
    labelNames: ['pool', 'state'] as const,
    registers: [registry],
    collect() {
      for (const [pool, handle] of Object.entries(pools)) {
        if (!(handle instanceof PgReadPool)) continue;
        const { inUse, idle } = handle.load;
        this.set({ pool, state: 'in_use' }, inUse);
        this.set({ pool, state: 'idle' }, idle);
      }
    },
  });
  new Gauge({
    name: 'db_pool_waiting',
    help: 'Calls waiting for a PostgreSQL connection, by pool (main, reads, lookups)',
    labelNames: ['pool'] as const,
    registers: [registry],
    collect() {
      for (const [pool, handle] of Object.entries(pools)) {
        if (handle instanceof PgReadPool) this.set({ pool }, handle.load.waiting);
      }
    },
  });
}
