/**
 * What the content apps show before anyone signs in (API.md "Apps API", Content): the app's key
 * is enough. Only ACTIVE rows, and of the app the key names where rows belong to an app; posters,
 * videos and banners only while live (ACTIVE and inside their schedule, read at query time; a
 * kept answer lasts at most a minute, so a window that opens shows within it); feeds
 * page by cursor through the one list mechanism (`lists.page`), so a page costs the same at any
 * depth. Every answer carries an ETag and may be cached a minute (ContentAnswers).
 */
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  APP_PATHS,
  MESSAGES,
  all,
  appBlog,
  appBlogSummary,
  appCategory,
  appFaq,
  appHome,
  appPage,
  appPoster,
  appSpecialDay,
  appVideo,
  feed,
  feedQuery,
  idParams,
  posterFeedQuery,
  specialDaysQuery,
  type AppPoster,
} from '@master-admin/contract';
import type { Db } from '../../db/connect.ts';
import { now } from '../../db/dialect.ts';
import { notFound } from '../../http/errors.ts';
import { answers } from '../../http/schemas.ts';
import { POSTERS_LIST } from '../posters/routes.ts';
import { VIDEOS_LIST } from '../videos/routes.ts';
import { BLOGS_LIST } from '../blogs/routes.ts';
import { POSTER_COUNTS } from '../posters/counts.ts';
import { ContentAnswers, PER_ADDRESS_LIMIT, appTags } from './shared.ts';
import { liveAt, outsideWindowAt } from '../../http/schedules.ts';

const DAY_MS = 86_400_000;
/** Banners the home call shows at most. */
const HOME_BANNERS = 20;
/** The grouping set of the posters' kept counts by category, status and app. */
const BY_CATEGORY = POSTER_COUNTS.findIndex(
  (set) => set.join() === ['categoryId', 'status', 'masterAppId'].join(),
);

const CACHING =
  'Answers carry an `ETag` and `Cache-Control: public, max-age=60, stale-while-revalidate=600`; ' +
  '`If-None-Match` naming the ETag answers 304 with no body.';

/** `date` plus `days` days, YYYY-MM-DD. */
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

