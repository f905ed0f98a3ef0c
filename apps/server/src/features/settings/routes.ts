/**
 * Settings (logo per app): one row per master app. The rows' `user_domain`, `admin_domain` and
 * `mobile_domain` are the columns `userDomain`, `adminDomain`, `mobileDomain`, mapped here.
 */
import type { Updateable } from 'kysely';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  SETTINGS_COLUMNS,
  MESSAGES,
  PATHS,
  SETTINGS_DOMAIN_FIELDS,
  idParams,
  masterAppIdParams,
  settingsCreateBody,
  settingsList,
  settingsListQuery,
  settingsMutation,
  settingsUpdateBody,
  type Settings,
  SETTINGS_SORTS,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, auditedCreate } from '../audit/record.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import type { Db } from '../../db/connect.ts';
import type { SettingsTable } from '../../db/schema.ts';
import { upload } from '../../media/uploads.ts';
import { requireMasterApp } from '../master-apps/lookup.ts';

const FOLDER = 'settings';
const COLUMNS = [
  's.id',
  's.version',
  's.title',
  's.userDomain',
  's.adminDomain',
  's.mobileDomain',
  's.logo',
  's.updatedAt',
  'm.id as appId',
  'm.name as appName',
] as const;

/** Body field → column. */
const DOMAIN_COLUMNS = {
  user_domain: 'userDomain',
  admin_domain: 'adminDomain',
  mobile_domain: 'mobileDomain',
} as const satisfies Record<(typeof SETTINGS_DOMAIN_FIELDS)[number], keyof SettingsTable>;

const selectSettings = (d: Db) =>
  d
    .selectFrom('settings as s')
    .innerJoin('masterApps as m', 'm.id', 's.masterAppId')
    .select(COLUMNS);
type Row = Awaited<ReturnType<ReturnType<typeof selectSettings>['executeTakeFirstOrThrow']>>;

export const SETTINGS_LIST = defineList({
  name: 'settings',
  table: 'settings',
  alias: 's',
  filters: { masterAppId: 'masterAppId' },
  counts: [['masterAppId']],
  search: ['title'],
  sorts: SETTINGS_SORTS,
  caseless: ['title'],
  rows: (db, ids) => selectSettings(db).where('s.id', 'in', ids),
});

const settingsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media } = app.ctx;

  const toSettings = (row: Row): Settings => ({
    id: row.id,
    version: row.version,
    title: row.title,
    user_domain: row.userDomain,
    admin_domain: row.adminDomain,
    mobile_domain: row.mobileDomain,
    logo: media.url(row.logo),
    updatedAt: row.updatedAt,
    masterApp: { id: row.appId, name: row.appName },
  });

  async function findSettings(id: number): Promise<Settings> {
    const row = await selectSettings(db).where('s.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.settingsNotFound);
    return toSettings(row);
  }
  registerVersioned(app, 'settings', { thing: 'Settings', things: 'settings', read: findSettings });

  const alreadyExists = () =>
    new HttpError(409, MESSAGES.settingsExist, {
      details: [{ path: 'masterAppId', message: MESSAGES.settingsExist }],
    });

  app.post(
    PATHS.settingsCreate(':masterAppId'),
    {
      config: { access: access.menu('settings', 'CREATE'), uploads: { logo: 'image' } },
      schema: {
        tags: ['settings'],
        summary:
          'Creates the settings of a master app (one per app) with the multipart image `logo`; ' +
          'a domain is a host name or an http(s) URL',
        params: masterAppIdParams,
        body: settingsCreateBody,
        response: answers(settingsMutation),
      },
    },
    async (request) => {
      const file = upload(request, 'logo', true);
      const { masterAppId } = request.params;
      await requireMasterApp(db, masterAppId);
      // Checked before the file is stored, so a refusal stores nothing.
      const existing = await db
        .selectFrom('settings')
        .select('id')
        .where('masterAppId', '=', masterAppId)
        .executeTakeFirst();
      if (existing) throw alreadyExists();
      const logo = await media.saveImage(file, FOLDER);
      const { title, user_domain, admin_domain, mobile_domain } = request.body;
      const at = now();
      let id: number;
      try {
        ({ id } = await auditedCreate(
          db,
          request,
          { area: 'settings', table: 'settings', action: 'CREATE' },
          (trx) =>
            trx
              .insertInto('settings')
              .values({
                masterAppId,
                title,
                userDomain: user_domain ?? null,
                adminDomain: admin_domain ?? null,
                mobileDomain: mobile_domain ?? null,
                logo,
                createdAt: at,
                updatedAt: at,
              })
              .returning('id')
              .executeTakeFirstOrThrow(),
        ));
      } catch (err) {
        // Another request created this app's settings meanwhile (or the write failed): the file
        // just stored is let go unless some other row uses it.
        await media.release([logo]);
        if (isUniqueViolation(err)) throw alreadyExists();
        throw err;
      }
      return { message: MESSAGES.logoCreated, result: await findSettings(id) };
    },
  );

  app.get(
    PATHS.settingsList,
    {
      config: { access: access.menu('settings', 'VIEW'), listPage: true },
      schema: {
        tags: ['settings'],
        summary: 'Lists the settings of the master apps, newest first; keyword searches the title',
        querystring: settingsListQuery,
        response: answers(settingsList),
      },
    },
    async (request) => {
      const page = await lists.page(SETTINGS_LIST, request.query);
      return { ...page, result: page.result.map(toSettings) };
    },
  );

  registerListExport(app, {
    list: SETTINGS_LIST,
    path: PATHS.settingsList,
    file: 'settings',
    access: access.menu('settings', 'VIEW'),
    tags: ['settings'],
    what: 'settings',
    querystring: settingsListQuery,
    response: settingsList,
    titles: SETTINGS_COLUMNS,
    map: toSettings,
  });

  app.put(
    PATHS.settingsUpdate(':id'),
    {
      config: {
        access: access.menu('settings', 'UPDATE'),
        uploads: { logo: { kind: 'image', optional: true } },
      },
      schema: {
        tags: ['settings'],
        summary:
          'Changes a master app’s settings: a new multipart image `logo` and/or any of the text ' +
          'fields (at least one); an empty field keeps its value, a JSON null clears a domain',
        params: idParams,
        body: settingsUpdateBody,
        response: answers(settingsMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const file = upload(request, 'logo');
      const body = request.body ?? {};
      const changes: Updateable<SettingsTable> = {};
      if (body.title !== undefined) changes.title = body.title;
      for (const field of SETTINGS_DOMAIN_FIELDS) {
        const value = body[field];
        if (value !== undefined) changes[DOMAIN_COLUMNS[field]] = value;
      }
      if (!file && Object.keys(changes).length === 0) {
        const message = `Send a new logo or at least one of title, ${SETTINGS_DOMAIN_FIELDS.join(', ')}`;
        throw new HttpError(400, message, { details: [{ path: 'body', message }] });
      }
      const old = await db
        .selectFrom('settings')
        .select('logo')
        .where('id', '=', id)
        .executeTakeFirst();
      if (!old) throw notFound(MESSAGES.settingsNotFound);
      const logo = file ? await media.saveImage(file, FOLDER) : undefined;
      let updated: bigint;
      try {
        const action = logo ? 'FILE' : 'UPDATE';
        const target = { area: 'settings', table: 'settings', action, ids: [id] } as const;
        ({ numUpdatedRows: updated } = await audited(db, request, target, (trx) =>
          trx
            .updateTable('settings')
            .set({ ...changes, ...(logo ? { logo } : {}), updatedAt: now() })
            .where('id', '=', id)
            .executeTakeFirst(),
        ));
      } catch (err) {
        if (logo && logo !== old.logo) await media.release([logo]);
        throw err;
      }
      if (updated === 0n) {
        // Deleted meanwhile (its master app was): nothing names the new file.
        if (logo && logo !== old.logo) await media.release([logo]);
        throw notFound(MESSAGES.settingsNotFound);
      }
      if (logo && logo !== old.logo) await media.release([old.logo]);
      return { message: MESSAGES.logoUpdated, result: await findSettings(id) };
    },
  );
};
export default settingsRoutes;
