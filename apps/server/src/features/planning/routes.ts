/** Festival planning (API.md "Planning festivals"): the coverage of the days ahead. */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { MESSAGES, PATHS, coverage, coverageQuery } from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { notFound } from '../../http/errors.ts';
import { answers } from '../../http/schemas.ts';
import { readCoverage } from './coverage.ts';

const planningRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, database, config } = app.ctx;

  app.get(
    PATHS.planningCoverage,
    {
      // The plan is the special-day calendar's: who may view special days may read it.
      config: { access: access.menu('specialDay', 'VIEW') },
      schema: {
        tags: ['special days'],
        summary: 'Per day and master app, the posters and videos live that day',
        description:
          'The `days` days from `from` (1..90; a period asked past 9999-12-31 stops there), each with its ACTIVE special days (month and ' +
          'day; a special day with a `year` falls in that year only, 29 February in leap years ' +
          'only) and, for every master app ordered by name (or the one `masterAppId` names; 404 ' +
          'when it has no row), `posters`: its ACTIVE posters made for one of those special ' +
          "days whose window (`liveFrom`/`liveUntil`, open when null) overlaps the day in the app's " +
          'time zone; `videos`: its ACTIVE videos whose `date` is the day, with the same window ' +
          'rule (videos have no special day). A special day with `posters` 0 in an app is a gap.',
        querystring: coverageQuery,
        response: answers(coverage),
      },
    },
    async (request) => {
      const { coverage: result, appFound } = await readCoverage(
        db,
        database.reads,
        request.query,
        config.defaultTimeZone,
      );
      if (!appFound) throw notFound(MESSAGES.appNotFound);
      return result;
    },
  );
};
export default planningRoutes;
