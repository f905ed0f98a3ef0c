/** Contact us: enquiries sent from the content app's public form, read in the back office. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CONTACT_US_COLUMNS,
  MESSAGES,
  PATHS,
  contactUsBody,
  contactUsList,
  contactUsListQuery,
  contactUsReceived,
  CONTACT_US_SORTS,
  type ContactUsBody,
} from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { access } from '../../http/access.ts';
import { registerListExport } from '../../http/list-export.ts';
import { answers } from '../../http/schemas.ts';
import { now } from '../../db/dialect.ts';
import { defineList } from '../../db/lists.ts';

const COLUMNS = [
  'id',
  'version',
  'fName',
  'lName',
  'email',
  'phoneNumber',
  'query',
  'createdAt',
] as const;

export const CONTACT_US_LIST = defineList({
  name: 'contact_us',
  table: 'contactUs',
  alias: 'contactUs',
  filters: {},
  counts: [[]],
  search: ['fName', 'lName', 'email', 'phoneNumber', 'query'],
  sorts: CONTACT_US_SORTS,
  caseless: ['fName', 'email'],
  rows: (db, ids) => db.selectFrom('contactUs').select(COLUMNS).where('id', 'in', ids),
});

/** Keeps an enquiry (the public form's, or an app's); answers its id. */
export async function saveEnquiry(db: Db, body: ContactUsBody): Promise<number> {
  const { id } = await db
    .insertInto('contactUs')
    .values({ ...body, createdAt: now() })
    .returning('id')
    .executeTakeFirstOrThrow();
  return id;
}

const contactUsRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, config } = app.ctx;

  app.post(
    PATHS.contactSubmit,
    {
      config: {
        access: access.public,
        rateLimit: { max: config.contactRatePerHour, timeWindow: '1 hour' },
      },
      schema: {
        tags: ['contact us'],
        summary: 'Sends an enquiry (no token needed)',
        description:
          `Open to anyone; at most CONTACT_RATE_PER_HOUR (now ${config.contactRatePerHour}) ` +
          'submissions per hour from one IP address, counting refused ones, then 429 with ' +
          'Retry-After. `phoneNumber` is digits with an optional leading +, 6 to 20 characters. ' +
          'Answers the message and the id of the stored enquiry.',
        security: [],
        body: contactUsBody,
        response: answers(contactUsReceived),
      },
    },
    async (request) => ({
      message: MESSAGES.contactReceived,
      result: { id: await saveEnquiry(db, request.body) },
    }),
  );

  app.get(
    PATHS.contactList,
    {
      config: { access: access.menu('contactUs', 'VIEW'), listPage: true },
      schema: {
        tags: ['contact us'],
        summary:
          'Lists enquiries, newest first; keyword searches the names, email, phone number and query',
        querystring: contactUsListQuery,
        response: answers(contactUsList),
      },
    },
    async (request) => {
      return lists.page(CONTACT_US_LIST, request.query);
    },
  );

  registerListExport(app, {
    list: CONTACT_US_LIST,
    path: PATHS.contactList,
    file: 'contact-us',
    access: access.menu('contactUs', 'VIEW'),
    tags: ['contact us'],
    what: 'enquiries',
    querystring: contactUsListQuery,
    response: contactUsList,
    titles: CONTACT_US_COLUMNS,
  });
};
export default contactUsRoutes;
