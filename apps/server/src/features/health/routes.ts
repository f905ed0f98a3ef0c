import { sql } from 'kysely';
import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PATHS } from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError } from '../../http/errors.ts';

const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    PATHS.health,
    {
      config: { access: access.public },
      schema: {
        tags: ['health'],
        summary: 'Reports that the server and its database answer',
        security: [],
        response: answers(z.object({ status: z.literal('ok') })),
      },
    },
    async () => {
      try {
        await sql`select 1`.execute(app.ctx.db);
      } catch (err) {
        app.log.error({ err }, 'health check: the database does not answer');
        throw new HttpError(503, 'The database does not answer');
      }
      return { status: 'ok' as const };
    },
  );
};
export default healthRoutes;
