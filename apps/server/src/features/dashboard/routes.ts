import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  PATHS,
  dashboardCounts,
  dashboardQuery,
  type DashboardCounts,
} from '@master-admin/contract';
import { access } from '../../http/access.ts';
import { answers } from '../../http/schemas.ts';
import { viewableMenus } from '../../auth/viewable.ts';
import { createdWindow } from './period.ts';
import trendRoutes from './trends.ts';

const dashboardRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db } = app.ctx;
  await app.register(trendRoutes);

  app.get(
    PATHS.dashboard,
    {
      config: { access: access.menu('dashboard', 'VIEW') },
      schema: {
        tags: ['dashboard'],
        summary: 'Counts of users, categories and posters created in a window',
        description:
          'fromDate/toDate are whole UTC days, both included; inDays is the last N days (from ' +
          'now, or the N days ending with toDate). Given together, every bound applies: the ' +
          'period starts at the later of fromDate and inDays. toDate must not be before ' +
          'fromDate (400 naming toDate). With none, all time. masterAppId narrows ' +
          'users and posters (categories are shared by every app). downloadPoster sums the ' +
          'downloads of the posters counted. Deleted users are not counted. totalUser is told ' +
          'only to an account that may VIEW users (left out for any other): the users are ' +
          'people, the other counts the dashboard’s own.',
        querystring: dashboardQuery,
        response: answers(dashboardCounts),
      },
    },
    async (request) => {
      const { from, to } = createdWindow(request.query);
      const appId = request.query.masterAppId;

      const mayViewUsers = (await viewableMenus(db, request.account, ['users'])).has('users');
      const users = () =>
        db
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('role', '=', 'USER')
          .where('status', '<>', 'DELETED')
          .$if(appId !== undefined, (qb) => qb.where('masterAppId', '=', appId!))
          .$if(from !== undefined, (qb) => qb.where('createdAt', '>=', from!))
          .$if(to !== undefined, (qb) => qb.where('createdAt', '<=', to!))
          .executeTakeFirstOrThrow();
      const categories = () =>
        db
          .selectFrom('categories')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .$if(from !== undefined, (qb) => qb.where('createdAt', '>=', from!))
          .$if(to !== undefined, (qb) => qb.where('createdAt', '<=', to!))
          .executeTakeFirstOrThrow();
      const posters = () =>
        db
          .selectFrom('posters')
          .select((eb) => [
            eb.fn.countAll<number>().as('n'),
            eb.fn.coalesce(eb.fn.sum<number>('downloadCount'), eb.lit(0)).as('downloads'),
          ])
          .$if(appId !== undefined, (qb) => qb.where('masterAppId', '=', appId!))
          .$if(from !== undefined, (qb) => qb.where('createdAt', '>=', from!))
          .$if(to !== undefined, (qb) => qb.where('createdAt', '<=', to!))
          .executeTakeFirstOrThrow();
      // Users are counted (and so sent) only to an account that may view them.
      const [u, c, p] = await Promise.all([
        mayViewUsers ? users() : undefined,
        categories(),
        posters(),
      ]);
      const answer: DashboardCounts = {
        totalCategory: Number(c.n),
        totalPoster: Number(p.n),
        downloadPoster: Number(p.downloads),
      };
      if (u) answer.totalUser = Number(u.n);
      return answer;
    },
  );
};
export default dashboardRoutes;
