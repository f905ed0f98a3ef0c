/**
 * Notifications to a master app's users: every user of the app (no `accountId`) or one user.
 * A master app or user the body names that does not exist answers 404 naming the field.
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  NOTIFICATION_COLUMNS,
  MESSAGES,
  PATHS,
  deleteResponse,
  idParams,
  notificationCreateBody,
  notificationList,
  notificationListQuery,
  notificationMutation,
  type Notification,
  NOTIFICATION_SORTS,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, auditedCreate } from '../audit/record.ts';
import { moveToTrash } from '../trash/service.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError, notFound } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import type { Db } from '../../db/connect.ts';
import { upload } from '../../media/uploads.ts';

const FOLDER = 'notifications';
const COLUMNS = [
  'n.id',
  'n.version',
  'n.masterAppId',
  'n.accountId',
  'n.title',
  'n.desc',
  'n.type',
  'n.read',
  'n.readCount',
  'n.logo',
  'n.createdAt',
  'm.name as appName',
] as const;

/** A 404 that names the body field holding the missing reference. */
const missing = (path: string, message: string) =>
  new HttpError(404, message, { details: [{ path, message }] });

const selectNotifications = (d: Db) =>
  d
    .selectFrom('notifications as n')
    .innerJoin('masterApps as m', 'm.id', 'n.masterAppId')
    .select(COLUMNS);
type Row = Awaited<ReturnType<ReturnType<typeof selectNotifications>['executeTakeFirstOrThrow']>>;

export const NOTIFICATIONS_LIST = defineList({
  name: 'notifications',
  table: 'notifications',
  alias: 'n',
  filters: { masterAppId: 'masterAppId' },
  counts: [['masterAppId']],
  search: ['title', 'desc'],
  sorts: NOTIFICATION_SORTS,
  caseless: ['title'],
  rows: (db, ids) => selectNotifications(db).where('n.id', 'in', ids),
});

const notificationRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media } = app.ctx;

  const toNotification = ({ appName, read, logo, ...row }: Row): Notification => ({
    ...row,
    read: Boolean(read),
    logo: media.url(logo),
    masterApp: { id: row.masterAppId, name: appName },
  });

  async function findNotification(id: number): Promise<Notification> {
    const row = await selectNotifications(db).where('n.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.notificationNotFound);
    return toNotification(row);
  }
  registerVersioned(app, 'notifications', {
    thing: 'Notification',
    things: 'notifications',
    read: findNotification,
  });

  app.post(
    PATHS.notificationCreate,
    {
      config: {
        access: access.menu('notification', 'CREATE'),
        uploads: { logo: { kind: 'image', optional: true } },
      },
      schema: {
        tags: ['notifications'],
        summary:
          'Creates a notification for every user of a master app, or for one (`accountId`: a ' +
          'USER of that app that is not DELETED), with an optional multipart image `logo`',
        body: notificationCreateBody,
        response: answers(notificationMutation),
      },
    },
    async (request) => {
      const file = upload(request, 'logo');
      const { title, desc, type, masterAppId, accountId } = request.body;
      const masterApp = await db
        .selectFrom('masterApps')
        .select('id')
        .where('id', '=', masterAppId)
        .executeTakeFirst();
      if (!masterApp) throw missing('masterAppId', MESSAGES.appNotFound);
      if (accountId !== undefined) {
        const user = await db
          .selectFrom('accounts')
          .select('id')
          .where('id', '=', accountId)
          .where('role', '=', 'USER')
          .where('masterAppId', '=', masterAppId)
          .where('status', '<>', 'DELETED')
          .executeTakeFirst();
        if (!user) throw missing('accountId', MESSAGES.userNotFound);
      }
      // Stored only once every check passed, so a refusal stores nothing.
      const logo = file ? await media.saveImage(file, FOLDER) : null;
      let id: number;
      try {
        ({ id } = await auditedCreate(
          db,
          request,
          { area: 'notifications', table: 'notifications', action: 'CREATE' },
          (trx) =>
            trx
              .insertInto('notifications')
              .values({
                masterAppId,
                accountId: accountId ?? null,
                title,
                desc,
                type,
                read: false,
                logo,
                createdAt: now(),
              })
              .returning('id')
              .executeTakeFirstOrThrow(),
        ));
      } catch (err) {
        await media.release([logo]);
        throw err;
      }
      return { message: MESSAGES.notificationCreated, result: await findNotification(id) };
    },
  );

  app.get(
    PATHS.notificationList,
    {
      config: { access: access.menu('notification', 'VIEW'), listPage: true },
      schema: {
        tags: ['notifications'],
        summary: 'Lists notifications, newest first; keyword searches the title and description',
        querystring: notificationListQuery,
        response: answers(notificationList),
      },
    },
    async (request) => {
      const page = await lists.page(NOTIFICATIONS_LIST, request.query);
      return { ...page, result: page.result.map(toNotification) };
    },
  );

  registerListExport(app, {
    list: NOTIFICATIONS_LIST,
    path: PATHS.notificationList,
    file: 'notifications',
    access: access.menu('notification', 'VIEW'),
    tags: ['notifications'],
    what: 'notifications',
    querystring: notificationListQuery,
    response: notificationList,
    titles: NOTIFICATION_COLUMNS,
    map: toNotification,
  });

  app.delete(
    PATHS.notificationRemove(':id'),
    {
      config: { access: access.menu('notification', 'DELETE') },
      schema: {
        tags: ['notifications'],
        summary: 'Moves a notification, with its logo and reads, to the trash',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const row = await audited(
        db,
        request,
        {
          area: 'notifications',
          table: 'notifications',
          action: 'DELETE',
          ids: [request.params.id],
        },
        async (trx) => (await moveToTrash(trx, request, 'notifications', [request.params.id]))[0],
      );
      if (!row) throw notFound(MESSAGES.notificationNotFound);
      return { message: MESSAGES.notificationDeleted, result: { id: request.params.id } };
    },
  );
};
export default notificationRoutes;
