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
  masterAppOptions,
  MASTER_APP_SORTS,
  appKeyAnswer,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, auditedCreate, record } from '../audit/record.ts';
import { answers } from '../../http/schemas.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import { COLUMNS, createMasterApp, requireMasterApp, selectMasterApps } from './lookup.ts';
import { keysOf, rotateKey } from '../app-api/keys.ts';
import { inTransaction } from '../../db/transaction.ts';
import { withTimeZone } from './time-zones.ts';

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
  const { db, lists, config } = app.ctx;
  /** A row as answers show it: the zone it follows (API.md, "Planning festivals"). */
  const zoned = <R extends { timeZone: string | null }>(row: R) =>
    withTimeZone(row, config.defaultTimeZone);
  registerVersioned(app, 'masterApps', {
    thing: 'Master app',
    things: 'master apps',
    read: async (id) => {
      const row = await selectMasterApps(db).where('id', '=', id).executeTakeFirst();
      return row && zoned(row);
    },
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
        auditedCreate(db, request, target, (trx) =>
          createMasterApp(trx, request.body.name, request.body.timeZone ?? null),
        ),
      );
      return { message: MESSAGES.appCreated, result: zoned(row) };
    },
  );

  /** The app's keys as the owner sees them (404 for no app). */
  async function keyAnswer(id: number, message: string) {
    const { current, previous } = await keysOf(db, id);
    if (!current) throw notFound(MESSAGES.appNotFound);
    return { message, result: { key: current.key, createdAt: current.createdAt, previous } };
  }

  app.get(
    PATHS.masterAppKey(':id'),
    {
      config: { access: access.superAdmin },
      schema: {
        tags: ['master apps'],
        summary: 'The app key the content app sends (X-App-Key), and the one it replaced',
        description:
          'SUPER_ADMIN only. The key names the app to the apps API (`/api/app/v1`); it ships ' +
          'inside the app, so it is not a secret. `previous` is the key a rotation replaced, ' +
          'working until `previous.until`.',
        params: idParams,
        response: answers(appKeyAnswer),
      },
    },
    async (request) => keyAnswer(request.params.id, MESSAGES.appKey),
  );

  app.post(
    PATHS.masterAppKey(':id'),
    {
      // A key has no version: nothing to compare an If-Match with.
      config: { access: access.superAdmin, ifMatch: false },
      schema: {
        tags: ['master apps'],
        summary: 'Rotates the app key: a new one now, the old one working 24 hours more',
        description:
          'For a key that leaked into the wrong app, or a planned change: ship the new key in an ' +
          'update within 24 hours. A key rotated before stops at once. Recorded in the app’s history.',
        params: idParams,
        response: answers(appKeyAnswer),
      },
    },
    async (request) => {
      const { id } = request.params;
      await requireMasterApp(db, id);
      await inTransaction(db, request.log, async (trx) => {
        const before = await keysOf(trx, id);
        const key = await rotateKey(trx, id);
        await record(trx, request, {
          area: 'masterApps',
          rowId: id,
          action: 'UPDATE',
          changes: [{ field: 'appKey', old: before.current?.key ?? null, new: key }],
        });
      });
      app.appKeys.forget();
      return keyAnswer(id, MESSAGES.appKeyRotated);
    },
  );

  app.get(
    PATHS.masterAppList,
    {
      config: { access: access.menu('masterApp', 'VIEW'), listPage: true },
      schema: {
        tags: ['master apps'],
        summary: 'Lists master apps, newest first; keyword searches the name',
        querystring: masterAppListQuery,
        response: answers(masterAppList),
      },
    },
    async (request) => {
      const page = await lists.page(MASTER_APPS_LIST, request.query);
      return { ...page, result: page.result.map(zoned) };
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
    map: zoned,
  });

  app.get(
    PATHS.masterAppOptions,
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['master apps'],
        summary:
          'Every master app’s id, name and time zone, by name: the choices for filters and forms',
        description:
          'Open to every signed-in account, since other areas filter by master app; the ' +
          'master app list itself needs the masterApp menu.',
        response: answers(masterAppOptions),
      },
    },
    async () => {
      const result = await db
        .selectFrom('masterApps')
        .select(['id', 'name', 'timeZone'])
        // Alphabetical whatever the letter case, the same on both engines (names are unique
        // case-insensitively, so this order is total).
        .orderBy((eb) => eb.fn('lower', ['name']))
        .limit(1000)
        .execute();
      return {
        result: result.map((a) => ({ ...a, timeZone: a.timeZone ?? config.defaultTimeZone })),
      };
    },
  );

  app.patch(
    PATHS.masterAppUpdate(':id'),
    {
      config: { access: access.menu('masterApp', 'UPDATE') },
      schema: {
        tags: ['master apps'],
        summary: 'Renames a master app and sets its time zone',
        description:
          '`timeZone`: an IANA name; null or blank follows the server’s DEFAULT_TIME_ZONE; left ' +
          'out, the zone stays as it was. Answers show the zone the app follows ' +
          '(`timeZoneIsDefault` when it is the default).',
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
            .set({
              name: request.body.name,
              ...(request.body.timeZone === undefined ? {} : { timeZone: request.body.timeZone }),
              updatedAt: now(),
            })
            .where('id', '=', id)
            .returning(COLUMNS)
            .executeTakeFirst(),
        ),
      );
      if (!row) throw notFound(MESSAGES.appNotFound);
      return { message: MESSAGES.successfullyUpdated, result: zoned(row) };
    },
  );
};
export default masterAppRoutes;
