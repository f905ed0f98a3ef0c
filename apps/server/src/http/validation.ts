/**
 * Fastify validates a request's parts after its body is read. For bodies worth refusing early (a
 * multipart upload), `checkPathAndQuery` runs the route's own compiled path and query validation
 * first, failing exactly as Fastify's validation would. `refuseUndeclaredQueries` gives a route
 * that declares no query one that takes nothing.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { isApiPath } from '@master-admin/contract';

/**
 * A route of the API that declares no query takes none: a query key is refused with 400 naming
 * it, as on the routes that declare theirs (API.md: unknown query keys are never ignored).
 */
export function refuseUndeclaredQueries(app: FastifyInstance) {
  app.addHook('onRoute', (route) => {
    if (!isApiPath(route.url) || route.schema?.querystring) return;
    route.schema = { ...route.schema, querystring: z.strictObject({}) };
  });
}

type ValidationResult = { error?: unknown; value?: unknown } | boolean | undefined;

export function checkPathAndQuery(request: FastifyRequest): void {
  for (const part of ['params', 'querystring'] as const) {
    const validate = request.getValidationFunction(part) as
      ((data: unknown) => ValidationResult) | undefined;
    if (!validate) continue;
    const result = validate(part === 'params' ? request.params : request.query);
    if (result && typeof result === 'object' && Array.isArray(result.error)) {
      throw Object.assign(new Error(`${part} is invalid`), {
        statusCode: 400,
        validation: result.error,
        validationContext: part,
      });
    }
  }
}
