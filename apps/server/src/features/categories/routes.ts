/** Categories: the groups posters belong to. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CATEGORY_COLUMNS,
  MESSAGES,
  OPTIONS_LIMIT,
  optionsQuery,
  categoryOptions,
  PATHS,
  categoryBody,
  categoryList,
  categoryListQuery,
  categoryMutation,
  deleteResponse,
  idParams,
  statusBody,
  CATEGORY_SORTS,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { audited, auditedCreate } from '../audit/record.ts';
import { trashUnlessPostersUse } from '../trash/service.ts';
import { answers } from '../../http/schemas.ts';
import { conflict, notFound } from '../../http/errors.ts';
import { isUniqueViolation, now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import { registerVersioned } from '../../http/versions.ts';

const COLUMNS = ['id', 'version', 'name', 'downloadCount', 'status', 'createdAt'] as const;

export const CATEGORIES_LIST = defineList({
  name: 'categories',
  table: 'categories',
  alias: 'categories',
  filters: { status: 'status' },
  counts: [['status']],
  search: ['name'],
  sorts: CATEGORY_SORTS,
  caseless: ['name'],
  rows: (db, ids) => db.selectFrom('categories').select(COLUMNS).where('id', 'in', ids),
});

const categoryRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists } = app.ctx;
  registerVersioned(app, 'categories', {
    thing: 'Category',
    things: 'categories',
    read: (id) =>
      db.selectFrom('categories').select(COLUMNS).where('id', '=', id).executeTakeFirst(),
  });

  /** Runs a write whose only expected failure is a taken name. */
  async function uniqueName<T>(write: () => Promise<T>): Promise<T> {
    try {
      return await write();
    } catch (err) {
      if (isUniqueViolation(err)) throw conflict(MESSAGES.categoryNameTaken, 'name');
      throw err;
    }
  }

  app.post(
    PATHS.categoryCreate,
    {
      config: { access: access.menu('category', 'CREATE') },
      schema: {
        tags: ['categories'],
        summary: 'Creates a category (name unique, case-insensitive), ACTIVE with no downloads',
        body: categoryBody,
        response: answers(categoryMutation),
      },
    },
    async (request) => {
      const at = now();
      const target = { area: 'categories', table: 'categories', action: 'CREATE' } as const;
      const row = await uniqueName(() =>
        auditedCreate(db, request, target, (trx) =>
          trx
            .insertInto('categories')
            .values({
              name: request.body.name,
              downloadCount: 0,
              status: 'ACTIVE',
              createdAt: at,
              updatedAt: at,
            })
            .returning(COLUMNS)
            .executeTakeFirstOrThrow(),
        ),
      );
      return { message: MESSAGES.categoryCreated, result: row };
    },
  );

  app.get(
    PATHS.categoryOptions,
    {
      config: { access: access.signedIn, listPage: true },
      schema: {
        tags: ['categories'],
        summary: 'The first 100 categories by name matching `keyword`: a picker’s choices',
        description:
          'Open to every signed-in account, since other areas (posters) point at categories; ' +
          'the list itself needs its menu. `total` counts every match.',
        querystring: optionsQuery,
        response: answers(categoryOptions),
      },
    },
    async (request) => {
      const page = await lists.page(CATEGORIES_LIST, {
        limit: OPTIONS_LIMIT,
        offset: 0,
        keyword: request.query.keyword,
        sort: 'name',
      });
      return {
        result: page.result.map((r) => ({ id: r.id, name: r.name, status: r.status })),
        total: page.total,
      };
    },
  );

  app.get(
    PATHS.categoryList,
    {
      config: { access: access.menu('category', 'VIEW'), listPage: true },
      schema: {
        tags: ['categories'],
        summary: 'Lists categories, newest first; keyword searches the name',
        querystring: categoryListQuery,
        response: answers(categoryList),
      },
    },
    async (request) => {
      return lists.page(CATEGORIES_LIST, request.query);
    },
  );

  registerListExport(app, {
    list: CATEGORIES_LIST,
    path: PATHS.categoryList,
    file: 'categories',
    access: access.menu('category', 'VIEW'),
    tags: ['categories'],
    what: 'categories',
    querystring: categoryListQuery,
    response: categoryList,
    titles: CATEGORY_COLUMNS,
  });

  app.patch(
    PATHS.category(':id'),
    {
      config: { access: access.menu('category', 'UPDATE') },
      schema: {
        tags: ['categories'],
        summary: 'Renames a category (name unique, case-insensitive)',
        params: idParams,
        body: categoryBody,
        response: answers(categoryMutation),
      },
    },
    async (request) => {
      const { id } = request.params;
      const target = {
        area: 'categories',
        table: 'categories',
        action: 'UPDATE',
        ids: [id],
      } as const;
      const row = await uniqueName(() =>
        audited(db, request, target, (trx) =>
          trx
            .updateTable('categories')
            .set({ name: request.body.name, updatedAt: now() })
            .where('id', '=', id)
            .returning(COLUMNS)
            .executeTakeFirst(),
        ),
      );
      if (!row) throw notFound(MESSAGES.categoryNotFound);
      return { message: MESSAGES.categoryUpdated, result: row };
    },
  );

  app.put(
    PATHS.categoryStatus(':id'),
    {
      config: { access: access.menu('category', 'UPDATE') },
      schema: {
        tags: ['categories'],
        summary: 'Changes a category’s status',
        params: idParams,
        body: statusBody,
        response: answers(categoryMutation),
      },
    },
    async (request) => {
      const row = await audited(
        db,
        request,
        { area: 'categories', table: 'categories', action: 'STATUS', ids: [request.params.id] },
        (trx) =>
          trx
            .updateTable('categories')
            .set({ status: request.body.status, updatedAt: now() })
            .where('id', '=', request.params.id)
            .returning(COLUMNS)
            .executeTakeFirst(),
      );
      if (!row) throw notFound(MESSAGES.categoryNotFound);
      return { message: MESSAGES.statusUpdated, result: row };
    },
  );

  app.delete(
    PATHS.categoryRemove(':id'),
    {
      config: { access: access.menu('category', 'DELETE') },
      schema: {
        tags: ['categories'],
        summary: 'Moves a category that no poster uses to the trash',
        description: `While any poster belongs to the category, answers 409 "${MESSAGES.categoryInUse}" and deletes nothing.`,
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const { id } = request.params;
      const row = await trashUnlessPostersUse(
        db,
        request,
        'categories',
        id,
        'categoryId',
        MESSAGES.categoryInUse,
      );
      if (!row) throw notFound(MESSAGES.categoryNotFound);
      return { message: MESSAGES.categoryDeleted, result: { id: row.id } };
    },
  );
};
export default categoryRoutes;
