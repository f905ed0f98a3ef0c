/** The trash's calls (API.md "Planning festivals"): its list, restore, purge. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  TRASH_AREAS,
  trashItemsBody,
  trashList,
  trashListQuery,
  trashResponse,
  type TrashArea,
  type TrashRow,
} from '@master-admin/contract';
import { sql } from 'kysely';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { forbidden } from '../../http/errors.ts';
import { displayName } from '../../events/presence.ts';
import { deletableAreas, purgeItems, restoreItems } from './service.ts';

const trashRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, dialect, media } = app.ctx;

  app.get(
    PATHS.trash,
    {
      config: { access: access.signedIn },
      schema: {
        tags: ['trash'],
        summary:
          'Lists deleted rows kept in the trash, newest first, of the areas the caller may ' +
          'delete in; keyword searches their titles',
        description:
          'Areas: posters, videos, banners, categories, specialDays, blogs, pages, faqs, ' +
          'notifications; each is shown to accounts holding DELETE on its menu (SUPER_ADMIN: ' +
          'all); an account with DELETE in none sees an empty trash, and one asking for an ' +
          '`area` it may not delete in is refused (403). Rows stay TRASH_DAYS days (30 by default), then the sweep deletes ' +
          'them and their files for good.',
        querystring: trashListQuery,
        response: answers(trashList),
      },
    },
    async (request) => {
      const allowed = await deletableAreas(db, request.account);
      const { area, keyword, limit, offset } = request.query;
      if (area !== undefined && !allowed.has(area)) throw forbidden();
      const areas: TrashArea[] = area ? [area] : TRASH_AREAS.filter((a) => allowed.has(a));
      // DELETE in no trashable area: nothing of the trash is this account's to see.
      if (areas.length === 0) return { result: [], total: 0, nextCursor: null };
      let base = db.selectFrom('trash as t').where('t.area', 'in', areas);
      if (keyword) {
        base = base.where(dialect.contains('t.title', dialect.containsPattern(keyword)));
      }
      const [{ total } = { total: 0 }] = await base
        .select(sql<number>`count(*)`.as('total'))
        .execute();
      const rows = await base
        .leftJoin('accounts as a', 'a.id', 't.deletedBy')
        .select([
          't.area',
          't.rowId',
          't.title',
          't.thumbnail',
          't.deletedAt',
          't.deletedBy',
          'a.name',
          'a.email',
          'a.phoneNumber',
        ])
        .orderBy('t.deletedAt', 'desc')
        .orderBy('t.id', 'desc')
        .limit(limit)
        .offset(offset)
        .execute();
      const result = rows.map((r): TrashRow => ({
        area: r.area as TrashArea,
        id: r.rowId,
        title: r.title,
        thumbnail: media.url(r.thumbnail),
        deletedAt: r.deletedAt,
        deletedBy:
          r.deletedBy === null
            ? null
            : {
                id: r.deletedBy,
                name: displayName({
                  id: r.deletedBy,
                  name: r.name,
                  email: r.email,
                  phoneNumber: r.phoneNumber,
                }),
              },
      }));
      return { result, total: Number(total), nextCursor: null };
    },
  );

  app.post(
    PATHS.trashRestore,
    {
      config: { access: access.signedIn, jsonBody: true },
      schema: {
        tags: ['trash'],
        summary:
          'Restores 1..500 trashed rows, all or nothing, each with its id, its files and what ' +
          'went with it (a poster’s downloads and likes, a notification’s reads)',
        description:
          'An item not in the trash, or of an area the caller may not delete in, is a 404 naming ' +
          'it; a row whose unique value was taken meanwhile (a category’s name), or whose ' +
          'category, special day or app is no longer there, a 409 naming it. Then nothing is ' +
          'restored. A restored row has a new version.',
        body: trashItemsBody,
        response: answers(trashResponse),
      },
    },
    async (request) => {
      const { items } = request.body;
      await restoreItems(db, request, items, await deletableAreas(db, request.account));
      return { message: MESSAGES.restored, result: { items, count: items.length } };
    },
  );

  app.delete(
    PATHS.trash,
    {
      config: { access: access.superAdmin, jsonBody: true },
      schema: {
        tags: ['trash'],
        summary:
          'Deletes 1..500 trashed rows for good, all or nothing (SUPER_ADMIN): the rows, then ' +
          'their files when no other row names them',
        description: 'An item not in the trash is a 404 naming it, and nothing is deleted.',
        body: trashItemsBody,
        response: answers(trashResponse),
      },
    },
    async (request) => {
      const { items } = request.body;
      await purgeItems(db, request, media, items);
      return { message: MESSAGES.purged, result: { items, count: items.length } };
    },
  );
};
export default trashRoutes;
