/** FAQs: question and answer pairs the content app shows. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  FAQ_COLUMNS,
  MESSAGES,
  PATHS,
  deleteResponse,
  faqCreateBody,
  faqList,
  faqListQuery,
  faqMutation,
  faqUpdateBody,
  idParams,
  FAQ_SORTS,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { registerVersioned } from '../../http/versions.ts';
import { answers } from '../../http/schemas.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';
import { audited, auditedCreate } from '../audit/record.ts';
import { moveToTrash } from '../trash/service.ts';

const COLUMNS = ['id', 'version', 'question', 'answer', 'createdAt'] as const;

export const FAQS_LIST = defineList({
  name: 'faqs',
  table: 'faqs',
  alias: 'faqs',
  filters: {},
  counts: [[]],
  search: ['question', 'answer'],
  sorts: FAQ_SORTS,
  caseless: ['question'],
  rows: (db, ids) => db.selectFrom('faqs').select(COLUMNS).where('id', 'in', ids),
});

const faqRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists } = app.ctx;
  registerVersioned(app, 'faqs', {
    thing: 'FAQ',
    things: 'FAQs',
    read: (id) => db.selectFrom('faqs').select(COLUMNS).where('id', '=', id).executeTakeFirst(),
  });

  app.post(
    PATHS.faqCreate,
    {
      config: { access: access.menu('faqs', 'CREATE') },
      schema: {
        tags: ['faqs'],
        summary: 'Creates a FAQ',
        body: faqCreateBody,
        response: answers(faqMutation),
      },
    },
    async (request) => {
      const at = now();
      const target = { area: 'faqs', table: 'faqs', action: 'CREATE' } as const;
      const row = await auditedCreate(db, request, target, (trx) =>
        trx
          .insertInto('faqs')
          .values({ ...request.body, createdAt: at, updatedAt: at })
          .returning(COLUMNS)
          .executeTakeFirstOrThrow(),
      );
      return { message: MESSAGES.faqCreated, result: row };
    },
  );

  app.get(
    PATHS.faqList,
    {
      config: { access: access.menu('faqs', 'VIEW'), listPage: true },
      schema: {
        tags: ['faqs'],
        summary: 'Lists FAQs, newest first; keyword searches the question and the answer',
        querystring: faqListQuery,
        response: answers(faqList),
      },
    },
    async (request) => {
      return lists.page(FAQS_LIST, request.query);
    },
  );

  registerListExport(app, {
    list: FAQS_LIST,
    path: PATHS.faqList,
    file: 'faqs',
    access: access.menu('faqs', 'VIEW'),
    tags: ['faqs'],
    what: 'FAQs',
    querystring: faqListQuery,
    response: faqList,
    titles: FAQ_COLUMNS,
  });

  app.patch(
    PATHS.faqUpdate(':id'),
    {
      config: { access: access.menu('faqs', 'UPDATE') },
      schema: {
        tags: ['faqs'],
        summary: 'Changes a FAQ’s question, answer or both (at least one)',
        params: idParams,
        body: faqUpdateBody,
        response: answers(faqMutation),
      },
    },
    async (request) => {
      const { question, answer } = request.body;
      const { id } = request.params;
      const target = { area: 'faqs', table: 'faqs', action: 'UPDATE', ids: [id] } as const;
      const row = await audited(db, request, target, (trx) =>
        trx
          .updateTable('faqs')
          .set({
            ...(question !== undefined ? { question } : {}),
            ...(answer !== undefined ? { answer } : {}),
            updatedAt: now(),
          })
          .where('id', '=', id)
          .returning(COLUMNS)
          .executeTakeFirst(),
      );
      if (!row) throw notFound(MESSAGES.faqNotFound);
      return { message: MESSAGES.faqUpdated, result: row };
    },
  );

  app.delete(
    PATHS.faqRemove(':id'),
    {
      config: { access: access.menu('faqs', 'DELETE') },
      schema: {
        tags: ['faqs'],
        summary: 'Moves a FAQ to the trash',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const { id } = request.params;
      const target = { area: 'faqs', table: 'faqs', action: 'DELETE', ids: [id] } as const;
      const row = await audited(db, request, target, (trx) =>
        moveToTrash(trx, request, 'faqs', [id]).then((rows) => rows[0]),
      );
      if (!row) throw notFound(MESSAGES.faqNotFound);
      return { message: MESSAGES.faqDeleted, result: { id: row.id } };
    },
  );
};
export default faqRoutes;
