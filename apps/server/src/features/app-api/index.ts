/**
 * The content apps' API (API.md "Apps API"): its access check, its routes under `/api/app/v1`,
 * and its own OpenAPI document and pages at `/api/app/docs` (the back-office's document leaves
 * these routes out, and this one everything else).
 */
import type { FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUiRoutes from '@fastify/swagger-ui/lib/routes.js';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import {
  APP_API_BASE,
  APP_API_DOCS,
  APP_KEY_HEADER,
  OTP_TTL_SECONDS,
} from '@master-admin/contract';
import { documentAnswerTypes, documentBlanks } from '../../http/schemas.ts';
import { documentBody } from '../../media/uploads.ts';
import { ACCESS_TOKEN_SECONDS, registerAppAccess } from './access.ts';
import authRoutes from './auth-routes.ts';
import contentRoutes from './content-routes.ts';
import meRoutes from './me-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The apps API's OpenAPI document. */
    appSwagger: () => Record<string, unknown>;
  }
}

/** Whether a route belongs to the apps API. */
export const isAppRoute = (url: string) => url.startsWith(`${APP_API_BASE}/`);

const DESCRIPTION =
  'What the content apps call. Every call carries `X-App-Key: <key>` (shown on Master Apps): ' +
  'it names the app, and every answer holds only that app’s rows. Missing or unknown: 401.' +
  '\n\nSign-in: `POST auth/otp/request` sends a 6-digit code by SMS (valid ' +
  `${OTP_TTL_SECONDS / 60} minutes); \`POST auth/otp/verify\` answers an access token (valid ` +
  `${ACCESS_TOKEN_SECONDS / 60} minutes) and a refresh token (used once; \`POST auth/refresh\` ` +
  'answers the next pair). The user’s own calls carry `Authorization: Bearer <accessToken>`.' +
  '\n\nErrors answer `{ statusCode, error, message, details? }`; a bad field is a 400 naming ' +
  'it. Content answers carry an ETag (`If-None-Match` → 304). Every change takes an ' +
  '`Idempotency-Key`. Media URLs are immutable.';

export async function registerAppApi(
  app: FastifyInstance,
  fileLimits: Record<'image' | 'video', number>,
) {
  registerAppAccess(app, app.ctx.db, app.ctx.secret);

  await app.register(swagger, {
    decorator: 'appSwagger',
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Master Admin apps API', version: '1.0.0', description: DESCRIPTION },
      components: {
        securitySchemes: {
          appKey: { type: 'apiKey', in: 'header', name: APP_KEY_HEADER },
          bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' },
        },
      },
    },
    transform: (input) => {
      const { schema, url } = jsonSchemaTransform(input);
      if (!isAppRoute(input.url)) return { schema: { ...schema, hide: true }, url };
      const security =
        input.route.config?.app === 'user' ? [{ appKey: [], bearer: [] }] : [{ appKey: [] }];
      return {
        schema: documentAnswerTypes(
          documentBody(
            { ...documentBlanks(schema), security },
            input.route.config?.uploads,
            fileLimits,
            undefined,
          ),
        ),
        url,
      };
    },
  });

  // The pages of Swagger UI, as /api/docs has them, showing this document.
  await app.register(async (docs) => {
    await docs.register(swaggerUiRoutes, {
      prefix: APP_API_DOCS,
      staticCSP: true,
      uiConfig: {},
      initOAuth: {},
      theme: {},
      logo: undefined,
      transformSpecification: () => app.appSwagger(),
      transformSpecificationClone: false,
    });
  });

  await app.register(
    async (api) => {
      await api.register(authRoutes);
      await api.register(contentRoutes);
      await api.register(meRoutes);
    },
    { prefix: APP_API_BASE },
  );
}
