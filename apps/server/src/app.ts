import Fastify, { type FastifyInstance } from 'fastify';
import {
  jsonSchemaTransform,
  serializerCompiler,
  validatorCompiler,
} from 'fastify-type-provider-zod';
import formbody from '@fastify/formbody';
import helmet from '@fastify/helmet';
import multipart from '@fastify/multipart';
import rateLimit from '@fastify/rate-limit';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { Redis } from 'ioredis';
import { API_BASE, MESSAGES } from '@master-admin/contract';
import type { AppContext } from './context.ts';
import { registerAccessCheck } from './http/access.ts';
import { HttpError, handleError } from './http/errors.ts';
import { registerMedia, registerWebApp } from './http/web.ts';
import { documentUploads, registerUploads } from './media/uploads.ts';
import healthRoutes from './features/health/routes.ts';
import authRoutes from './features/auth/routes.ts';
import masterAppRoutes from './features/master-apps/routes.ts';
import dashboardRoutes from './features/dashboard/routes.ts';
import bannerRoutes from './features/banners/routes.ts';
import blogRoutes from './features/blogs/routes.ts';
import pageRoutes from './features/pages/routes.ts';
import faqRoutes from './features/faqs/routes.ts';
import categoryRoutes from './features/categories/routes.ts';
import specialDayRoutes from './features/special-days/routes.ts';
import contactUsRoutes from './features/contact-us/routes.ts';
import settingsRoutes from './features/settings/routes.ts';
import notificationRoutes from './features/notifications/routes.ts';

export async function buildApp(ctx: AppContext): Promise<FastifyInstance> {
  const { config } = ctx;
  const app = Fastify({
    logger:
      config.logLevel === 'silent'
        ? false
        : { level: config.logLevel, redact: ['req.headers.authorization'] },
    trustProxy: config.trustProxy,
    bodyLimit: config.bodyLimitBytes,
    requestTimeout: config.requestTimeoutMs,
    connectionTimeout: config.requestTimeoutMs,
    return503OnClosing: true,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: 200 },
  });
  app.decorate('ctx', ctx);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.setErrorHandler(handleError);
  // Bodies are JSON, form-encoded or multipart (API.md); anything else is a 415.
  app.removeContentTypeParser('text/plain');

  await app.register(helmet, {
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        // Mantine writes its theme variables into a <style> element.
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Images in object storage load from its public URL's origin.
        imgSrc: [
          "'self'",
          'data:',
          'blob:',
          ...(config.media.store === 's3' ? [new URL(config.media.publicUrl).origin] : []),
        ],
        mediaSrc: ["'self'", 'blob:'],
        fontSrc: ["'self'", 'data:'],
        connectSrc: ["'self'"],
        frameSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    // The web app's media and the video embed are loaded from other origins only by choice.
    crossOriginResourcePolicy: { policy: 'same-site' },
    hsts: config.env === 'production' ? undefined : false,
  });

  await app.register(formbody, { bodyLimit: config.bodyLimitBytes });
  const fileLimits = { image: config.uploads.maxImageBytes };
  await app.register(multipart, {
    attachFieldsToBody: 'keyValues',
    limits: {
      fields: 50,
      fieldSize: config.bodyLimitBytes,
      files: 5,
      parts: 60,
      // The per-kind limits are checked while streaming; this only stops a runaway part.
      fileSize: Math.max(...Object.values(fileLimits)) + 1,
    },
    // Routes declare their file fields (`config.uploads`); elsewhere a file part is refused.
    onFile: registerUploads(app, fileLimits),
  });

  await app.register(rateLimit, {
    global: false,
    ...(config.redisUrl
      ? { redis: new Redis(config.redisUrl, { connectTimeout: 2000, maxRetriesPerRequest: 1 }) }
      : {}),
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
          '`Authorization: Bearer <token>`. Errors answer `{ statusCode, error, message, details? }`.',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
      security: [{ bearer: [] }],
    },
    transform: (input) => {
      const { schema, url } = jsonSchemaTransform(input);
      return { schema: documentUploads(schema, input.route.config?.uploads), url };
    },
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });

  registerAccessCheck(app, ctx.db, ctx.secret);

  await app.register(
    async (api) => {
      await api.register(healthRoutes);
      await api.register(authRoutes);
      await api.register(masterAppRoutes);
      await api.register(dashboardRoutes);
      await api.register(bannerRoutes);
      await api.register(blogRoutes);
      await api.register(pageRoutes);
      await api.register(faqRoutes);
      await api.register(categoryRoutes);
      await api.register(specialDayRoutes);
      await api.register(contactUsRoutes);
      await api.register(settingsRoutes);
      await api.register(notificationRoutes);
    },
    { prefix: API_BASE },
  );

  if (config.media.store === 'local') await registerMedia(app, config.media.dir);
  await registerWebApp(app, config.web.serve ? config.web.dist : undefined);

  // Shutting down waits for open connections. One idle at that moment is closed at once, but a
  // keep-alive connection whose request was still under way would stay open after its answer
  // (until the keep-alive timeout): answers sent while closing end their connection.
  let closing = false;
  app.addHook('preClose', async () => {
    closing = true;
  });
  app.addHook('onSend', async (_request, reply) => {
    if (closing) void reply.header('connection', 'close');
  });
  app.addHook('onClose', async () => {
    await ctx.database.close();
  });
  return app;
}
