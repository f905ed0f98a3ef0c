/**
 * Fastify validates a request's parts after its body is read. For bodies worth refusing early (a
 * multipart upload), `checkPathAndQuery` runs the route's own compiled path and query validation
 * first, failing exactly as Fastify's validation would.
 */
import type { FastifyRequest } from 'fastify';

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
