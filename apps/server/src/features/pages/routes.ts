import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PAGE_COLUMNS,
  MESSAGES,
  PATHS,
  idParams,
  page,
  pageList,
  pageListQuery,
  pageMutation,
  pageUpdateBody,
  type Page,
  PAGE_SORTS,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { audited } from '../audit/record.ts';
import { answers } from '../../http/schemas.ts';
import { notFound } from '../../http/errors.ts';
import { mediaPrefixes, sanitizeRichText } from '../../http/rich-text.ts';
import { now } from '../../db/dialect.ts';
import type { Db } from '../../db/connect.ts';
import { defineList } from '../../db/lists.ts';

const COLUMNS = [
  'p.id',
  'p.version',
  'p.title',
  'p.desc',
  'p.updatedAt',
  'm.id as appId',
  'm.name as appName',
] as const;

const selectPages = (d: Db) =>
  d.selectFrom('pages as p').innerJoin('masterApps as m', 'm.id', 'p.masterAppId').select(COLUMNS);
type Row = Awaited<ReturnType<ReturnType<typeof selectPages>['executeTakeFirstOrThrow']>>;

export const PAGES_LIST = defineList({
  name: 'pages',
  table: 'pages',
  alias: 'p',
  filters: { masterAppId: 'masterAppId' },
  counts: [['masterAppId']],
  search: ['title'],
  sorts: PAGE_SORTS,
  caseless: ['title'],
  rows: (db, ids) => selectPages(db).where('p.id', 'in', ids),
});

/**
 * A master app's pages. They are created with the app (see master-apps/routes.ts) and go with
 * it: no call creates or deletes one.
 */
const pageRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media } = app.ctx;
  const prefixes = mediaPrefixes(media.store);

  const toPage = ({ appId, appName, ...row }: Row): Page => ({
    ...row,
    masterApp: { id: appId, name: appName },
  });

  async function findPage(id: number): Promise<Page> {
    const row = await selectPages(db).where('p.id', '=', id).executeTakeFirst();
    if (!row) throw notFound(MESSAGES.pageNotFound);
    return toPage(row);
  }
  registerVersioned(app, 'pages', { thing: 'Page', things: 'pages', read: findPage });

  app.get(
    PATHS.pageList,
    {
      config: { access: access.menu('pages', 'VIEW'), listPage: true },
      schema: {
        tags: ['pages'],
        summary: 'Lists pages, newest first; keyword searches the title',
        querystring: pageListQuery,
        response: answers(pageList),
      },
    },
    async (request) => {
      const page = await lists.page(PAGES_LIST, request.query);
      return { ...page, result: page.result.map(toPage) };
    },
  );

  registerListExport(app, {
    list: PAGES_LIST,
    path: PATHS.pageList,
    file: 'pages',
    access: access.menu('pages', 'VIEW'),
    tags: ['pages'],
    what: 'pages',
    querystring: pageListQuery,
    response: pageList,
    titles: PAGE_COLUMNS,
    map: toPage,
  });

  app.get(
    PATHS.page(':id'),
    {
      config: { access: access.menu('pages', 'VIEW') },
      schema: {
        tags: ['pages'],
        summary: 'One page',
        params: idParams,
        response: answers(page),
      },
    },
    async (request) => findPage(request.params.id),
  );

  app.patch(
    PATHS.page(':id'),
    {
      config: { access: access.menu('pages', 'UPDATE') },
      schema: {
        tags: ['pages'],
        summary: 'Changes a page’s title, text or both',
        description:
          'At least one field. `desc` is rich text (at most 100000 characters), stored sanitised ' +
          'to a safe HTML subset; it may be empty.',
        params: idParams,
        body: pageUpdateBody,
        response: answers(pageMutation),
      },
    },
    async (request) => {
      const { title } = request.body;
      const desc =
        request.body.desc === undefined ? undefined : sanitizeRichText(request.body.desc, prefixes);
      const { numUpdatedRows } = await audited(
        db,
        request,
        { area: 'pages', table: 'pages', action: 'UPDATE', ids: [request.params.id] },
        (trx) =>
          trx
            .updateTable('pages')
            .set({ title, desc, updatedAt: now() })
            .where('id', '=', request.params.id)
            .executeTakeFirst(),
      );
      if (numUpdatedRows === 0n) throw notFound(MESSAGES.pageNotFound);
      return { message: MESSAGES.pageUpdated, result: await findPage(request.params.id) };
    },
  );
};
export default pageRoutes;
