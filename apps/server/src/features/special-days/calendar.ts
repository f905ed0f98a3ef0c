/** The special-day calendar: one month's special days with their active posters per app. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PATHS, specialDayCalendar, specialDayCalendarQuery } from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { withActivePosters } from './active-posters.ts';

const calendarRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, database } = app.ctx;

  app.get(
    PATHS.specialDayCalendar,
    {
      config: { access: access.menu('specialDay', 'VIEW') },
      schema: {
        tags: ['special days'],
        summary: 'The special days of one month, with their ACTIVE posters in all and per app',
        description:
          'Special days recur every year, so a month (1..12) names them all, whatever their ' +
          'status or year; ordered by day, then id (29 February included: a calendar of a ' +
          'year without it shows them apart). `activePosters` counts ACTIVE posters made for ' +
          'the day; `apps` holds every master app with its count, zeros included.',
        querystring: specialDayCalendarQuery,
        response: answers(specialDayCalendar),
      },
    },
    async (request) => {
      const { month } = request.query;
      const days = () =>
        db
          .selectFrom('specialDays')
          .select(['id', 'name', 'month', 'day', 'status'])
          .where('month', '=', month)
          .orderBy('day')
          .orderBy('id');
      return {
        month,
        result: await withActivePosters(db, database.reads, `calendar ${month}`, days),
      };
    },
  );
};
export default calendarRoutes;
