/**
 * Videos (API.md, Videos): uploaded to one master app, listed with the app's name as keyword,
 * their numbers, date, side and status changed one by one or (status) in bulk, deleted one by one
 * or in bulk. The file is stored once per content (rows of identical bytes share it) and removed
 * after the last row using it is gone. `videoEmbedRoutes` serves the page that plays one.
 */
import type { FastifyPluginAsync } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { createHash } from 'node:crypto';
import {
  VIDEO_COLUMNS,
  MESSAGES,
  PATHS,
  VIDEO_ID,
  VIDEO_SORTS,
  bulkIdsBody,
  bulkResponse,
  bulkStatusBody,
  dateBody,
  defNumsBody,
  deleteResponse,
  embedVideoPath,
  idParams,
  isDomain,
  positionBody,
  statusBody,
  videoCreateBody,
  videoCreated,
  videoList,
  videoListQuery,
  videoMutation,
  type Video,
  type AuditAction,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited, auditedCreate, updateAudited } from '../audit/record.ts';
import { moveToTrash } from '../trash/service.ts';
import type { FastifyRequest } from 'fastify';
import { requireAll } from '../../http/bulk.ts';
import { answers } from '../../http/schemas.ts';
import { HttpError, errorBody, notFound } from '../../http/errors.ts';
import { embedPolicy } from '../../http/security-headers.ts';
import { now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import type { Db } from '../../db/connect.ts';
import { upload } from '../../media/uploads.ts';
import { mediaOrigins } from '../../media/store.ts';
import { VIDEO_FORMATS, videoIdOf, videoKey, type VideoFormat } from '../../media/videos.ts';
import { MASTER_APPS_LIST } from '../master-apps/routes.ts';

import { LIVE_WINDOW, registerSchedule, windowOf } from '../../http/schedules.ts';

const MENU = 'video';

export const VIDEOS_LIST = defineList({
  name: 'videos',
  table: 'videos',
  alias: 'v',
  filters: { masterAppId: 'masterAppId', status: 'status' },
  counts: [['masterAppId', 'status']],
  search: [],
  searchVia: [{ column: 'masterAppId', list: MASTER_APPS_LIST }],
  sorts: VIDEO_SORTS,
  live: LIVE_WINDOW,
  rows: (db, ids) => selectVideos(db).where('v.id', 'in', ids),
});

/** Videos as the list and every answer show them. */
export const selectVideos = (d: Db) =>
  d
    .selectFrom('videos as v')
    .innerJoin('masterApps as m', 'm.id', 'v.masterAppId')
    .select([
      'v.id',
      'v.version',
      'v.masterAppId',
      'v.video',
      'v.position',
      'v.date',
      'v.downloadCount',
      'v.topDefNum',
      'v.selfDefNum',
      'v.bottomDefNum',
      'v.status',
      'v.liveFrom',
      'v.liveUntil',
      'v.createdAt',
      'v.updatedAt',
      'm.name as appName',
    ]);
type Row = Awaited<ReturnType<ReturnType<typeof selectVideos>['executeTakeFirstOrThrow']>>;

/** A 404 that names the field whose id has no row, so a form can mark it. */
const missing = (field: string, message: string) =>
  new HttpError(404, message, { details: [{ path: field, message }] });

const videoRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media, config } = app.ctx;
  const library = config.media.store;

  const toVideo = (row: Row): Video => {
    const { video: key, appName, ...video } = row;
    const videoId = videoIdOf(key);
    return {
      ...video,
      video_id: videoId,
      library_id: library,
      iframeLink: embedVideoPath(videoId),
      videoUrl: media.url(key),
      masterApp: { id: video.masterAppId, name: appName },
    };
  };

  async function findVideo(id: number): Promise<Video> {
    const row = await selectVideos(db).where('v.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.videoNotFound);
    return toVideo(row);
  }
  registerVersioned(app, 'videos', { thing: 'Video', things: 'videos', read: findVideo });

  app.post(
    PATHS.videoCreate,
    {
      config: { access: access.menu(MENU, 'CREATE'), uploads: { file: 'video' } },
      schema: {
        tags: ['videos'],
        summary:
          'Uploads a video (multipart `file`: MP4, WebM or QuickTime, checked by content) to one ' +
          'master app; identical bytes are stored once and shared. `videoId` is the new row’s id',
        body: videoCreateBody,
        response: answers(videoCreated),
      },
    },
    async (request) => {
      const file = upload(request, 'file', true);
      const { body } = request;
      const found = await db
        .selectFrom('masterApps')
        .select('id')
        .where('id', '=', body.masterAppId)
        .executeTakeFirst();
      if (!found) throw missing('masterAppId', MESSAGES.appNotFound);
      const video = await media.saveVideo(file);
      let id: number;
      try {
        const at = now();
        ({ id } = await auditedCreate(
          db,
          request,
          { area: 'videos', table: 'videos', action: 'CREATE' },
          (trx) =>
            trx
              .insertInto('videos')
              .values({
                masterAppId: body.masterAppId,
                accountId: request.account.id,
                video,
                topDefNum: body.topDefNum,
                selfDefNum: body.selfDefNum,
                bottomDefNum: body.bottomDefNum,
                position: body.position,
                date: body.date ?? null,
                status: 'ACTIVE',
                ...windowOf(body),
                createdAt: at,
                updatedAt: at,
              })
              .returning('id')
              .executeTakeFirstOrThrow(),
        ));
      } catch (err) {
        await media.release([video]);
        throw err;
      }
      return { message: MESSAGES.videoCreated, videoId: id, result: await findVideo(id) };
    },
  );

  app.get(
    PATHS.videoList,
    {
      config: { access: access.menu(MENU, 'VIEW'), listPage: true },
      schema: {
        tags: ['videos'],
        summary: 'Lists videos, newest first; keyword searches the name of their master app',
        querystring: videoListQuery,
        response: answers(videoList),
      },
    },
    async (request) => {
      const page = await lists.page(VIDEOS_LIST, request.query);
      return { ...page, result: page.result.map(toVideo) };
    },
  );

  registerListExport(app, {
    list: VIDEOS_LIST,
    path: PATHS.videoList,
    file: 'videos',
    access: access.menu(MENU, 'VIEW'),
    tags: ['videos'],
    what: 'videos',
    querystring: videoListQuery,
    response: videoList,
    titles: VIDEO_COLUMNS,
    map: toVideo,
  });

  /** Updates one video's columns; a 404 when there is no such video. */
  async function update(
    request: FastifyRequest,
    action: AuditAction,
    id: number,
    set: Record<string, unknown>,
  ) {
    const found = await updateAudited(
      db,
      request,
      { area: 'videos', table: 'videos', action, id },
      set,
    );
    if (!found) throw notFound(MESSAGES.videoNotFound);
    return findVideo(id);
  }

  app.patch(
    PATHS.videoDefNums(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['videos'],
        summary: 'Changes a video’s three default numbers (1..999)',
        params: idParams,
        body: defNumsBody,
        response: answers(videoMutation),
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
    PATHS.videoDate(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['videos'],
        summary: 'Sets a video’s date, or clears it with an empty value',
        params: idParams,
        body: dateBody,
        response: answers(videoMutation),
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
    PATHS.videoPosition(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['videos'],
        summary: 'Changes the side on which the user’s self photo is placed',
        params: idParams,
        body: positionBody,
        response: answers(videoMutation),
      },
    },
    async (request) => {
      const result = await update(request, 'UPDATE', request.params.id, {
        position: request.body.position,
      });
      return { message: MESSAGES.positionUpdated, result };
    },
  );

  registerSchedule(app, {
    path: PATHS.videoSchedule(':id'),
    access: access.menu(MENU, 'UPDATE'),
    tags: ['videos'],
    thing: 'video',
    response: videoMutation,
    update: (request, id, set) => update(request, 'UPDATE', id, set),
  });

  app.put(
    PATHS.videoStatus(':id'),
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['videos'],
        summary: 'Changes a video’s status',
        params: idParams,
        body: statusBody,
        response: answers(videoMutation),
      },
    },
    async (request) => {
      const result = await update(request, 'STATUS', request.params.id, {
        status: request.body.status,
      });
      return { message: MESSAGES.statusUpdated, result };
    },
  );

  app.put(
    PATHS.videoBulkStatus,
    {
      config: { access: access.menu(MENU, 'UPDATE') },
      schema: {
        tags: ['videos'],
        summary:
          'Changes the status of 1..500 videos, all or nothing: an id with no video is a 404 ' +
          'naming it, and nothing changes',
        body: bulkStatusBody,
        response: answers(bulkResponse),
      },
    },
    async (request) => {
      const { ids, status } = request.body;
      const target = { area: 'videos', table: 'videos', action: 'STATUS', ids } as const;
      await audited(db, request, target, async (trx) => {
        const updated = await trx
          .updateTable('videos')
          .set({ status, updatedAt: now() })
          .where('id', 'in', ids)
          .returning('id')
          .execute();
        requireAll('video', ids, updated);
      });
      return { message: MESSAGES.statusUpdated, result: { ids, count: ids.length } };
    },
  );

  app.delete(
    PATHS.videoRemove(':id'),
    {
      config: { access: access.menu(MENU, 'DELETE') },
      schema: {
        tags: ['videos'],
        summary: 'Moves a video, with its file, to the trash',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const row = await audited(
        db,
        request,
        { area: 'videos', table: 'videos', action: 'DELETE', ids: [request.params.id] },
        async (trx) => (await moveToTrash(trx, request, 'videos', [request.params.id]))[0],
      );
      if (!row) throw notFound(MESSAGES.videoNotFound);
      return { message: MESSAGES.videoDeleted, result: { id: request.params.id } };
    },
  );

  app.delete(
    PATHS.videoRemoveMany,
    {
      config: { access: access.menu(MENU, 'DELETE') },
      schema: {
        tags: ['videos'],
        summary:
          'Moves 1..500 videos (with their files) to the trash, all or nothing (an id with no ' +
          'video is a 404 naming it, and nothing is deleted)',
        body: bulkIdsBody,
        response: answers(bulkResponse),
      },
    },
    async (request) => {
      const { ids } = request.body;
      const target = { area: 'videos', table: 'videos', action: 'DELETE', ids } as const;
      await audited(db, request, target, async (trx) => {
        requireAll('video', ids, await moveToTrash(trx, request, 'videos', ids));
      });
      return { message: MESSAGES.videoDeleted, result: { ids, count: ids.length } };
    },
  );
};

