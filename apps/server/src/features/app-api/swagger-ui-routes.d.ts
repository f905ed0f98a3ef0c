/** The routes of @fastify/swagger-ui 6 (which types only its plugin), registered once more for the apps API's document. */
declare module '@fastify/swagger-ui/lib/routes.js' {
  import type { FastifyPluginCallback } from 'fastify';

  const routes: FastifyPluginCallback<{
    prefix: string;
    staticCSP: boolean;
    uiConfig: Record<string, unknown>;
    initOAuth: Record<string, unknown>;
    theme: Record<string, unknown>;
    logo: undefined;
    transformSpecification: () => unknown;
    transformSpecificationClone: boolean;
  }>;
  export default routes;
}
