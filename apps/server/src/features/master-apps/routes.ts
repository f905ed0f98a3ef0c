import { z } from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MASTER_APP_COLUMNS,
  MESSAGES,
  PATHS,
  idParams,
  masterAppBody,
  masterAppList,
  masterAppListQuery,
  masterAppMutation,
  masterAppRef,
  MASTER_APP_SORTS,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, auditedCreate } from '../audit/record.ts';
import { answers } from '../../http/schemas.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import { COLUMNS, createMasterApp, selectMasterApps } from './lookup.ts';

export const MASTER_APPS_LIST = defineList({
  name: 'master_apps',
  table: 'masterApps',
  alias: 'masterApps',
  filters: {},
  counts: [[]],
  search: ['name'],
  sorts: MASTER_APP_SORTS,
  caseless: ['name'],
  rows: (db, ids) => selectMasterApps(db).where('id', 'in', ids),
});

const masterAppRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists } = app.ctx;
  registerVersioned(app, 'masterApps', {
    thing: 'Master app',
    things: 'master apps',
    read: (id) => selectMasterApps(db).where('id', '=', id).executeTakeFirst(),
  });

  /** Runs a write whose only expected failure is a taken name. */
  async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(MESSAGES.appNameTaken, 'name');
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
      const target = { area: 'masterApps', table: 'masterApps', action: 'CREATE' } as const;
      const row = await uniqueName(() =>
        auditedCreate(db, request, target, (trx) => createMasterApp(trx, request.body.name)),
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
      return lists.page(MASTER_APPS_LIST, request.query);
    },
  );

  registerListExport(app, {
    list: MASTER_APPS_LIST,
    path: PATHS.masterAppList,
    file: 'master-apps',
    access: access.menu('masterApp', 'VIEW'),
    tags: ['master apps'],
    what: 'master apps',
    querystring: masterAppListQuery,
    response: masterAppList,
    titles: MASTER_APP_COLUMNS,
  });

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
      const { id } = request.params;
      const target = {
        area: 'masterApps',
        table: 'masterApps',
        action: 'UPDATE',
        ids: [id],
      } as const;
      const row = await uniqueName(() =>
        audited(db, request, target, (trx) =>
          trx
            .updateTable('masterApps')
            .set({ name: request.body.name, updatedAt: now() })
            .where('id', '=', id)
            .returning(COLUMNS)
            .executeTakeFirst(),
        ),
      );
      if (!row) throw notFound(MESSAGES.appNotFound);
      return { message: MESSAGES.successfullyUpdated, result: row };
    },
  );
};
export default masterAppRoutes;
