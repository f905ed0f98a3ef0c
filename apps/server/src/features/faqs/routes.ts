/** FAQs: question and answer pairs the content app shows. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  MESSAGES,
  PATHS,
  deleteResponse,
  faqCreateBody,
  faqList,
  faqListQuery,
  faqMutation,
  faqUpdateBody,
  idParams,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { notFound } from '../../http/errors.ts';
import { now } from '../../db/dialect.ts';
import { listPage } from '../../db/list.ts';

const COLUMNS = ['id', 'question', 'answer', 'createdAt'] as const;

const faqRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, dialect } = app.ctx;

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
      const row = await db
        .insertInto('faqs')
        .values({ ...request.body, createdAt: at, updatedAt: at })
        .returning(COLUMNS)
        .executeTakeFirstOrThrow();
      return { message: MESSAGES.faqCreated, result: row };
    },
  );

  app.get(
    PATHS.faqList,
    {
      config: { access: access.menu('faqs', 'VIEW') },
      schema: {
        tags: ['faqs'],
        summary: 'Lists FAQs, newest first; keyword searches the question and the answer',
        querystring: faqListQuery,
        response: answers(faqList),
      },
    },
    async (request) => {
      const { keyword, limit, offset } = request.query;
      const base = db
        .selectFrom('faqs')
        .$if(keyword !== undefined, (qb) =>
          qb.where((eb) =>
            eb.or([dialect.contains('question', keyword!), dialect.contains('answer', keyword!)]),
          ),
        );
      return listPage(
        base,
        (qb) => qb.select(COLUMNS).orderBy('createdAt', 'desc').orderBy('id', 'desc'),
        { limit, offset },
      );
    },
  );

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
      const row = await db
        .updateTable('faqs')
        .set({
          ...(question !== undefined ? { question } : {}),
          ...(answer !== undefined ? { answer } : {}),
          updatedAt: now(),
        })
        .where('id', '=', request.params.id)
        .returning(COLUMNS)
        .executeTakeFirst();
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
        summary: 'Deletes a FAQ',
        params: idParams,
        response: answers(deleteResponse),
      },
    },
    async (request) => {
      const row = await db
        .deleteFrom('faqs')
        .where('id', '=', request.params.id)
        .returning('id')
        .executeTakeFirst();
      if (!row) throw notFound(MESSAGES.faqNotFound);
      return { message: MESSAGES.faqDeleted, result: { id: row.id } };
    },
  );
};
export default faqRoutes;