export default videoRoutes;

/** The embed page's only style: the player fills the frame. */
const EMBED_STYLE =
  'html,body{margin:0;height:100%;background:#000}' +
  'video{display:block;width:100%;height:100%;object-fit:contain}';
const EMBED_STYLE_HASH = `sha256-${createHash('sha256').update(EMBED_STYLE).digest('base64')}`;

const escapeAttribute = (value: string) =>
  value.replace(
    /[&"<>]/g,
    (c) => ({ '&': '&amp;', '"': '&quot;', '<': '&lt;', '>': '&gt;' })[c] ?? c,
  );

/**
 * A master app's domain setting as a CSP source: the origin of a URL, or a host (with its port)
 * as written; anything else (which the settings refuse anyway) is left out.
 */
export function frameSource(domain: string): string | undefined {
  if (!isDomain(domain)) return undefined;
  if (/^https?:\/\//i.test(domain)) {
    try {
      return new URL(domain).origin;
    } catch {
      return undefined;
    }
  }
  return domain.toLowerCase();
}

/**
 * `GET /embed/video/{video_id}`, public, outside the API like /media: a minimal HTML5 player for
 * a stored video that some row still uses, which this server and the domains the master apps'
 * settings name (`user_domain`, `mobile_domain`) may frame, no one else.
 */
export const videoEmbedRoutes: FastifyPluginAsync = async (app) => {
  const { db, media, config } = app.ctx;
  const origins = mediaOrigins(config);
  const formats = Object.keys(VIDEO_FORMATS) as VideoFormat[];

  app.get<{ Params: { videoId: string } }>(
    embedVideoPath(':videoId'),
    { schema: { hide: true } },
    async (request, reply) => {
      const { videoId } = request.params;
      const row = VIDEO_ID.test(videoId)
        ? await db
            .selectFrom('videos')
            .select('video')
            .where(
              'video',
              'in',
              formats.map((f) => videoKey(videoId, f)),
            )
            .limit(1)
            .executeTakeFirst()
        : undefined;
      if (!row) return reply.code(404).send(errorBody(404, MESSAGES.videoNotFound));

      const settings = await db
        .selectFrom('settings')
        .select(['userDomain', 'mobileDomain'])
        .execute();
      const ancestors = new Set<string>();
      for (const domain of settings.flatMap((s) => [s.userDomain, s.mobileDomain])) {
        const source = domain ? frameSource(domain) : undefined;
        if (source) ancestors.add(source);
      }
      const src = escapeAttribute(media.url(row.video));
      return reply
        .header(
          'content-security-policy',
          embedPolicy({
            mediaOrigins: origins,
            styleHashes: [EMBED_STYLE_HASH],
            frameAncestors: [...ancestors],
          }),
        )
        .header('cross-origin-resource-policy', 'cross-origin')
        .header('cache-control', 'no-cache')
        .type('text/html; charset=utf-8')
        .send(
          '<!doctype html>\n' +
            '<html lang="en">\n' +
            '<head>\n' +
            '<meta charset="utf-8">\n' +
            '<meta name="viewport" content="width=device-width, initial-scale=1">\n' +
            '<meta name="robots" content="noindex">\n' +
            '<title>Video</title>\n' +
            `<style>${EMBED_STYLE}</style>\n` +
            '</head>\n' +
            '<body>\n' +
            `<video controls playsinline preload="metadata" src="${src}"></video>\n` +
            '</body>\n' +
            '</html>\n',
        );
    },
  );
};
