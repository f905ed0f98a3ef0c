import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PATHS, errorResponse } from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';

/** What readiness checks: the database, and Redis and the bucket when configured. */
type Dependency = 'database' | 'redis' | 'bucket';
/** The parts an instance still serves without (API.md): only what needs them fails, with 503. */
const OPTIONAL = ['redis', 'bucket'] as const;

/** How long readiness waits for each dependency before counting it as failing. */
const CHECK_TIMEOUT_MS = 2000;
/** A bucket's answer is reused this long: a probe every second costs S3 one request in two. */
const BUCKET_CACHE_MS = 2000;

const ready = z.union([
  z.object({ status: z.literal('ready') }),
  z.object({ status: z.literal('degraded'), failing: z.array(z.enum(OPTIONAL)).min(1) }).meta({
    description:
      'Redis (with REDIS_URL) or the media bucket (with MEDIA_STORE=s3) did not answer within ' +
      '2 s: the instance serves everything that does not need it (sign-in needs Redis; ' +
      'uploads and media the bucket), and those calls answer 503',
  }),
]);
const notReady = z.union([
  z
    .object({ status: z.literal('draining'), requestId: z.string() })
    .meta({ description: 'The process got SIGTERM: it finishes its work and stops' }),
  z
    .object({
      status: z.literal('unavailable'),
      failing: z.array(z.literal('database')).min(1),
      requestId: z.string(),
    })
    .meta({ description: 'The database did not answer within 2 s' }),
]);

type Outcome = { ok: true } | { ok: false; err: unknown };

/**
 * `check`, answering within CHECK_TIMEOUT_MS; one at a time (probes that come while it runs get
 * its outcome), and an outcome is reused for `reuseMs` after it came.
 */
function probe(check: (signal: AbortSignal) => Promise<unknown>, reuseMs = 0) {
  let current: Promise<Outcome> | undefined;
  /** When `current` came; infinity while it runs. */
  let settledAt = Number.POSITIVE_INFINITY;
  return () => {
    if (current && Date.now() - settledAt < reuseMs) return current;
    settledAt = Number.POSITIVE_INFINITY;
    const signal = AbortSignal.timeout(CHECK_TIMEOUT_MS);
    const timedOut = new Promise<never>((_, reject) =>
      signal.addEventListener('abort', () => reject(new Error('no answer within 2 s'))),
    );
    current = Promise.race([check(signal), timedOut]).then(
      (): Outcome => ({ ok: true }),
      (err: unknown): Outcome => ({ ok: false, err }),
    );
    void current.then(() => (settledAt = Date.now()));
    return current;
  };
}

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  const { redis, media, database } = app.ctx;
  const store = media.store;

  app.get(
    PATHS.health,
    {
      config: { access: access.public },
      schema: {
        tags: ['health'],
        summary: 'Liveness: the process answers (draining or not)',
        description:
          'Answers at once, whatever the database, Redis or the bucket are doing: it says only ' +
          'that this process is alive. Whether it should get requests is readiness.',
        security: [],
        response: answers(z.object({ status: z.literal('ok') })),
      },
    },
    async () => ({ status: 'ok' as const }),
  );

  // On connections of their own (db/connect.ts): a pool full of writes waiting on a lock is not
  // a database that does not answer.
  const checks: Partial<Record<Dependency, () => Promise<Outcome>>> = {
    database: probe(() => database.probe()),
  };
  if (redis) checks.redis = probe(() => redis.ping());
  if (store.check) checks.bucket = probe((signal) => store.check!(signal), BUCKET_CACHE_MS);

  app.get(
    PATHS.ready,
    {
      config: { access: access.public },
      schema: {
        tags: ['health'],
        summary: 'Readiness: whether a load balancer should send requests here',
        description:
          '200 `ready`; 200 `degraded` while Redis or the media bucket does not answer within ' +
          '2 s (the instance serves what does not need them; a balancer keeps sending). 503 ' +
          '`draining` from SIGTERM on (the instance still serves for DRAIN_SECONDS, then stops), ' +
          'or `unavailable` while the database does not answer within 2 s. Each part is checked ' +
          'at most once at a time; the bucket at most every 2 s.',
        security: [],
        response: { 200: ready, 503: notReady, '4xx': errorResponse, '5xx': errorResponse },
      },
    },
    async (request, reply) => {
      if (app.lifecycle.draining) {
        return reply.code(503).send({ status: 'draining' as const, requestId: request.id });
      }
      const names = Object.keys(checks) as Dependency[];
      const outcomes = await Promise.all(names.map((name) => checks[name]!()));
      const errors = Object.fromEntries(
        names.flatMap((name, i) => {
          const outcome = outcomes[i]!;
          return outcome.ok ? [] : [[name, String(outcome.err)]];
        }),
      );
      const failing = Object.keys(errors) as Dependency[];
      if (failing.length === 0) return { status: 'ready' as const };
      request.log.warn({ errors }, 'readiness: dependencies do not answer');
      if (failing.includes('database')) {
        return reply.code(503).send({
          status: 'unavailable' as const,
          failing: ['database' as const],
          requestId: request.id,
        });
      }
      return { status: 'degraded' as const, failing: failing as Array<(typeof OPTIONAL)[number]> };
    },
  );
};
export default healthRoutes;
