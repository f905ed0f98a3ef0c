import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  STANDARD_PAGES,
  idParams,
  masterAppBody,
  masterAppList,
  masterAppListQuery,
  masterAppMutation,
  masterAppRef,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { listPage } from '../../db/list.ts';

const COLUMNS = ['id', 'name', 'createdAt'] as const;

const masterAppRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, dialect } = app.ctx;

  /** Runs a write whose only expected failure is a taken name. */
  async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(MESSAGES.appNameTaken);
      throw err;
    }
  }

  app.post(
    PATHS.masterAppCreate,
    {
      config: { access: access.menu('masterApp', 'CREATE') },
      schema: {
        tags: ['master apps'],
        summary: 'Creates a master app (name unique, case-insensitive) and its standard pages',
        body: masterAppBody,
        response: answers(masterAppMutation),
      },
    },
    async (request) => {
      const at = now();
      const row = await uniqueName(() =>
        db.transaction().execute(async (trx) => {
          const created = await trx
            .insertInto('masterApps')
            .values({ name: request.body.name, createdAt: at, updatedAt: at })
            .returning(COLUMNS)
            .executeTakeFirstOrThrow();
          // Every app has its standard pages from the start (API.md).
          await trx
            .insertInto('pages')
            .values(
              STANDARD_PAGES.map((title) => ({
                masterAppId: created.id,
                title,
                desc: '',
                createdAt: at,
                updatedAt: at,
              })),
            )
            .execute();
          return created;
        }),
      );
      return { message: MESSAGES.appCreated, result: row };
    },
  );

  app.get(
    PATHS.masterAppList,
    {
      config: { access: access.menu('masterApp', 'VIEW') },
      schema: {
        tags: ['master apps'],
        summary: 'Lists master apps, newest first; keyword searches the name',
        querystring: masterAppListQuery,
        response: answers(masterAppList),
      },
    },
    async (request) => {
      const { keyword, limit, offset } = request.query;
      const base = db
        .selectFrom('masterApps')
        .$if(keyword !== undefined, (qb) => qb.where(dialect.contains('name', keyword!)));
      return listPage(
        base,
        (qb) => qb.select(COLUMNS).orderBy('createdAt', 'desc').orderBy('id', 'desc'),
        { limit, offset },
      );
    },
  );

  app.get(
    PATHS.masterAppOptions,
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['master apps'],
        summary: 'Every master app’s id and name, by name: the choices for filters and forms',
        description:
          'Open to every signed-in account, since other areas filter by master app; the ' +
          'master app list itself needs the masterApp menu.',
        response: answers(z.object({ result: z.array(masterAppRef) })),
      },
    },
    async () => {
      const result = await db
        .selectFrom('masterApps')
        .select(['id', 'name'])
        // Alphabetical whatever the letter case, the same on both engines (names are unique
        // case-insensitively, so this order is total).
        .orderBy((eb) => eb.fn('lower', ['name']))
        .limit(1000)
        .execute();
      return { result };
    },
  );

  app.patch(
    PATHS.masterAppUpdate(':id'),
    {
      config: { access: access.menu('masterApp', 'UPDATE') },
      schema: {
        tags: ['master apps'],
        summary: 'Renames a master app',
        params: idParams,
        body: masterAppBody,
        response: answers(masterAppMutation),
      },
    },
    async (request) => {
      const row = await uniqueName(() =>
        db
          .updateTable('masterApps')
          .set({ name: request.body.name, updatedAt: now() })
          .where('id', '=', request.params.id)
          .returning(COLUMNS)
          .executeTakeFirst(),
      );
      if (!row) throw notFound(MESSAGES.appNotFound);
      return { message: MESSAGES.successfullyUpdated, result: row };
    },
  );
};
export default masterAppRoutes;
