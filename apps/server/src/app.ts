import Fastify, { LogController, type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import zlib from 'node:zlib';
import compress from '@fastify/compress';
import formbody from '@fastify/formbody';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { API_BASE, MESSAGES } from '@master-admin/contract';
import type { AppContext } from './context.ts';
import { registerAccessCheck } from './http/access.ts';
import { registerLastSeen } from './auth/last-seen.ts';
import { HttpError, handleError } from './http/errors.ts';
import { documentAnswerTypes, documentBlanks, documentRecentProof } from './http/schemas.ts';
import { refuseUndeclaredQueries } from './http/validation.ts';
import { registerMedia, registerWebApp } from './http/web.ts';
import { registerSecurityHeaders } from './http/security-headers.ts';
import { registerLifecycle } from './http/lifecycle.ts';
import { registerDeadline } from './http/deadline.ts';
import { Metrics, metricsRoutes, registerMetrics } from './http/metrics.ts';
import { registerRequestId, requestIdOf, trustProxy } from './http/request-id.ts';
import { mediaOrigins } from './media/store.ts';
import { documentBody, registerUploads } from './media/uploads.ts';
import { prepareUploadTemp, startMediaSweeps } from './media/housekeeping.ts';
import healthRoutes from './features/health/routes.ts';
import authRoutes from './features/auth/routes.ts';
import totpRoutes from './features/auth/totp.ts';
import securityRoutes from './features/auth/security.ts';
import passkeyRoutes from './features/auth/passkeys.ts';
import reauthRoutes from './features/auth/reauth.ts';
import sessionRoutes from './features/auth/sessions-routes.ts';
import masterAppRoutes from './features/master-apps/routes.ts';
import dashboardRoutes from './features/dashboard/routes.ts';
import bannerRoutes from './features/banners/routes.ts';
import blogRoutes from './features/blogs/routes.ts';
import pageRoutes from './features/pages/routes.ts';
import faqRoutes from './features/faqs/routes.ts';
import categoryRoutes from './features/categories/routes.ts';
import specialDayRoutes from './features/special-days/routes.ts';
import planningRoutes from './features/planning/routes.ts';
import contactUsRoutes from './features/contact-us/routes.ts';
import settingsRoutes from './features/settings/routes.ts';
import notificationRoutes from './features/notifications/routes.ts';
import posterRoutes from './features/posters/routes.ts';
import videoRoutes, { videoEmbedRoutes } from './features/videos/routes.ts';
import posterPreviewRoutes from './features/posters/preview.ts';
import userRoutes from './features/users/routes.ts';
import userImageRoutes from './features/users/images.ts';
import staffRoutes from './features/staff/routes.ts';
import menuRoutes from './features/staff/menus.ts';
import auditRoutes from './features/audit/routes.ts';
import eventRoutes from './features/events/routes.ts';
import trashRoutes from './features/trash/routes.ts';
import { sweepTrash } from './features/trash/service.ts';
import { Presence } from './events/presence.ts';
import { EventStreams } from './events/streams.ts';
import { registerAuditGuard } from './features/audit/record.ts';
import { registerVersions } from './http/versions.ts';
import { registerIdempotency } from './http/idempotency.ts';
import { logStreamFor } from './log-format.ts';
import { isAppRoute, registerAppApi } from './features/app-api/index.ts';

/** `logStream`: where log lines go instead of stdout (tests read them). */
export async function buildApp(
  ctx: AppContext,
  options: { logStream?: { write(line: string): void } } = {},
): Promise<FastifyInstance> {
  const { config } = ctx;
  const trust = trustProxy(config.trustProxy);
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : {
            level: config.logLevel,
            redact: ['req.headers.authorization'],
            stream: options.logStream ?? logStreamFor(config.logFormat),
          },
    trustProxy: trust,
    genReqId: requestIdOf(trust),
    // A URL Fastify cannot route (bad percent-encoding): the one error path, with its request id.
    frameworkErrors: (err, request, reply) => {
      void reply.header('x-request-id', request.id);
      void handleError.call(request.server, err, request, reply);
    },
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    // A request that reaches a closing server came on a connection it already had: served, not
    // refused (http/lifecycle.ts).
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
    // One access-log line per request (below) instead of Fastify's two with whole request and
    // response objects: at thousands of requests a second, that halves what logging costs.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.decorate('ctx', ctx);
  registerRequestId(app);
  registerLifecycle(app);
  registerDeadline(app, config.requestDeadlineMs);
  const metrics = new Metrics(config.metricsToken);
  registerMetrics(app, metrics, ctx.database);
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        method: request.method,
        url: request.url,
        status: reply.statusCode,
        ms: Math.round(reply.elapsedTime * 10) / 10,
        ip: request.ip,
      },
      'request',
    );
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  // Bodies are JSON, form-encoded or multipart (API.md); anything else is a 415.
  app.removeContentTypeParser('text/plain');

  registerSecurityHeaders(app, {
    mediaOrigins: mediaOrigins(config),
    hsts: config.env === 'production',
  });

  // Answers of more than a kilobyte are compressed for browsers that accept it (the web app's
  // built files come compressed already; images are not compressible).
  await app.register(compress, {
    global: true,
    threshold: 1024,
    encodings: ['br', 'gzip'],
    // Brotli's quality 4 compresses about as well as gzip 6 at a fraction of 11's time.
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(formbody, { bodyLimit: config.bodyLimitBytes });
  const fileLimits = {
    image: config.uploads.maxImageBytes,
    video: config.uploads.maxVideoBytes,
  };
  await app.register(multipart, {
    // The parser keeps up to 1 MB of a file part ready while the previous batch is being written
    // to disk, so receiving and writing overlap on a large video (the default 64 kB stalls it).
    fileHwm: 1024 * 1024,
    limits: {
      fields: 50,
      fieldSize: config.bodyLimitBytes,
      files: 5,
      parts: 60,
      // The per-kind limits are checked while streaming; this only stops a runaway part.
      fileSize: Math.max(...Object.values(fileLimits)) + 1,
    },
  });
  // Routes declare their file fields (`config.uploads`); elsewhere a file part is refused.
  registerUploads(app, {
    limits: fileLimits,
    tmpDir: prepareUploadTemp(config.dataDir, app.log),
    onReceived: (kind, bytes) => metrics.uploadBytes.inc({ kind }, bytes),
  });
  // ioredis reconnects by itself; unheard, each failed attempt would print a stack to stderr.
  ctx.redis?.on('error', (err: unknown) => app.log.warn({ err }, 'Redis connection error'));
  const sweeps = startMediaSweeps(ctx.media, {
    ...config.mediaSweep,
    // The trash's sweep first: the files of the rows it purges go in the same round.
    before: () => sweepTrash(ctx.db, ctx.media, config.trashDays, app.log),
    log: app.log,
    removals: metrics.sweepRemovals,
  });
  app.decorate('mediaSweeps', sweeps);

  await app.register(rateLimit, {
    global: false,
    ...(ctx.redis ? { redis: ctx.redis } : {}),
    // The coarse flood guard lets requests through while Redis does not answer; the calls that
    // need Redis themselves (sign-in's counts) answer 503.
    skipOnError: true,
    errorResponseBuilder: (_request, context) =>
      new HttpError(429, MESSAGES.tooManyRequests, {
        headers: { 'retry-after': String(Math.ceil(context.ttl / 1000)) },
      }),
  });

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Master Admin API',
        version: '1.0.0',
        description:
          'The HTTP contract of Master Admin. Every call but login, health and /public needs ' +
          '`Authorization: Bearer <token>`. Errors answer `{ statusCode, error, message, details? }`.' +
          '\n\nBodies may be JSON, form-encoded or multipart (files only in multipart). Values are ' +
          'read as a form sends them, whatever the body type: a number or boolean may come as ' +
          'text ("12", "true"/"false", "1"/"0"), and an empty string for an optional field means ' +
          'the field is absent. Text fields refuse control characters (multi-line fields keep ' +
          'tab and newline) and are trimmed (multi-line ones also read CRLF as LF) before their ' +
          'length is checked. A path id is digits only, without leading zeros. A method a path ' +
          'does not take answers 405 with `Allow` (OPTIONS included: there is no CORS); an ' +
          'unknown path, 404.',
      },
      components: {
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
          metricsToken: { type: 'http', scheme: 'bearer', description: 'METRICS_TOKEN' },
        },
      },
      security: [{ bearer: [] }],
    },
    transform: (input) => {
      const { schema, url } = jsonSchemaTransform(input);
      // The apps API has its own document (/api/app/docs).
      if (isAppRoute(input.url)) return { schema: { ...schema, hide: true }, url };
      return {
        schema: documentAnswerTypes(
          documentBody(
            documentRecentProof(documentBlanks(schema), input.route.config?.recentProof),
            input.route.config?.uploads,
            fileLimits,
            input.route.config?.jsonBody,
          ),
        ),
        url,
      };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  // The event stream and presence (API.md "Events"): one sweeper and a few timers for all.
  ctx.events.log = app.log;
  ctx.media.log = app.log;
  const presenceTtlMs = config.events.presenceTtlSeconds * 1000;
  const presence = new Presence(ctx.db, ctx.events, app.log, {
    ttlMs: presenceTtlMs,
    // Expiry noticed within a few seconds (sooner with a short TTL).
    sweepMs: Math.min(2_000, presenceTtlMs / 4),
  });
  const eventStreams = new EventStreams({
    db: ctx.db,
    bus: ctx.events,
    presence,
    log: app.log,
    options: { heartbeatMs: config.events.heartbeatSeconds * 1000, checkMs: 5_000 },
    onCount: (open) => metrics.eventStreams.set(open),
  });
  app.decorate('presence', presence);
  app.decorate('eventStreams', eventStreams);
  eventStreams.start();
  presence.startSweeping();
  // Open streams would hold the close up for ever: they end first (clients reconnect elsewhere).
  app.addHook('preClose', async () => eventStreams.close());

  registerAccessCheck(app, ctx.database, ctx.secret);
  registerLastSeen(app, ctx.db);
  refuseUndeclaredQueries(app);
  registerAuditGuard(app, config.env !== 'production');
  registerVersions(app);
  // After the access check (a key belongs to the caller's account) and If-Match's check.
  registerIdempotency(app, { secret: ctx.secret });

  await registerAppApi(app, fileLimits);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(totpRoutes);
      await api.register(securityRoutes);
      await api.register(passkeyRoutes);
      await api.register(reauthRoutes);
      await api.register(sessionRoutes);
      await api.register(masterAppRoutes);
      await api.register(dashboardRoutes);
      await api.register(bannerRoutes);
      await api.register(blogRoutes);
      await api.register(pageRoutes);
      await api.register(faqRoutes);
      await api.register(categoryRoutes);
      await api.register(specialDayRoutes);
      await api.register(planningRoutes);
      await api.register(contactUsRoutes);
      await api.register(settingsRoutes);
      await api.register(notificationRoutes);
      await api.register(posterRoutes);
      await api.register(videoRoutes);
      await api.register(posterPreviewRoutes);
      await api.register(userRoutes);
      await api.register(userImageRoutes);
      await api.register(staffRoutes);
      await api.register(menuRoutes);
      await api.register(auditRoutes);
      await api.register(eventRoutes);
      await api.register(trashRoutes);
    },
    { prefix: API_BASE },
  );

  await app.register(metricsRoutes);
  if (config.media.store === 'local') await registerMedia(app, config.media.dir);
  await app.register(videoEmbedRoutes);
  await registerWebApp(app, config.web.serve ? config.web.dist : undefined);

  app.addHook('onClose', async () => {
    await sweeps.stop();
    await presence.stop();
    await ctx.events.close();
    await ctx.redis?.quit().catch(() => undefined);
    await ctx.database.close();
  });
  return app;
}
