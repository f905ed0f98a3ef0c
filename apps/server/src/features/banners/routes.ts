import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  BANNER_COLUMNS,
  MESSAGES,
  PATHS,
  bannerCreateBody,
  bannerLinkBody,
  bannerList,
  bannerListQuery,
  bannerMutation,
  deleteResponse,
  idParams,
  masterAppIdParams,
  statusBody,
  type Banner,
  BANNER_SORTS,
  type AuditAction,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, auditedCreate, updateAudited } from '../audit/record.ts';
import { moveToTrash } from '../trash/service.ts';
import { answers } from '../../http/schemas.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import type { Db } from '../../db/connect.ts';
import { upload } from '../../media/uploads.ts';
import { requireMasterApp } from '../master-apps/lookup.ts';
import { LIVE_WINDOW, registerSchedule, windowOf } from '../../http/schedules.ts';

const FOLDER = 'banners';
const COLUMNS = [
  'b.id',
  'b.version',
  'b.image',
  'b.status',
  'b.link',
  'b.linkType',
  'b.liveFrom',
  'b.liveUntil',
  'b.createdAt',
  'b.updatedAt',
  'm.id as appId',
  'm.name as appName',
] as const;

export const BANNERS_LIST = defineList({
  name: 'banners',
  table: 'banners',
  alias: 'b',
  filters: { masterAppId: 'masterAppId', status: 'status', linkType: 'linkType' },
  counts: [['masterAppId', 'status', 'linkType']],
  search: ['link'],
  sorts: BANNER_SORTS,
  live: LIVE_WINDOW,
  rows: (db, ids) => selectBanners(db).where('b.id', 'in', ids),
});

/** Banners as the list and every answer show them (the bench's floor runs this query too). */
export const selectBanners = (d: Db) =>
  d
    .selectFrom('banners as b')
    .innerJoin('masterApps as m', 'm.id', 'b.masterAppId')
    .select(COLUMNS);
type Row = Awaited<ReturnType<ReturnType<typeof selectBanners>['executeTakeFirstOrThrow']>>;

const bannerRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media } = app.ctx;

  const toBanner = ({ appId, appName, image, ...row }: Row): Banner => ({
    ...row,
    image: media.url(image),
    masterApp: { id: appId, name: appName },
  });

  const audit = (action: AuditAction, id?: number) =>
    ({ area: 'banners', table: 'banners', action, ids: id === undefined ? [] : [id] }) as const;

  async function findBanner(id: number): Promise<Banner> {
    const row = await selectBanners(db).where('b.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.bannerNotFound);
    return toBanner(row);
  }
  registerVersioned(app, 'banners', { thing: 'Banner', things: 'banners', read: findBanner });

  app.post(
    PATHS.bannerCreate(':masterAppId'),
    {
      config: { access: access.menu('banner', 'CREATE'), uploads: { file: 'image' } },
      schema: {
        tags: ['banners'],
        summary: 'Creates a banner for a master app from the multipart image `file`',
        params: masterAppIdParams,
        body: bannerCreateBody,
        response: answers(bannerMutation),
      },
    },
    async (request) => {
      const file = upload(request, 'file', true);
      await requireMasterApp(db, request.params.masterAppId);
      const image = await media.saveImage(file, FOLDER);
      const at = now();
      const { id } = await auditedCreate(db, request, audit('CREATE'), (trx) =>
        trx
          .insertInto('banners')
          .values({
            masterAppId: request.params.masterAppId,
            image,
            link: request.body.link ?? null,
            linkType: request.body.linkType,
            status: 'ACTIVE',
            ...windowOf(request.body),
            createdAt: at,
            updatedAt: at,
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
      );
      return { message: MESSAGES.bannerCreated, result: await findBanner(id) };
    },
  );

  app.get(
    PATHS.bannerList,
    {
      config: { access: access.menu('banner', 'VIEW'), listPage: true },
      schema: {
        tags: ['banners'],
        summary: 'Lists banners, newest first; keyword searches the link',
        querystring: bannerListQuery,
        response: answers(bannerList),
      },
    },
    async (request) => {
      const page = await lists.page(BANNERS_LIST, request.query);
      return { ...page, result: page.result.map(toBanner) };
    },
  );

  registerListExport(app, {
    list: BANNERS_LIST,
    path: PATHS.bannerList,
    file: 'banners',
    access: access.menu('banner', 'VIEW'),
    tags: ['banners'],
    what: 'banners',
    querystring: bannerListQuery,
    response: bannerList,
    titles: BANNER_COLUMNS,
    map: toBanner,
  });

  app.put(
    PATHS.bannerLink(':id'),
    {
      config: { access: access.menu('banner', 'UPDATE') },
      schema: {
        tags: ['banners'],
        summary: 'Changes a banner’s link and link type (EXTERNAL needs an http(s) URL)',
        params: idParams,
        body: bannerLinkBody,
        response: answers(bannerMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = await updateAudited(
        db,
        request,
        { area: 'banners', table: 'banners', action: 'UPDATE', id },
        {
          link: request.body.link ?? null,
          linkType: request.body.linkType,
        },
      );
      if (!found) throw notFound(MESSAGES.bannerNotFound);
      return { message: MESSAGES.bannerUpdated, result: await findBanner(request.params.id) };
    },
  );

  registerSchedule(app, {
    path: PATHS.bannerSchedule(':id'),
    access: access.menu('banner', 'UPDATE'),
    tags: ['banners'],
    thing: 'banner',
    response: bannerMutation,
    update: async (request, id, set) => {
      const found = await updateAudited(
        db,
        request,
        { area: 'banners', table: 'banners', action: 'UPDATE', id },
        set,
      );
      if (!found) throw notFound(MESSAGES.bannerNotFound);
      return findBanner(id);
    },
  });

  app.put(
    PATHS.bannerStatus(':id'),
    {
      config: { access: access.menu('banner', 'UPDATE') },
      schema: {
        tags: ['banners'],
        summary: 'Changes a banner’s status',
        params: idParams,
        body: statusBody,
        response: answers(bannerMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const found = await updateAudited(
        db,
        request,
        { area: 'banners', table: 'banners', action: 'STATUS', id },
        {
          status: request.body.status,
        },
      );
      if (!found) throw notFound(MESSAGES.bannerNotFound);
      return { message: MESSAGES.statusUpdated, result: await findBanner(request.params.id) };
    },
  );

  app.put(
    PATHS.bannerImage(':id'),
    {
      config: { access: access.menu('banner', 'UPDATE'), uploads: { file: 'image' } },
      schema: {
        tags: ['banners'],
        summary: 'Replaces a banner’s image with the multipart image `file`',
        params: idParams,
        response: answers(bannerMutation),
      },
    },
    async (request) => {
      const file = upload(request, 'file', true);
      const old = await db
        .selectFrom('banners')
        .select('image')
        .where('id', '=', request.params.id)
        .executeTakeFirst();
      if (!old) throw notFound(MESSAGES.bannerNotFound);
      const image = await media.saveImage(file, FOLDER);
      await audited(db, request, audit('FILE', request.params.id), (trx) =>
        trx
          .updateTable('banners')
          .set({ image, updatedAt: now() })
          .where('id', '=', request.params.id)
          .execute(),
      );
      if (old.image !== image) await media.release([old.image]);
      return { message: MESSAGES.bannerUpdated, result: await findBanner(request.params.id) };
    },
  );

  app.delete(
    PATHS.bannerRemove(':id'),
    {
      config: { access: access.menu('banner', 'DELETE') },
      schema: {
        tags: ['banners'],
        summary: 'Moves a banner, with its image, to the trash',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = await audited(
        db,
        request,
        audit('DELETE', id),
        async (trx) => (await moveToTrash(trx, request, 'banners', [id]))[0],
      );
      if (!row) throw notFound(MESSAGES.bannerNotFound);
      return { message: MESSAGES.bannerDeleted, result: { id: request.params.id } };
    },
  );
};
export default bannerRoutes;
