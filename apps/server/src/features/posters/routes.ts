import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  POSTER_COLUMNS,
  MESSAGES,
  PATHS,
  POSTER_SORTS,
  bulkIdsBody,
  bulkResponse,
  bulkStatusBody,
  categoryIdParams,
  dateBody,
  defNumsBody,
  deleteResponse,
  idParams,
  positionBody,
  posterCreateAllBody,
  posterCreateOneBody,
  posterList,
  posterListQuery,
  posterMutation,
  statusBody,
  type Poster,
  type PosterCreateFields,
  type AuditAction,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, updateAudited } from '../audit/record.ts';
import { moveToTrash } from '../trash/service.ts';
import type { FastifyRequest } from 'fastify';
import { requireAll } from '../../http/bulk.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError, conflict, notFound } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import type { Db } from '../../db/connect.ts';
import { upload } from '../../media/uploads.ts';
import { CATEGORIES_LIST } from '../categories/routes.ts';
import { SPECIAL_DAYS_LIST } from '../special-days/routes.ts';
import { POSTER_COUNTS } from './counts.ts';
import { LIVE_WINDOW, registerSchedule, windowOf } from '../../http/schedules.ts';

const FOLDER = 'posters';
const MENU = 'poster';
const IMAGE_FILES = { file: 'image', thumbFile: { kind: 'image', optional: true } } as const;

export const POSTERS_LIST = defineList({
  name: 'posters',
  table: 'posters',
  alias: 'p',
  filters: {
    masterAppId: 'masterAppId',
    status: 'status',
    categoryId: 'categoryId',
    specialDayId: 'specialDayId',
  },
  counts: POSTER_COUNTS,
  search: [],
  searchVia: [
    { column: 'categoryId', list: CATEGORIES_LIST },
    { column: 'specialDayId', list: SPECIAL_DAYS_LIST },
  ],
  sorts: POSTER_SORTS,
  // The apps API's feed of one date (never the back-office's list, whose query refuses them).
  ranges: { dateFrom: { column: 'date', op: '>=' }, dateUntil: { column: 'date', op: '<' } },
  live: LIVE_WINDOW,
  rows: (db, ids) => selectPosters(db).where('p.id', 'in', ids),
});

