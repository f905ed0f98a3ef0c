/**
 * The floor of the apps API's content cases (floor.ts answers them with this): the statements the
 * server's content calls run (features/app-api/content-routes.ts: home, categories, the posters
 * feed through the same list mechanism and keyset statement), run bare on every request, with no
 * kept answers, no ETag, no rate limit, no validation past the first parse of a URL, no logging.
 * The app key is looked up once and kept (the server keeps it 30 s).
 *
 * A request with `If-None-Match` is answered 304 when the header equals the ETag the floor keeps
 * for its URL (the first one it was sent): a map lookup and a string compare, what a 304 costs
 * at the least over node:http. The server's 304 is compared with that, and beside the floor's
 * first page (docs/benchmarks.md).
 */
import type http from 'node:http';
import type { CompiledQuery } from 'kysely';
import { APP_API_BASE, APP_PATHS, posterFeedQuery } from '@master-admin/contract';
import type { Db } from '../src/db/connect.ts';
import { now } from '../src/db/dialect.ts';
import type { Lists } from '../src/db/lists.ts';
import { POSTERS_LIST } from '../src/features/posters/routes.ts';
import { POSTER_COUNTS } from '../src/features/posters/counts.ts';

type Row = Record<string, unknown>;
type Run = (statements: readonly CompiledQuery[]) => Promise<Row[][]>;

const DAY_MS = 86_400_000;
const HOME_BANNERS = 20;
const BY_CATEGORY = POSTER_COUNTS.findIndex(
  (set) => set.join() === ['categoryId', 'status', 'masterAppId'].join(),
);
const addDays = (date: string, days: number) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + days * DAY_MS).toISOString().slice(0, 10);

/** A handler for the apps API's content paths: false when `req` is not one of them. */
export function appFloor(db: Db, lists: Lists, run: Run) {
  const apps = new Map<string, number>();
  const etags = new Map<string, string>();
  const feeds = new Map<string, Record<string, unknown>>();
  /** Statements by name and app, compiled once (their values are the app's id and constants). */
  const compiled = new Map<string, CompiledQuery>();
  const statement = (name: string, make: () => CompiledQuery) => {
    let found = compiled.get(name);
    if (!found) compiled.set(name, (found = make()));
    return found;
  };

  async function appOf(key: string): Promise<number | undefined> {
    let id = apps.get(key);
    if (id === undefined) {
      const [rows = []] = await run([
        db.selectFrom('appKeys').select('masterAppId').where('key', '=', key).compile(),
      ]);
      id = rows[0]?.master_app_id as number | undefined;
      if (id !== undefined) apps.set(key, id);
    }
    return id;
  }

  const categories = () =>
    statement('categories', () =>
      db
        .selectFrom('categories')
        .select(['id', 'name'])
        .where('status', '=', 'ACTIVE')
        .orderBy('name')
        .orderBy('id')
        .compile(),
    );
  const counts = (app: number) =>
    statement(`counts ${app}`, () =>
      db
        .selectFrom('listCounts')
        .select(['k1', 'n'])
        .where('list', '=', 'posters')
        .where('grp', '=', BY_CATEGORY)
        .where('k2', '=', 'ACTIVE')
        .where('k3', '=', String(app))
        .compile(),
    );
  const categoriesOf = (categoryRows: Row[], countRows: Row[]) => {
    const byId = new Map(countRows.map((c) => [Number(c.k1), Number(c.n)]));
    return categoryRows.map((c) => ({
      id: c.id,
      name: c.name,
      posters: byId.get(Number(c.id)) ?? 0,
    }));
  };

  async function home(app: number) {
    const [appRows = [], banners = [], categoryRows = [], countRows = [], days = []] = await run([
      statement(`app ${app}`, () =>
        db
          .selectFrom('masterApps as m')
          .leftJoin('settings as s', 's.masterAppId', 'm.id')
          .select(['m.id', 'm.name', 's.title', 's.logo'])
          .where('m.id', '=', app)
          .compile(),
      ),
      statement(`banners ${app}`, () =>
        db
          .selectFrom('banners')
          .select(['id', 'image', 'link', 'linkType'])
          .where('masterAppId', '=', app)
          .where('status', '=', 'ACTIVE')
          .orderBy('createdAt', 'desc')
          .orderBy('id', 'desc')
          .limit(HOME_BANNERS)
          .compile(),
      ),
      categories(),
      counts(app),
      statement('special days', () =>
        db
          .selectFrom('specialDays')
          .select(['id', 'name', 'month', 'day', 'year'])
          .where('status', '=', 'ACTIVE')
          .compile(),
      ),
    ]);
    const from = now().slice(0, 10);
    const specialDays: Array<{ id: unknown; name: unknown; date: string }> = [];
    for (let i = 0; i < 30; i++) {
      const date = addDays(from, i);
      const [y, m, d] = date.split('-').map(Number) as [number, number, number];
      for (const row of days) {
        if (row.month === m && row.day === d && (row.year === null || row.year === y)) {
          specialDays.push({ id: row.id, name: row.name, date });
        }
      }
    }
    return {
      app: appRows[0],
      banners,
      categories: categoriesOf(categoryRows, countRows).filter((c) => c.posters > 0),
      specialDays,
    };
  }

  async function feed(app: number, url: string) {
    let query = feeds.get(url);
    if (!query) {
      const search = url.split('?')[1] ?? '';
      const { date, ...rest } = posterFeedQuery.parse(
        Object.fromEntries(new URLSearchParams(search)),
      );
      query = {
        ...rest,
        offset: 0,
        status: 'ACTIVE',
        ...(date ? { dateFrom: date, dateUntil: addDays(date, 1) } : {}),
      };
      feeds.set(url, query);
    }
    const { rows, nextCursor } = await lists.answer(
      POSTERS_LIST,
      { ...query, masterAppId: app } as never,
      run,
    );
    return { result: rows, nextCursor };
  }

  const paths = {
    home: `${APP_API_BASE}${APP_PATHS.home}`,
    categories: `${APP_API_BASE}${APP_PATHS.categories}`,
    posters: `${APP_API_BASE}${APP_PATHS.posters}`,
  };

  return (req: http.IncomingMessage, res: http.ServerResponse): boolean => {
    const url = req.url ?? '';
    if (!url.startsWith(`${APP_API_BASE}/`)) return false;
    const path = url.split('?')[0];
    const key = req.headers['x-app-key'];
    const ifNoneMatch = req.headers['if-none-match'];
    if (typeof ifNoneMatch === 'string') {
      let kept = etags.get(url);
      if (kept === undefined) etags.set(url, (kept = ifNoneMatch));
      if (kept === ifNoneMatch) res.writeHead(304, { etag: kept }).end();
      else res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      return true;
    }
    appOf(typeof key === 'string' ? key : '')
      .then((app): Promise<unknown> | undefined => {
        if (app === undefined) return undefined;
        if (path === paths.home) return home(app);
        if (path === paths.categories) {
          return run([categories(), counts(app)]).then(([c = [], n = []]) => ({
            result: categoriesOf(c, n),
          }));
        }
        if (path === paths.posters) return feed(app, url);
        return undefined;
      })
      .then(
        (answer) => {
          if (answer === undefined) res.writeHead(404).end();
          else {
            res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
          }
        },
        (err: unknown) => {
          console.error(err);
          res.writeHead(500).end();
        },
      );
    return true;
  };
}