const contentRoutes: FastifyPluginAsyncZod = async (app) => {
  const { db, lists, media, events } = app.ctx;
  const cache = new ContentAnswers(events);
  const content = { app: 'key' as const, rateLimit: PER_ADDRESS_LIMIT };

  /**
   * ACTIVE categories, each with the app's live posters in it: the kept counts of its ACTIVE
   * posters less those outside their schedule now (found on the window columns' partial indexes,
   * which hold scheduled rows only).
   */
  async function categoriesOf(masterAppId: number) {
    const [categories, counts, outside] = await Promise.all([
      db
        .selectFrom('categories')
        .select(['id', 'name'])
        .where('status', '=', 'ACTIVE')
        .orderBy('name')
        .orderBy('id')
        .execute(),
      db
        .selectFrom('listCounts')
        .select(['k1', 'n'])
        .where('list', '=', 'posters')
        .where('grp', '=', BY_CATEGORY)
        .where('k2', '=', 'ACTIVE')
        .where('k3', '=', String(masterAppId))
        .execute(),
      db
        .selectFrom('posters')
        .select(['categoryId', (eb) => eb.fn.countAll<number>().as('n')])
        .where('masterAppId', '=', masterAppId)
        .where(outsideWindowAt(now()))
        .groupBy('categoryId')
        .execute(),
    ]);
    const byId = new Map(counts.map((c) => [Number(c.k1), Number(c.n)]));
    for (const o of outside) byId.set(o.categoryId, (byId.get(o.categoryId) ?? 0) - Number(o.n));
    return categories.map((c) => ({ id: c.id, name: c.name, posters: byId.get(c.id) ?? 0 }));
  }

  /** ACTIVE special days falling in `days` days from `from`, by date, each with that date. */
  async function specialDaysIn(from: string, days: number) {
    const rows = await db
      .selectFrom('specialDays')
      .select(['id', 'name', 'month', 'day', 'year'])
      .where('status', '=', 'ACTIVE')
      .execute();
    const found: { id: number; name: string; date: string }[] = [];
    for (let i = 0; i < days; i++) {
      const date = addDays(from, i);
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      for (const row of rows) {
        if (row.month === m && row.day === d && (row.year === null || row.year === y)) {
          found.push({ id: row.id, name: row.name, date });
        }
      }
    }
    return found;
  }

  const toPoster = (row: {
    id: number;
    poster: string;
    categoryId: number;
    categoryName: string;
    specialDayId: number | null;
    dayName: string | null;
    date: string | null;
    position: AppPoster['position'];
    topDefNum: number;
    selfDefNum: number;
    bottomDefNum: number;
    downloadCount: number;
    createdAt: string;
  }): AppPoster => ({
    id: row.id,
    image: media.url(row.poster),
    categoryId: row.categoryId,
    category: row.categoryName,
    specialDayId: row.specialDayId,
    specialDay: row.dayName,
    date: row.date,
    position: row.position,
    topDefNum: row.topDefNum,
    selfDefNum: row.selfDefNum,
    bottomDefNum: row.bottomDefNum,
    downloadCount: row.downloadCount,
    createdAt: row.createdAt,
  });

  app.get(
    APP_PATHS.home,
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary: 'The app’s home screen: its banners, categories and coming special days',
        description:
          `The app's name, title and logo (its settings), up to ${HOME_BANNERS} live banners ` +
          '(ACTIVE and inside their schedule; newest first), the ACTIVE categories that hold ' +
          'live posters of the app with how ' +
          'many, and the ACTIVE special days from today (UTC) for 30 days. ' +
          CACHING,
        response: answers(appHome),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const masterAppId = request.appId;
        const [appRow, banners, categories, specialDays] = await Promise.all([
          db
            .selectFrom('masterApps as m')
            .leftJoin('settings as s', 's.masterAppId', 'm.id')
            .select(['m.id', 'm.name', 's.title', 's.logo'])
            .where('m.id', '=', masterAppId)
            .executeTakeFirstOrThrow(),
          db
            .selectFrom('banners')
            .select(['id', 'image', 'link', 'linkType'])
            .where('masterAppId', '=', masterAppId)
            .where(liveAt(now()))
            .orderBy('createdAt', 'desc')
            .orderBy('id', 'desc')
            .limit(HOME_BANNERS)
            .execute(),
          categoriesOf(masterAppId),
          specialDaysIn(now().slice(0, 10), 30),
        ]);
        return {
          app: {
            id: appRow.id,
            name: appRow.name,
            title: appRow.title ?? null,
            logo: media.url(appRow.logo ?? null),
          },
          banners: banners.map((b) => ({ ...b, image: media.url(b.image) })),
          categories: categories.filter((c) => c.posters > 0),
          specialDays,
        };
      }),
  );

  app.get(
    APP_PATHS.categories,
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary: 'Every ACTIVE category, by name, with the app’s live posters in each',
        description: CACHING,
        response: answers(all(appCategory)),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => ({ result: await categoriesOf(request.appId) })),
  );

  app.get(
    APP_PATHS.specialDays,
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary: 'The ACTIVE special days in a period, by date',
        description:
          '`from` (default today, UTC) and `days` (1..90, default 30): each special day with ' +
          `its date in the period (a yearly one once a year; one with a year only then). ${CACHING}`,
        querystring: specialDaysQuery,
        response: answers(all(appSpecialDay)),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => ({
        result: await specialDaysIn(request.query.from ?? now().slice(0, 10), request.query.days),
      })),
  );

  app.get(
    APP_PATHS.posters,
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary: 'The app’s live posters, newest first, a page at a time',
        description:
          'Live: ACTIVE and inside their schedule (`liveFrom`, `liveUntil` in the back-office). ' +
          'Filtered by `categoryId`, `specialDayId` and `date` (each optional). `nextCursor` ' +
          'asks for the next page (null at the end); a page costs the same at any depth. ' +
          CACHING,
        querystring: posterFeedQuery,
        response: answers(feed(appPoster)),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const { date, ...query } = request.query;
        const page = await lists.page(POSTERS_LIST, {
          ...query,
          offset: 0,
          masterAppId: request.appId,
          status: 'ACTIVE',
          live: 'now',
          ...(date ? { dateFrom: date, dateUntil: addDays(date, 1) } : {}),
        });
        return { result: page.result.map(toPoster), nextCursor: page.nextCursor };
      }),
  );

  app.get(
    APP_PATHS.videos,
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary:
          'The app’s live videos (ACTIVE, inside their schedule), newest first, a page at a time',
        description: `\`nextCursor\` asks for the next page (null at the end). ${CACHING}`,
        querystring: feedQuery,
        response: answers(feed(appVideo)),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const page = await lists.page(VIDEOS_LIST, {
          ...request.query,
          offset: 0,
          masterAppId: request.appId,
          status: 'ACTIVE',
          live: 'now',
        });
        return {
          result: page.result.map((v) => ({
            id: v.id,
            video: media.url(v.video),
            date: v.date,
            position: v.position,
            topDefNum: v.topDefNum,
            selfDefNum: v.selfDefNum,
            bottomDefNum: v.bottomDefNum,
            createdAt: v.createdAt,
          })),
          nextCursor: page.nextCursor,
        };
      }),
  );

  const toBlogSummary = (b: {
    id: number;
    title: string;
    author: string;
    shortDesc: string;
    image: string | null;
    date: string | null;
    popular: boolean | number;
    createdAt: string;
  }) => ({
    id: b.id,
    title: b.title,
    author: b.author,
    shortDesc: b.shortDesc,
    image: media.url(b.image),
    date: b.date,
    popular: Boolean(b.popular),
    createdAt: b.createdAt,
  });

  app.get(
    APP_PATHS.blogs,
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary: 'ACTIVE blogs, newest first, a page at a time (without their text)',
        description: `\`nextCursor\` asks for the next page (null at the end). ${CACHING}`,
        querystring: feedQuery,
        response: answers(feed(appBlogSummary)),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const page = await lists.page(BLOGS_LIST, {
          ...request.query,
          offset: 0,
          status: 'ACTIVE',
        });
        return { result: page.result.map(toBlogSummary), nextCursor: page.nextCursor };
      }),
  );

  app.get(
    APP_PATHS.blog(':id'),
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary: 'One ACTIVE blog with its text (sanitised HTML)',
        description: `A blog that is not ACTIVE answers 404. ${CACHING}`,
        params: idParams,
        response: answers(appBlog),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const blog = await db
          .selectFrom('blogs')
          .select([
            'id',
            'title',
            'author',
            'shortDesc',
            'desc',
            'image',
            'date',
            'popular',
            'createdAt',
          ])
          .where('id', '=', request.params.id)
          .where('status', '=', 'ACTIVE')
          .executeTakeFirst();
        if (!blog) throw notFound(MESSAGES.blogNotFound);
        return { ...toBlogSummary(blog), desc: blog.desc };
      }),
  );

  app.get(
    APP_PATHS.page(':id'),
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary: 'One of the app’s pages (about, terms, privacy …) with its text',
        description: `A page of another app answers 404. ${CACHING}`,
        params: idParams,
        response: answers(appPage),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => {
        const page = await pageOf(db, request.params.id, request.appId);
        if (!page) throw notFound(MESSAGES.pageNotFound);
        return page;
      }),
  );

  app.get(
    APP_PATHS.faqs,
    {
      config: content,
      schema: {
        tags: appTags('content'),
        summary: 'Every FAQ, oldest first',
        description: CACHING,
        response: answers(all(appFaq)),
      },
    },
    async (request, reply) =>
      cache.answer(request, reply, async () => ({
        result: await db
          .selectFrom('faqs')
          .select(['id', 'question', 'answer'])
          .orderBy('id')
          .execute(),
      })),
  );
};

function pageOf(db: Db, id: number, masterAppId: number) {
  return db
    .selectFrom('pages')
    .select(['id', 'title', 'desc'])
    .where('id', '=', id)
    .where('masterAppId', '=', masterAppId)
    .executeTakeFirst();
}

export default contentRoutes;