/** Posters as the list and every answer show them. */
export const selectPosters = (d: Db) =>
  d
    .selectFrom('posters as p')
    .innerJoin('categories as c', 'c.id', 'p.categoryId')
    .innerJoin('masterApps as m', 'm.id', 'p.masterAppId')
    .innerJoin('accounts as a', 'a.id', 'p.accountId')
    .leftJoin('specialDays as sd', 'sd.id', 'p.specialDayId')
    .select([
      'p.id',
      'p.version',
      'p.masterAppId',
      'p.categoryId',
      'p.specialDayId',
      'p.topDefNum',
      'p.selfDefNum',
      'p.bottomDefNum',
      'p.poster',
      'p.videoThumb',
      'p.date',
      'p.downloadCount',
      'p.status',
      'p.position',
      'p.liveFrom',
      'p.liveUntil',
      'p.createdAt',
      'p.updatedAt',
      'p.accountId',
      'a.phoneNumber as accountPhone',
      'c.name as categoryName',
      'm.name as appName',
      'sd.name as dayName',
      'sd.day as dayDay',
      'sd.month as dayMonth',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof selectPosters>['executeTakeFirstOrThrow']>>;

/** A 404 that names the field whose id has no row, so a form can mark it. */
const missing = (field: string, message: string) =>
  new HttpError(404, message, { details: [{ path: field, message }] });

const posterRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media } = app.ctx;

  // Field by field: a rest pattern and a spread here were a seventh of the server's time on a
  // list of twenty posters (measured with --cpu-prof).
  const toPoster = (row: Row): Poster => ({
    id: row.id,
    version: row.version,
    masterAppId: row.masterAppId,
    categoryId: row.categoryId,
    specialDayId: row.specialDayId,
    topDefNum: row.topDefNum,
    selfDefNum: row.selfDefNum,
    bottomDefNum: row.bottomDefNum,
    poster: media.url(row.poster),
    videoThumb: media.url(row.videoThumb),
    date: row.date,
    downloadCount: row.downloadCount,
    status: row.status,
    position: row.position,
    liveFrom: row.liveFrom,
    liveUntil: row.liveUntil,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
    account: { id: row.accountId, phoneNumber: row.accountPhone },
    category: { id: row.categoryId, name: row.categoryName },
    masterApp: { id: row.masterAppId, name: row.appName },
    specialDay:
      row.specialDayId === null || row.dayName === null
        ? null
        : { id: row.specialDayId, name: row.dayName, day: row.dayDay!, month: row.dayMonth! },
  });

  async function findPoster(id: number): Promise<Poster> {
    const row = await selectPosters(db).where('p.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.posterNotFound);
    return toPoster(row);
  }
  registerVersioned(app, 'posters', { thing: 'Poster', things: 'posters', read: findPoster });

  /** The category, special day and (for one app) master app a new poster names, or a 404. */
  async function requireReferences(categoryId: number, body: PosterCreateFields, appId?: number) {
    const category = await db
      .selectFrom('categories')
      .select('id')
      .where('id', '=', categoryId)
      .executeTakeFirst();
    if (!category) throw missing('categoryId', MESSAGES.categoryNotFound);
    if (body.specialDayId !== undefined) {
      const day = await db
        .selectFrom('specialDays')
        .select('id')
        .where('id', '=', body.specialDayId)
        .executeTakeFirst();
      if (!day) throw missing('specialDayId', MESSAGES.specialDayNotFound);
    }
    if (appId !== undefined) {
      const found = await db
        .selectFrom('masterApps')
        .select('id')
        .where('id', '=', appId)
        .executeTakeFirst();
      if (!found) throw missing('masterAppId', MESSAGES.appNotFound);
    }
  }

  /**
   * Stores the uploaded poster (and thumbnail) once, then writes a row per app in `appIds` in one
   * transaction; files of a failed write are let go again.
   */
  async function createPosters(
    request: FastifyRequest & { body: PosterCreateFields },
    categoryId: number,
    appIds: (trx: Db) => Promise<number[]>,
  ): Promise<number[]> {
    const file = upload(request, 'file', true);
    const thumbFile = upload(request, 'thumbFile');
    const poster = await media.saveImage(file, FOLDER);
    const videoThumb = thumbFile ? await media.saveImage(thumbFile, FOLDER) : null;
    const { body } = request;
    try {
      const target = { area: 'posters', table: 'posters', action: 'CREATE' } as const;
      return await audited(db, request, { ...target, ids: (ids) => ids }, async (trx) => {
        const apps = await appIds(trx);
        if (apps.length === 0) throw conflict(MESSAGES.noMasterApps);
        const at = now();
        const rows = await trx
          .insertInto('posters')
          .values(
            apps.map((masterAppId) => ({
              masterAppId,
              categoryId,
              specialDayId: body.specialDayId ?? null,
              accountId: request.account.id,
              topDefNum: body.topDefNum,
              selfDefNum: body.selfDefNum,
              bottomDefNum: body.bottomDefNum,
              poster,
              videoThumb,
              date: body.date ?? null,
              status: 'ACTIVE' as const,
              position: body.position,
              ...windowOf(body),
              createdAt: at,
              updatedAt: at,
            })),
          )
          .returning('id')
          .execute();
        return rows.map((r) => r.id);
      });
    } catch (err) {
      await media.release([poster, videoThumb]);
      throw err;
    }
  }

  app.post(
    PATHS.posterCreateAll(':categoryId'),
    {
      config: { access: access.menu(MENU, 'CREATE'), uploads: IMAGE_FILES },
      schema: {
        tags: ['posters'],
        summary:
          'Creates the poster for every master app: one row per app, all sharing the stored ' +
          'image (multipart `file`) and thumbnail (`thumbFile`, optional), in one transaction',
        params: categoryIdParams,
        body: posterCreateAllBody,
        response: answers(bulkResponse),
      },
    },
    async (request) => {
      const { categoryId } = request.params;
      await requireReferences(categoryId, request.body);
      const ids = await createPosters(request, categoryId, async (trx) =>
        (await trx.selectFrom('masterApps').select('id').orderBy('id').execute()).map((a) => a.id),
      );
      return { message: MESSAGES.posterCreatedForAll, result: { ids, count: ids.length } };
    },
  );

  app.post(
    PATHS.posterCreateOne(':categoryId'),
    {
      config: { access: access.menu(MENU, 'CREATE'), uploads: IMAGE_FILES },
      schema: {
        tags: ['posters'],
        summary:
          'Creates a poster for one master app from the multipart image `file` (and optional ' +
          '`thumbFile`)',
        params: categoryIdParams,
        body: posterCreateOneBody,
        response: answers(posterMutation),
      },
    },
    async (request) => {
      const { categoryId } = request.params;
      const appId = request.body.masterAppId;
      await requireReferences(categoryId, request.body, appId);
      const [id] = await createPosters(request, categoryId, async () => [appId]);
      return { message: MESSAGES.posterCreated, result: await findPoster(id!) };
    },
  );

  app.get(
    PATHS.posterList,
    {
      config: { access: access.menu(MENU, 'VIEW'), listPage: true },
      schema: {
        tags: ['posters'],
        summary:
          'Lists posters, newest first; keyword searches the names of their category and ' +
          'special day',
        querystring: posterListQuery,
        response: answers(posterList),
      },
    },
    async (request) => {
      const page = await lists.page(POSTERS_LIST, request.query);
      return { ...page, result: page.result.map(toPoster) };
    },
  );

  registerListExport(app, {
    list: POSTERS_LIST,
    path: PATHS.posterList,
    file: 'posters',
    access: access.menu(MENU, 'VIEW'),
    tags: ['posters'],
    what: 'posters',
    querystring: posterListQuery,
    response: posterList,
    titles: POSTER_COLUMNS,
    map: toPoster,
  });

  /** Updates one poster's columns; a 404 when there is no such poster. */
  async function update(
    request: FastifyRequest,
    action: AuditAction,
    id: number,
    set: Record<string, unknown>,
  ) {
    const found = await updateAudited(
      db,
      request,
      { area: 'posters', table: 'posters', action, id },
      set,
    );
    if (!found) throw notFound(MESSAGES.posterNotFound);
    return findPoster(id);
  }

  app.patch(
    PATHS.posterDefNums(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['posters'],
        summary: 'Changes a poster’s three default numbers (1..999)',
        params: idParams,
        body: defNumsBody,
        response: answers(posterMutation),
      },
    },
    async (request) => {
      const { topDefNum, selfDefNum, bottomDefNum } = request.body;
      const result = await update(request, 'UPDATE', request.params.id, {
        topDefNum,
        selfDefNum,
        bottomDefNum,
      });
      return { message: MESSAGES.defNumsUpdated, result };
    },
  );

  app.patch(
    PATHS.posterDate(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['posters'],
        summary: 'Sets a poster’s date, or clears it with an empty value',
        params: idParams,
        body: dateBody,
        response: answers(posterMutation),
      },
    },
    async (request) => {
      const result = await update(request, 'UPDATE', request.params.id, {
        date: request.body.date || null,
      });
      return { message: MESSAGES.dateUpdated, result };
    },
  );

  app.put(
    PATHS.posterStatus(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['posters'],
        summary: 'Changes a poster’s status',
        params: idParams,
        body: statusBody,
        response: answers(posterMutation),
      },
    },
    async (request) => {
      const result = await update(request, 'STATUS', request.params.id, {
        status: request.body.status,
      });
      return { message: MESSAGES.statusUpdated, result };
    },
  );

  registerSchedule(app, {
    path: PATHS.posterSchedule(':id'),
    access: access.menu(MENU, 'UPDATE'),
    tags: ['posters'],
    thing: 'poster',
    response: posterMutation,
    update: (request, id, set) => update(request, 'UPDATE', id, set),
  });

  app.put(
    PATHS.posterPosition(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['posters'],
        summary: 'Changes the side on which the user’s self photo is placed',
        params: idParams,
        body: positionBody,
        response: answers(posterMutation),
      },
    },
    async (request) => {
      const result = await update(request, 'UPDATE', request.params.id, {
        position: request.body.position,
      });
      return { message: MESSAGES.positionUpdated, result };
    },
  );

  /** Replaces one poster's file in `column` with the upload in `field`. */
  async function replaceFile(
    request: FastifyRequest,
    id: number,
    column: 'poster' | 'videoThumb',
    key: string,
  ) {
    const old = await db
      .selectFrom('posters')
      .select(column)
      .where('id', '=', id)
      .executeTakeFirst();
    if (!old) {
      await media.release([key]);
      throw notFound(MESSAGES.posterNotFound);
    }
    const result = await update(request, 'FILE', id, { [column]: key });
    const before = old[column];
    if (before !== key) await media.release([before]);
    return result;
  }

  app.put(
    PATHS.posterFile(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE'), uploads: { file: 'image' } },
      schema: {
        tags: ['posters'],
        summary:
          'Replaces this poster’s image with the multipart image `file` (the other apps’ rows ' +
          'keep theirs)',
        params: idParams,
        response: answers(posterMutation),
      },
    },
    async (request) => {
      const file = upload(request, 'file', true);
      await findPoster(request.params.id);
      const key = await media.saveImage(file, FOLDER);
      const result = await replaceFile(request, request.params.id, 'poster', key);
      return { message: MESSAGES.posterUpdated, result };
    },
  );

  app.put(
    PATHS.posterThumb(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE'), uploads: { thumbFile: 'image' } },
      schema: {
        tags: ['posters'],
        summary: 'Sets this poster’s thumbnail from the multipart image `thumbFile`',
        params: idParams,
        response: answers(posterMutation),
      },
    },
    async (request) => {
      const file = upload(request, 'thumbFile', true);
      await findPoster(request.params.id);
      const key = await media.saveImage(file, FOLDER);
      const result = await replaceFile(request, request.params.id, 'videoThumb', key);
      return { message: MESSAGES.thumbUpdated, result };
    },
  );

  app.put(
    PATHS.posterBulkStatus,
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['posters'],
        summary:
          'Changes the status of 1..500 posters, all or nothing: an id with no poster is a 404 ' +
          'naming it, and nothing changes',
        body: bulkStatusBody,
        response: answers(bulkResponse),
      },
    },
    async (request) => {
      const { ids, status } = request.body;
      const target = { area: 'posters', table: 'posters', action: 'STATUS', ids } as const;
      await audited(db, request, target, async (trx) => {
        const updated = await trx
          .updateTable('posters')
          .set({ status, updatedAt: now() })
          .where('id', 'in', ids)
          .returning('id')
          .execute();
        requireAll('poster', ids, updated);
      });
      return { message: MESSAGES.statusUpdated, result: { ids, count: ids.length } };
    },
  );

  app.delete(
    PATHS.posterRemove(':id'),
    {
      config: { access: access.menu(MENU, 'DELETE') },
      schema: {
        tags: ['posters'],
        summary: 'Moves a poster, with its files, downloads and likes, to the trash',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const row = await audited(
        db,
        request,
        { area: 'posters', table: 'posters', action: 'DELETE', ids: [request.params.id] },
        async (trx) => (await moveToTrash(trx, request, 'posters', [request.params.id]))[0],
      );
      if (!row) throw notFound(MESSAGES.posterNotFound);
      return { message: MESSAGES.posterDeleted, result: { id: request.params.id } };
    },
  );

  app.delete(
    PATHS.posterBulkDelete,
    {
      config: { access: access.menu(MENU, 'DELETE') },
      schema: {
        tags: ['posters'],
        summary:
          'Moves 1..500 posters (with their files, downloads and likes) to the trash, all or ' +
          'nothing (an id with no poster is a 404 naming it, and nothing is deleted)',
        body: bulkIdsBody,
        response: answers(bulkResponse),
      },
    },
    async (request) => {
      const { ids } = request.body;
      const target = { area: 'posters', table: 'posters', action: 'DELETE', ids } as const;
      await audited(db, request, target, async (trx) => {
        requireAll('poster', ids, await moveToTrash(trx, request, 'posters', ids));
      });
      return { message: MESSAGES.posterDeleted, result: { ids, count: ids.length } };
    },
  );
};

export default posterRoutes;
