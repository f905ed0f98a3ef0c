/**
 * The shared list mechanism (db/lists.ts, db/list-structures.ts): exact totals kept by triggers,
 * keyword search on the trigram index with the meaning it always had, deferred-join paging, and
 * query plans that never scan a table. Run on SQLite and PostgreSQL.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql, type CompiledQuery, type Kysely } from 'kysely';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkList, rebuildList } from '../src/db/list-structures.ts';
import { Lists, estimateTotal, structureOf } from '../src/db/lists.ts';
import { openDatabase } from '../src/db/connect.ts';
import { migrateToLatest } from '../src/db/migrate.ts';
import { ALL_LISTS } from '../src/features/lists.ts';
import { STAFF_LIST } from '../src/features/staff/routes.ts';
import { BANNERS_LIST } from '../src/features/banners/routes.ts';
import { USERS_LIST } from '../src/features/users/routes.ts';
import { POSTERS_LIST } from '../src/features/posters/routes.ts';
import { TEST_DB, createPgDatabase, newDatabase, startServer } from './harness.ts';
import { LIST_ROUTE_SCOPES } from './list-scopes.ts';

const s = await startServer();
afterAll(() => s.close());
const { db } = s.ctx;

let app1: number;
let app2: number;
const at = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();

async function app(name: string) {
  const res = await s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
}

/** Banners written straight to the table: the triggers, not the routes, keep the lists right. */
async function insertBanners(
  rows: Array<{
    app?: number;
    link?: string | null;
    status?: string;
    linkType?: string;
    at?: string;
  }>,
) {
  const inserted = await db
    .insertInto('banners')
    .values(
      rows.map((r, i) => ({
        masterAppId: r.app ?? app1,
        image: `banners/00/${'0'.repeat(63)}${i % 10}.webp`,
        link: r.link === undefined ? `https://example.com/${i}` : r.link,
        linkType: (r.linkType ?? 'DEFAULT') as 'DEFAULT',
        status: (r.status ?? 'ACTIVE') as 'ACTIVE',
        createdAt: r.at ?? at(i),
        updatedAt: r.at ?? at(i),
      })),
    )
    .returning('id')
    .execute();
  return inserted.map((r) => r.id);
}

const bannerList = async (query: string) => {
  const res = await s.api({ method: 'GET', url: `/banner/list?${query}`, token: s.adminToken });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: Array<{ id: number; link: string | null }>; total: number }>();
};

const expectListsInStep = async () => {
  for (const list of ALL_LISTS) {
    expect(await checkList(db, s.ctx.dialect, structureOf(list)), list.name).toEqual([]);
  }
};

beforeAll(async () => {
  app1 = await app('Lists One');
  app2 = await app('Lists Two');
});

describe('keyword search keeps its meaning on the trigram index', () => {
  let ids: Record<string, number>;
  beforeAll(async () => {
    const links = {
      upper: 'https://Example.com/DIWALI-Offer',
      lower: 'https://example.com/diwali-sale',
      percent: 'https://shop.test/50%_off',
      underscoreLike: 'https://shop.test/50xxoff',
      quote: 'https://shop.test/say-"hi"-now',
      syntax: 'https://shop.test/AND-NEAR(x)*-y',
      short: 'https://qz.test/',
      accents: 'https://shop.test/Crème-Brûlée',
      none: null,
    };
    const inserted = await insertBanners(
      Object.values(links).map((link, i) => ({ link, app: app2, at: at(1000 + i) })),
    );
    ids = Object.fromEntries(Object.keys(links).map((k, i) => [k, inserted[i]!]));
  });

  const found = async (keyword: string) =>
    (
      await bannerList(`masterAppId=${app2}&limit=100&keyword=${encodeURIComponent(keyword)}`)
    ).result
      .map((b) => b.id)
      .sort((a, b) => a - b);
  const idsOf = (...names: string[]) => names.map((n) => ids[n]!).sort((a, b) => a - b);

  it('matches any substring, whatever the letter case', async () => {
    expect(await found('diwali')).toEqual(idsOf('upper', 'lower'));
    expect(await found('DIWALI-o')).toEqual(idsOf('upper'));
    expect(await found('wali-SA')).toEqual(idsOf('lower'));
  });

  it('reads % and _ as themselves, not as wildcards', async () => {
    expect(await found('50%_o')).toEqual(idsOf('percent'));
    expect(await found('%_')).toEqual(idsOf('percent'));
    expect(await found('%')).toEqual(idsOf('percent'));
    expect(await found('_')).toEqual(idsOf('percent'));
  });

  it('reads quotes and search syntax as plain text', async () => {
    expect(await found('"hi"')).toEqual(idsOf('quote'));
    expect(await found('say-"')).toEqual(idsOf('quote'));
    expect(await found('AND-NEAR(x)*')).toEqual(idsOf('syntax'));
    expect(await found('NEAR')).toEqual(idsOf('syntax'));
    expect(await found('*')).toEqual(idsOf('syntax'));
  });

  it('finds keywords of one and two characters too', async () => {
    expect(await found('qz')).toEqual(idsOf('short'));
    expect(await found('Q')).toEqual(idsOf('short'));
  });

  it('keeps accents (no accent folding), as before', async () => {
    expect(await found('brûlée')).toEqual(idsOf('accents'));
    expect(await found('brulee')).toEqual([]);
  });

  it('counts exactly what it finds, with and without filters', async () => {
    const all = await bannerList(`keyword=diwali`);
    expect(all.total).toBe(2);
    const active = await bannerList(`keyword=diwali&masterAppId=${app2}&status=ACTIVE`);
    expect(active.total).toBe(2);
    const none = await bannerList(`keyword=diwali&masterAppId=${app1}`);
    expect(none).toEqual({ result: [], total: 0, nextCursor: null });
    const short = await bannerList(`keyword=qz&status=ACTIVE`);
    expect(short.total).toBe(1);
  });

  it('follows edits and deletes at once', async () => {
    await db
      .updateTable('banners')
      .set({ link: 'https://example.com/holi' })
      .where('id', '=', ids.lower!)
      .execute();
    expect(await found('diwali')).toEqual(idsOf('upper'));
    expect(await found('holi')).toEqual(idsOf('lower'));
    await db.deleteFrom('banners').where('id', '=', ids.upper!).execute();
    expect(await found('diwali')).toEqual([]);
    expect((await bannerList('keyword=diwali')).total).toBe(0);
    await expectListsInStep();
  });

  it('never matches across two searched columns', async () => {
    const faq = await s.api({
      method: 'POST',
      url: '/faqs',
      token: s.adminToken,
      payload: { question: 'Where is alpha', answer: 'beta knows' },
    });
    expect(faq.statusCode, faq.body).toBe(200);
    const search = async (keyword: string) =>
      (
        await s.api({
          method: 'GET',
          url: `/faqs/list/?keyword=${encodeURIComponent(keyword)}`,
          token: s.adminToken,
        })
      ).json().total as number;
    expect(await search('alpha')).toBe(1);
    expect(await search('beta kn')).toBe(1);
    expect(await search('alphabeta')).toBe(0);
    expect(await search('alpha beta')).toBe(0);
  });
});

describe('exact totals kept by triggers', () => {
  it('sums only the filter values asked for', async () => {
    await insertBanners([
      { app: app1, status: 'ACTIVE', linkType: 'EXTERNAL' },
      { app: app1, status: 'PENDING', linkType: 'EXTERNAL' },
      { app: app1, status: 'PENDING', linkType: 'INTERNAL' },
      { app: app2, status: 'PENDING', linkType: 'INTERNAL' },
    ]);
    const count = async (where: Record<string, string | number>) => {
      let q = db.selectFrom('banners').select((eb) => eb.fn.countAll<number>().as('n'));
      for (const [k, v] of Object.entries(where)) q = q.where(k as 'status', '=', v as 'ACTIVE');
      return Number((await q.executeTakeFirstOrThrow()).n);
    };
    const queries: Array<Record<string, string | number>> = [
      {},
      { status: 'PENDING' },
      { masterAppId: app1 },
      { masterAppId: app1, status: 'PENDING' },
      { masterAppId: app1, status: 'PENDING', linkType: 'INTERNAL' },
      { linkType: 'EXTERNAL' },
      { status: 'SUSPENDED' },
    ];
    for (const query of queries) {
      const qs = new URLSearchParams(
        Object.entries(query).map(([k, v]): [string, string] => [k, String(v)]),
      );
      expect((await bannerList(qs.toString())).total, qs.toString()).toBe(await count(query));
    }
  });

  it('stays exact through bulk updates, bulk deletes and cascades', async () => {
    const app3 = await app('Lists Three');
    await insertBanners(Array.from({ length: 120 }, (_, i) => ({ app: app3, at: at(5000 + i) })));
    expect((await bannerList(`masterAppId=${app3}`)).total).toBe(120);
    // One statement touching many rows: PostgreSQL's statement triggers see them all at once.
    await db
      .updateTable('banners')
      .set({ status: 'DEACTIVE' })
      .where('masterAppId', '=', app3)
      .where('createdAt', '<', at(5050))
      .execute();
    expect((await bannerList(`masterAppId=${app3}&status=DEACTIVE`)).total).toBe(50);
    expect((await bannerList(`masterAppId=${app3}&status=ACTIVE`)).total).toBe(70);
    await db
      .deleteFrom('banners')
      .where('masterAppId', '=', app3)
      .where('status', '=', 'ACTIVE')
      .execute();
    expect((await bannerList(`masterAppId=${app3}`)).total).toBe(50);
    // Deleting the app cascades to its banners (and pages): their counts follow.
    await db.deleteFrom('masterApps').where('id', '=', app3).execute();
    expect((await bannerList(`masterAppId=${app3}`)).total).toBe(0);
    await expectListsInStep();
  });
});

describe('paging', () => {
  it('orders ties by id, so pages never overlap or skip, however deep', async () => {
    const app4 = await app('Lists Four');
    const same = at(9000);
    const inserted = await insertBanners(
      Array.from({ length: 25 }, () => ({ app: app4, at: same })),
    );
    const seen: number[] = [];
    for (const offset of [0, 10, 20]) {
      const page = await bannerList(`masterAppId=${app4}&limit=10&offset=${offset}`);
      expect(page.total).toBe(25);
      seen.push(...page.result.map((b) => b.id));
    }
    expect(seen).toEqual([...inserted].sort((a, b) => b - a));
    expect(await bannerList(`masterAppId=${app4}&offset=25`)).toEqual({
      result: [],
      total: 25,
      nextCursor: null,
    });
    expect((await bannerList(`masterAppId=${app4}&offset=1000000`)).result).toEqual([]);
  });
});

describe('an upgrade', () => {
  it('fills the counts and search indexes from the rows a database already holds', async () => {
    const { handle, dispose } = await newDatabase();
    try {
      await migrateToLatest(handle, '0002-content');
      // As migrations see it: snake_case, no schema types (the schema is of the latest).
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const raw = handle.db.withoutPlugins() as unknown as Kysely<any>;
      const at = new Date().toISOString();
      const [{ id: app } = { id: 0 }] = await raw
        .insertInto('master_apps')
        .values({ name: 'Before', created_at: at, updated_at: at })
        .returning('id')
        .execute();
      await raw
        .insertInto('banners')
        .values(
          ['ACTIVE', 'ACTIVE', 'PENDING'].map((status, i) => ({
            master_app_id: app,
            image: `banners/00/${'0'.repeat(63)}${i}.webp`,
            link: `https://old.test/holi-${i}`,
            link_type: 'DEFAULT',
            status,
            created_at: at,
            updated_at: at,
          })),
        )
        .execute();
      await raw
        .insertInto('faqs')
        .values({ question: 'Old question', answer: 'Old answer', created_at: at, updated_at: at })
        .execute();
      await migrateToLatest(handle);
      for (const list of ALL_LISTS) {
        expect(await checkList(handle.db, handle.dialect, structureOf(list)), list.name).toEqual(
          [],
        );
      }
      const lists = new Lists(handle.db, handle.reads, handle.dialect);
      const page = await lists.page(BANNERS_LIST, {
        limit: 10,
        offset: 0,
        keyword: 'holi',
        status: 'ACTIVE',
      });
      expect(page.total).toBe(2);
      expect(page.result).toHaveLength(2);
    } finally {
      await dispose();
    }
  });
});

it.skipIf(TEST_DB === 'postgres')(
  'refreshes an analyzed SQLite database’s statistics after a migration',
  async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'ma-stats-'));
    const handle = openDatabase({ kind: 'sqlite', file: path.join(dataDir, 'db.sqlite') });
    try {
      await migrateToLatest(handle, '0011-audit');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const raw = handle.db.withoutPlugins() as unknown as Kysely<any>;
      const at = new Date().toISOString();
      const banner = (i: number) => ({
        master_app_id: app1,
        image: `banners/00/${'0'.repeat(63)}${i}.webp`,
        link: `https://stats.test/${i}`,
        link_type: 'DEFAULT',
        status: 'ACTIVE',
        created_at: at,
        updated_at: at,
      });
      const [{ id: app1 } = { id: 0 }] = await raw
        .insertInto('master_apps')
        .values({ name: 'Stats', created_at: at, updated_at: at })
        .returning('id')
        .execute();
      await raw.insertInto('banners').values(banner(1)).execute();
      handle.sqlite!.exec('analyze');
      await raw
        .insertInto('banners')
        .values([banner(2), banner(3)])
        .execute();
      const rowsKnown = () =>
        handle
          .sqlite!.prepare("select stat from sqlite_stat1 where idx = 'banners_created'")
          .pluck()
          .get() as string;
      expect(rowsKnown()).toMatch(/^1 /);
      await migrateToLatest(handle);
      expect(rowsKnown()).toMatch(/^3 /);
    } finally {
      await handle.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  },
);

describe('a split search structure (users: listed / the rest)', () => {
  it('is filled from existing accounts, checked, and rebuilt when a row is in the wrong part', async () => {
    const { handle, dispose } = await newDatabase();
    try {
      await migrateToLatest(handle, '0014-trend-counts');
      // eslint-disable-next-line @typescript-eslint/no-explicit-any
      const raw = handle.db.withoutPlugins() as unknown as Kysely<any>;
      const stamp = (i: number) => new Date(Date.UTC(2026, 0, 1, 0, 0, i)).toISOString();
      const [{ id: app } = { id: 0 }] = await raw
        .insertInto('master_apps')
        .values({ name: 'Split', created_at: stamp(0), updated_at: stamp(0) })
        .returning('id')
        .execute();
      const account = (i: number, role: string, status: string, name: string) => ({
        role,
        status,
        name,
        phone_number: `91000000${i}`,
        master_app_id: role === 'USER' ? app : null,
        created_at: stamp(i),
        updated_at: stamp(i),
      });
      const ids = (
        await raw
          .insertInto('accounts')
          .values([
            account(1, 'USER', 'ACTIVE', 'Tamsin Ridge'),
            account(2, 'USER', 'DELETED', 'Old Ridge'),
            account(3, 'USER', 'PENDING', 'Ridge Pending'),
            account(4, 'STAFF', 'ACTIVE', 'Ridge Staff'),
          ])
          .returning('id')
          .execute()
      ).map((r) => r.id as number);
      await migrateToLatest(handle);
      const check = async () => {
        const problems: string[] = [];
        for (const list of ALL_LISTS) {
          problems.push(...(await checkList(handle.db, handle.dialect, structureOf(list))));
        }
        return problems;
      };
      expect(await check()).toEqual([]);
      const lists = new Lists(handle.db, handle.reads, handle.dialect);
      const users = (q: Record<string, unknown>) =>
        lists.page(USERS_LIST, { limit: 10, offset: 0, role: 'USER', keyword: 'ridge', ...q });
      const found = async (page: Promise<{ result: Array<{ id: number }>; total: number }>) => {
        const { result, total } = await page;
        expect(total).toBe(result.length);
        return result.map((r) => r.id);
      };
      expect(await found(users({}))).toEqual([ids[2], ids[0]]);
      expect(await found(users({ status: 'DELETED' }))).toEqual([ids[1]]);
      expect(await found(users({ keyword: 'ri' }))).toEqual([ids[2], ids[0]]);
      expect(
        await found(
          lists.page(STAFF_LIST, { limit: 10, offset: 0, role: 'STAFF', keyword: 'ridge' }),
        ),
      ).toEqual([ids[3]]);
      // No role asked (no route does): both parts are searched (the staff member too; the
      // users' rows join their app, so only the total shows it).
      expect((await lists.page(USERS_LIST, { limit: 10, offset: 0, keyword: 'ridge' })).total).toBe(
        3,
      );

      // A listed user also indexed in the rest (as a trigger gone wrong would leave it).
      const rest = sql.raw('users_rest_search');
      if (handle.dialect.kind === 'postgres') {
        await sql`insert into ${rest} (id, doc) values (${ids[0]}, 'Tamsin Ridge')`.execute(raw);
      } else {
        await sql`insert into ${rest} (rowid, name, email, phone_number)
          values (${ids[0]}, 'Tamsin Ridge', null, '910000001')`.execute(raw);
      }
      expect((await check()).join()).toContain('users_rest_search');
      await rebuildList(handle.db, handle.dialect, structureOf(USERS_LIST));
      expect(await check()).toEqual([]);
      expect(await found(users({ status: 'DELETED' }))).toEqual([ids[1]]);
    } finally {
      await dispose();
    }
  });
});

describe('keyword pages', () => {
  it('come in list order (created, then id), whether the keyword is common or rare', async () => {
    const app5 = await app('Lists Five');
    // created_at runs against id for half the rows, so only the list's own order is right.
    const rows = Array.from({ length: 300 }, (_, i) => ({
      app: app5,
      link: `https://kw.test/${i % 2 === 0 ? 'common' : 'other'}/${i === 7 || i === 201 ? 'rarest' : ''}${i}`,
      at: at(20_000 + (i % 3 === 0 ? 300 - i : i)),
    }));
    const ids = await insertBanners(rows);
    const expected = (word: string) =>
      rows
        .map((r, i) => ({ id: ids[i]!, at: r.at, link: r.link }))
        .filter((r) => r.link.includes(word))
        .sort((a, b) => (a.at === b.at ? b.id - a.id : a.at < b.at ? 1 : -1))
        .map((r) => r.id);
    for (const word of ['/common/', 'rarest']) {
      const all = expected(word);
      for (const offset of [0, 10, 140, all.length - 1]) {
        const page = await bannerList(
          `masterAppId=${app5}&keyword=${encodeURIComponent(word)}&limit=10&offset=${offset}`,
        );
        expect(page.total, word).toBe(all.length);
        expect(
          page.result.map((b) => b.id),
          `${word} @${offset}`,
        ).toEqual(all.slice(offset, offset + 10));
      }
    }
  });
});

describe('a keyword page’s plan', () => {
  it('walks the order for a common word and sorts the few matches of a rare one, decided from the exact count (a rare one that is the planner’s histogram value too)', async () => {
    const planApp = await app('Lists Plan');
    const words = ['alpha', 'bravo', 'charlie', 'delta', 'echo'];
    const rows = Array.from({ length: 4000 }, (_, i) => ({
      app: planApp,
      link: `https://plan.test/${words[i % words.length]}/${i}`,
      at: at(40_000 + i),
    }));
    const rowIds: number[] = [];
    for (let i = 0; i < rows.length; i += 1000)
      rowIds.push(...(await insertBanners(rows.slice(i, i + 1000))));
    let rare = '/1234';
    if (TEST_DB === 'postgres') {
      await sql`analyze banners_search`.execute(db);
      // A value the planner's statistics hold, as the finding's: its row number is a rare word.
      const { rows: stats } = await sql<{ values: string | null }>`
        select coalesce(most_common_vals, histogram_bounds)::text as values from pg_stats
        where tablename = 'banners_search' and attname = 'doc'`.execute(db);
      const held = /plan\.test\/[a-z]+\/(\d{3,4})/.exec(stats[0]?.values ?? '')?.[1];
      if (held) rare = `/${held}`;
    } else {
      await sql`analyze`.execute(db);
    }
    /** The statements a page of `keyword` ran, and its ids. */
    const pageOf = async (keyword: string) => {
      const ran: string[] = [];
      const { rows: found, total } = await s.ctx.lists.answer(
        BANNERS_LIST,
        { limit: 10, offset: 0, keyword, masterAppId: planApp },
        (statements) => {
          ran.push(...statements.map((q) => q.sql));
          return s.ctx.database.reads.run(statements);
        },
      );
      return { ran, total, ids: found.map((r) => r.id) };
    };
    const walks = (statement: string) =>
      TEST_DB === 'postgres' ? /"id" \+ 0/.test(statement) : /\+"id"/.test(statement);
    const common = await pageOf('alpha');
    expect(common.total).toBe(800);
    expect(common.ran.some(walks), common.ran.join('\n')).toBe(true);
    const few = await pageOf(rare);
    expect(few.total).toBeGreaterThan(0);
    expect(few.total).toBeLessThan(20);
    expect(few.ran.some(walks), few.ran.join('\n')).toBe(false);
    // Either way the page is the list's order: newest first.
    expect(few.ids).toEqual([...few.ids].sort((a, b) => Number(b) - Number(a)));
    // Between the two (111 of the app's 4,000): SQLite walks, checking an entry for a fiftieth of
    // a lookup; PostgreSQL probes the search table's key for each entry, and sorts.
    const between = await pageOf('/39');
    expect(between.total).toBe(111);
    expect(between.ran.some(walks), between.ran.join('\n')).toBe(TEST_DB === 'sqlite');
    expect(between.ids).toEqual(
      rows
        .map((r, i) => ({ i, r }))
        .filter(({ r }) => r.link.includes('/39'))
        .map(({ i }) => i)
        .reverse()
        .slice(0, 10)
        .map((i) => rowIds[i]),
    );
  });
});

describe('sort', () => {
  it('orders by the field asked for, ties by id, without pages overlapping', async () => {
    const app6 = await app('Lists Six');
    const statuses = ['PENDING', 'ACTIVE', 'PENDING', 'DEACTIVE', 'ACTIVE', 'PENDING', 'ACTIVE'];
    const ids = await insertBanners(
      statuses.map((status, i) => ({ app: app6, status, at: at(30_000 + i) })),
    );
    const rows = statuses.map((status, i) => ({ id: ids[i]!, status }));
    for (const [sort, expected] of [
      [
        'status',
        [...rows].sort((a, b) =>
          a.status === b.status ? a.id - b.id : a.status < b.status ? -1 : 1,
        ),
      ],
      [
        '-status',
        [...rows].sort((a, b) =>
          a.status === b.status ? b.id - a.id : a.status < b.status ? 1 : -1,
        ),
      ],
    ] as const) {
      const seen: number[] = [];
      for (const offset of [0, 3, 6]) {
        const page = await bannerList(`masterAppId=${app6}&sort=${sort}&limit=3&offset=${offset}`);
        expect(page.total).toBe(statuses.length);
        seen.push(...page.result.map((b) => b.id));
      }
      expect(seen, sort).toEqual(expected.map((r) => r.id));
    }
  });

  it('sorts text whatever the letter case', async () => {
    for (const name of ['bravo sort', 'Alpha sort', 'charlie sort']) await app(name);
    const res = await s.api({
      method: 'GET',
      url: '/master-app/list?keyword=sort&sort=name',
      token: s.adminToken,
    });
    expect(res.json().result.map((a: { name: string }) => a.name)).toEqual([
      'Alpha sort',
      'bravo sort',
      'charlie sort',
    ]);
    const desc = await s.api({
      method: 'GET',
      url: '/master-app/list?keyword=sort&sort=-name',
      token: s.adminToken,
    });
    expect(desc.json().result.map((a: { name: string }) => a.name)).toEqual([
      'charlie sort',
      'bravo sort',
      'Alpha sort',
    ]);
  });

  it('refuses a field the list does not sort by, naming sort', async () => {
    for (const sort of ['image', '-link', 'createdAt ', '--status', 'id', 'created_at']) {
      const res = await s.api({
        method: 'GET',
        url: `/banner/list?sort=${encodeURIComponent(sort)}`,
        token: s.adminToken,
      });
      expect(res.statusCode, sort).toBe(400);
      expect(res.json().details[0].path).toBe('sort');
    }
  });
});

describe('a keyword’s bounded total', () => {
  it('is exact up to the most counted, then estimated from the newest rows and marked so', async () => {
    const app9 = await app('Bounded One');
    // 60 banners, every other one (the even ones, oldest first) naming the word; 4 a rare one.
    await insertBanners(
      Array.from({ length: 60 }, (_, i) => ({
        app: app9,
        link: `https://bounded.test/${i % 2 === 0 ? 'qwertyword' : 'other'}${i % 15 === 1 ? '-rarezq' : ''}`,
        at: at(70_000 + i),
      })),
    );
    const lists = new Lists(s.ctx.db, s.ctx.database.reads, s.ctx.dialect, { exactTotalMax: 5 });
    const page = (query: Record<string, unknown>) =>
      lists.page(BANNERS_LIST, { limit: 4, offset: 0, masterAppId: app9, ...query });

    const rare = await page({ keyword: 'rarezq' });
    expect(rare.total).toBe(4);
    expect(rare).not.toHaveProperty('totalEstimated');

    // 30 match: counted to 6, then estimated: 2 of the newest 5 rows match, of 60 → 24.
    const common = await page({ keyword: 'qwertyword' });
    expect(common.total).toBe(24);
    expect(common.totalEstimated).toBe(true);
    const newestMatches = (
      await db
        .selectFrom('banners')
        .select('id')
        .where('masterAppId', '=', app9)
        .where('link', 'like', '%qwertyword%')
        .orderBy('createdAt', 'desc')
        .orderBy('id', 'desc')
        .execute()
    ).map((r) => r.id);
    expect(common.result.map((r) => (r as { id: number }).id)).toEqual(newestMatches.slice(0, 4));
    // Pages follow by cursor to the last match, whatever the estimate said.
    const seen: number[] = [];
    let next: typeof common = common;
    for (let n = 0; n < 20; n++) {
      seen.push(...next.result.map((r) => (r as { id: number }).id));
      if (next.nextCursor === null) break;
      next = await page({ keyword: 'qwertyword', cursor: next.nextCursor });
    }
    expect(seen).toEqual(newestMatches);
    // An offset past the estimate still answers its rows.
    const deep = await page({ keyword: 'qwertyword', offset: 26 });
    expect(deep.result.map((r) => (r as { id: number }).id)).toEqual(newestMatches.slice(26, 30));
    // No keyword: the kept total, exact at any size.
    expect(await page({})).toMatchObject({ total: 60 });
    expect(await page({})).not.toHaveProperty('totalEstimated');
  });

  it('an estimate is answered again for a while without counting; an exact total never is', async () => {
    const app10 = await app('Bounded Two');
    await insertBanners(
      Array.from({ length: 20 }, (_, i) => ({
        app: app10,
        link: `https://bounded.test/${i < 16 ? 'keptword' : 'fewword'}`,
        at: at(80_000 + i),
      })),
    );
    const lists = new Lists(s.ctx.db, s.ctx.database.reads, s.ctx.dialect, {
      exactTotalMax: 5,
      estimateTtlMs: 300,
    });
    /** A page of `keyword` at `offset`: its total and how many statements counted. */
    const page = async (keyword: string, offset = 0) => {
      const ran: string[] = [];
      const { total, estimated } = await lists.answer(
        BANNERS_LIST,
        { limit: 4, offset, keyword, masterAppId: app10 },
        (statements) => {
          ran.push(...statements.map((q) => q.sql));
          return s.ctx.database.reads.run(statements);
        },
      );
      return { total, estimated, counts: ran.filter((q) => /count\(\*\)/i.test(q)).length };
    };
    const first = await page('keptword');
    expect(first).toMatchObject({ estimated: true });
    expect(first.counts).toBeGreaterThan(0);
    // The next pages within the time: the same estimate, nothing counted.
    expect(await page('keptword', 4)).toEqual({ ...first, counts: 0 });
    expect(await page('keptword', 8)).toEqual({ ...first, counts: 0 });
    // A total under the cap is counted on every page.
    expect(await page('fewword')).toMatchObject({ total: 4, estimated: false });
    expect((await page('fewword', 4)).counts).toBeGreaterThan(0);
    // Once the time is up, counted again.
    await new Promise((r) => setTimeout(r, 350));
    expect((await page('keptword', 4)).counts).toBeGreaterThan(0);
  });

  it('is counted once for the requests asking for it at the same time, and anew after', async () => {
    const app11 = await app('Bounded Three');
    await insertBanners(
      Array.from({ length: 12 }, (_, i) => ({
        app: app11,
        link: `https://bounded.test/${i % 4 === 0 ? 'onceword' : 'other'}`,
        at: at(90_000 + i),
      })),
    );
    const lists = new Lists(s.ctx.db, s.ctx.database.reads, s.ctx.dialect, { exactTotalMax: 5 });
    let counts = 0;
    const run = (statements: readonly CompiledQuery[]) => {
      counts += statements.filter((q) => /count\(\*\)/i.test(q.sql)).length;
      return s.ctx.database.reads.run(statements);
    };
    const ask = () =>
      lists.answer(
        BANNERS_LIST,
        { limit: 2, offset: 0, keyword: 'onceword', masterAppId: app11 },
        run,
      );
    const together = await Promise.all([ask(), ask(), ask(), ask(), ask()]);
    expect(together.map((a) => a.total)).toEqual([3, 3, 3, 3, 3]);
    expect(together.every((a) => a.rows.length === 2 && !a.estimated)).toBe(true);
    expect(counts).toBe(1);
    // An exact total is not kept: the next request counts again.
    expect((await ask()).total).toBe(3);
    expect(counts).toBe(2);
  });

  it('never estimates at or below what it counted, nor above the rows it could be', () => {
    expect(estimateTotal(0, 1_000_000, 10_000)).toBe(10_001);
    expect(estimateTotal(100, 1_000_000, 10_000)).toBe(10_001);
    expect(estimateTotal(987, 1_000_000, 10_000)).toBe(99_000);
    expect(estimateTotal(10_000, 1_000_000, 10_000)).toBe(1_000_000);
    expect(estimateTotal(5_000, 12_345, 10_000)).toBe(10_001);
    expect(estimateTotal(9_000, 12_345, 10_000)).toBe(11_000);
  });
});

describe('cursor paging', () => {
  type Page = { result: Array<{ id: number }>; total: number; nextCursor: string | null };
  const list = async (path: string, query: string) => {
    const res = await s.api({ method: 'GET', url: `${path}?${query}`, token: s.adminToken });
    expect(res.statusCode, res.body).toBe(200);
    return res.json<Page>();
  };
  /** Every page from the first, following `nextCursor`: the ids in the order they came. */
  const follow = async (path: string, query: string) => {
    const ids: number[] = [];
    let page = await list(path, query);
    for (let n = 0; ; n++) {
      expect(n, 'pages').toBeLessThan(100);
      ids.push(...page.result.map((r) => r.id));
      if (page.nextCursor === null) return { ids, total: page.total };
      page = await list(path, `${query}&cursor=${page.nextCursor}`);
    }
  };
  /** Every page from the first by offset. */
  const byOffset = async (path: string, query: string, limit: number) => {
    const ids: number[] = [];
    for (let offset = 0; ; offset += limit) {
      const page = await list(path, `${query}&offset=${offset}`);
      ids.push(...page.result.map((r) => r.id));
      if (offset + limit >= page.total) return ids;
    }
  };

  it('follows the list in its order, each row once, the last page answering no cursor', async () => {
    const app5 = await app('Cursor One');
    // Ties on the order key: the id breaks them, across page boundaries.
    const inserted = await insertBanners(
      Array.from({ length: 23 }, (_, i) => ({ app: app5, at: at(20_000 + (i % 4)) })),
    );
    const query = `masterAppId=${app5}&limit=5`;
    const followed = await follow('/banner/list', query);
    expect(followed.total).toBe(23);
    expect(followed.ids).toEqual(await byOffset('/banner/list', query, 5));
    expect([...followed.ids].sort((a, b) => a - b)).toEqual(inserted);
    // Exactly a full last page by offset: no next cursor (the total says it was the last).
    const last = await list('/banner/list', `masterAppId=${app5}&limit=3&offset=20`);
    expect(last.result).toHaveLength(3);
    expect(last.nextCursor).toBeNull();
  });

  it('stays on its rows when rows are added above and removed meanwhile, unlike an offset', async () => {
    const app6 = await app('Cursor Two');
    const inserted = await insertBanners(
      Array.from({ length: 12 }, (_, i) => ({ app: app6, at: at(30_000 + i) })),
    );
    const newestFirst = [...inserted].reverse();
    const first = await list('/banner/list', `masterAppId=${app6}&limit=4`);
    expect(first.result.map((r) => r.id)).toEqual(newestFirst.slice(0, 4));
    // Two newer banners arrive and the last row of the page is deleted before the next page.
    await insertBanners([
      { app: app6, at: at(40_000) },
      { app: app6, at: at(40_001) },
    ]);
    await db.deleteFrom('banners').where('id', '=', newestFirst[3]!).execute();
    const second = await list(
      '/banner/list',
      `masterAppId=${app6}&limit=4&cursor=${first.nextCursor}`,
    );
    expect(second.result.map((r) => r.id)).toEqual(newestFirst.slice(4, 8));
    expect(second.total).toBe(13);
    // By offset, the same page would have repeated rows of the first.
    const shifted = await list('/banner/list', `masterAppId=${app6}&limit=4&offset=4`);
    expect(shifted.result.map((r) => r.id)).not.toEqual(newestFirst.slice(4, 8));
  });

  it('follows a keyword, common or rare, and every sort, NULL dates included, as offsets do', async () => {
    const app7 = await app('Cursor Three');
    await insertBanners(
      Array.from({ length: 40 }, (_, i) => ({
        app: app7,
        link: i % 10 === 3 ? `https://rare.test/zyxwv-${i}` : `https://common.test/festa-${i}`,
        status: i % 3 === 0 ? 'PENDING' : 'ACTIVE',
        linkType: i % 2 === 0 ? 'EXTERNAL' : 'DEFAULT',
        at: at(50_000 + (i % 7)),
      })),
    );
    for (const keyword of ['festa', 'zyxwv', 'fe', '']) {
      for (const sort of ['', 'status', '-linkType', '-createdAt']) {
        const query = `masterAppId=${app7}&limit=3&keyword=${keyword}&sort=${sort}`;
        const followed = await follow('/banner/list', query);
        expect(followed.ids, query).toEqual(await byOffset('/banner/list', query, 3));
        expect(new Set(followed.ids).size, query).toBe(followed.total);
      }
    }
    // A nullable key (a blog's date) is followed through its NULL rows and its dated rows.
    const now = new Date().toISOString();
    await db
      .insertInto('blogs')
      .values(
        Array.from({ length: 11 }, (_, i) => ({
          title: `Cursor blog ${i}`,
          author: 'Lists',
          shortDesc: 'cursor',
          desc: '<p>cursor</p>',
          date: i % 3 === 0 ? null : `2026-0${1 + (i % 4)}-1${i % 2}`,
          popular: false,
          status: 'ACTIVE' as const,
          createdAt: now,
          updatedAt: now,
        })),
      )
      .execute();
    for (const sort of ['date', '-date', 'title', '-title']) {
      const query = `keyword=Cursor%20blog&limit=2&sort=${sort}`;
      const followed = await follow('/blogs/all', query);
      expect(followed.total, sort).toBe(11);
      expect(followed.ids, sort).toEqual(await byOffset('/blogs/all', query, 2));
    }
  });

  it('follows every list, in every order it allows', async () => {
    const FIXED = LIST_ROUTE_SCOPES;
    for (const spec of ALL_LISTS) {
      for (const sort of [undefined, ...spec.sorts.flatMap((f) => [f, `-${f}`])]) {
        const query = { ...FIXED[spec.name], sort };
        // Small pages, at most about 20 of them (earlier tests left thousands of rows in some).
        const { total } = await s.ctx.lists.page(spec, { ...query, limit: 1, offset: 0 });
        const limit = Math.max(2, Math.ceil(total / 20));
        const offsets: unknown[] = [];
        for (let offset = 0; offset < total; offset += limit) {
          offsets.push(...(await s.ctx.lists.page(spec, { ...query, limit, offset })).result);
        }
        const cursors: unknown[] = [];
        let page = await s.ctx.lists.page(spec, { ...query, limit, offset: 0 });
        for (let n = 0; ; n++) {
          expect(n, `${spec.name} ${sort ?? ''}: pages`).toBeLessThan(100);
          cursors.push(...page.result);
          if (page.nextCursor === null) break;
          const cursor = page.nextCursor;
          page = await s.ctx.lists.page(spec, { ...query, limit, offset: 0, cursor });
        }
        expect(cursors, `${spec.name} ${sort ?? ''}`).toEqual(offsets);
      }
    }
  });

  it('refuses a cursor it did not hand out for this list and order, naming the field', async () => {
    const app8 = await app('Cursor Four');
    await insertBanners(Array.from({ length: 4 }, (_, i) => ({ app: app8, at: at(60_000 + i) })));
    const { nextCursor } = await list('/banner/list', `masterAppId=${app8}&limit=2`);
    expect(nextCursor).toMatch(/^[\w-]+\.[\w-]{22}$/);
    const [body, mac] = nextCursor!.split('.');
    const forged = Buffer.from(JSON.stringify([['9999-01-01T00:00:00.000Z'], 1])).toString(
      'base64url',
    );
    const refused = async (path: string, query: string, field: string) => {
      const res = await s.api({ method: 'GET', url: `${path}?${query}`, token: s.adminToken });
      expect(res.statusCode, `${path}?${query}`).toBe(400);
      expect(res.json().details[0].path).toBe(field);
    };
    await refused('/banner/list', `cursor=${forged}.${mac}`, 'cursor');
    await refused('/banner/list', `cursor=${body}.${'A'.repeat(22)}`, 'cursor');
    await refused('/banner/list', `cursor=${body}`, 'cursor');
    await refused('/banner/list', `cursor=%00${nextCursor}`, 'cursor');
    await refused('/banner/list', `cursor=${nextCursor}&sort=status`, 'cursor');
    await refused('/faqs/list/', `cursor=${nextCursor}`, 'cursor');
    await refused('/banner/list', `cursor=${nextCursor}&offset=2`, 'offset');
    // A cursor survives a change of filters (it is a position in the order): still answered.
    const other = await list('/banner/list', `cursor=${nextCursor}&status=ACTIVE&limit=2`);
    expect(other.result.length).toBe(2);
  });
});

/**
 * The lines of a SQLite plan that scan a table: `SCAN x` where x is not a subquery of the
 * statement's own (a capped count reads its at most 10,001 rows, `CO-ROUTINE c`, then `SCAN c`).
 */
function tableScans(lines: readonly string[]): string[] {
  const subqueries = new Set(
    lines.flatMap((l) => /^(?:CO-ROUTINE|MATERIALIZE) (\w+)$/.exec(l)?.[1] ?? []),
  );
  return lines.filter((l) => {
    const scanned = /^SCAN (\w+)$/.exec(l)?.[1];
    return scanned !== undefined && !subqueries.has(scanned);
  });
}

describe.runIf(TEST_DB === 'sqlite')('query plans (SQLite)', () => {
  it('sorts every list by every field it allows from an index (no sort of the whole list)', async () => {
    for (const list of ALL_LISTS) {
      // The users list always asks for role USER (its sort indexes begin with it, 0020).
      const scope = list === USERS_LIST ? { role: 'USER' } : {};
      for (const field of list.sorts) {
        for (const sort of [field, `-${field}`]) {
          const [page] = s.ctx.lists.statements(list, { limit: 10, offset: 0, sort, ...scope });
          const lines = await plan({ sql: bind(page!.sql, page!.parameters), parameters: [] });
          // The page's own few rows are sorted at the end; the list itself must come in order.
          const sorts = lines.filter((l) => l.includes('USE TEMP B-TREE FOR ORDER BY'));
          expect(sorts.length, `${list.name} ${sort}: ${lines.join(' | ')}`).toBeLessThanOrEqual(1);
        }
      }
    }
  });

  const plan = async (compiled: { sql: string; parameters: readonly unknown[] }) =>
    (
      await sql
        .raw<{ detail: string }>(`explain query plan ${compiled.sql}`)
        .execute(s.ctx.database.db.withoutPlugins())
        .catch(() => ({ rows: [] }))
    ).rows.map((r) => r.detail);

  it('never scans a table for a page or a total, whatever filters are combined', async () => {
    // Every combination of the banner list's filters, with and without an indexed keyword.
    const keys = Object.keys(BANNERS_LIST.filters);
    const values: Record<string, string | number> = {
      masterAppId: app1,
      status: 'ACTIVE',
      linkType: 'DEFAULT',
    };
    for (let mask = 0; mask < 1 << keys.length; mask++) {
      for (const keyword of [undefined, 'diwali']) {
        const query: Record<string, unknown> = { limit: 10, offset: 0, keyword };
        keys.forEach((k, i) => {
          if (mask & (1 << i)) query[k] = values[k];
        });
        for (const statement of s.ctx.lists.statements(BANNERS_LIST, query as never)) {
          const lines = await plan({
            sql: bind(statement.sql, statement.parameters),
            parameters: [],
          });
          expect(lines.length, statement.sql).toBeGreaterThan(0);
          const scans = tableScans(lines);
          expect(scans, `${JSON.stringify(query)}: ${lines.join(' | ')}`).toEqual([]);
        }
      }
    }
  });

  it('never scans for the users list, DELETED left out or asked for, any filters', async () => {
    for (const status of [undefined, 'ACTIVE', 'DELETED']) {
      for (const masterAppId of [undefined, app1]) {
        for (const keyword of [undefined, 'asha']) {
          const query = { limit: 10, offset: 0, role: 'USER', status, masterAppId, keyword };
          for (const statement of s.ctx.lists.statements(USERS_LIST, query)) {
            const lines = await plan({
              sql: bind(statement.sql, statement.parameters),
              parameters: [],
            });
            const scans = tableScans(lines);
            expect(scans, `${JSON.stringify(query)}: ${lines.join(' | ')}`).toEqual([]);
          }
        }
      }
    }
  });
});

describe('a hidden value (DELETED users)', () => {
  it('is left out of pages and kept totals unless its filter asks for it', async () => {
    const at = new Date().toISOString();
    const rows = (['ACTIVE', 'DELETED', 'SUSPENDED'] as const).map((status, i) => ({
      role: 'USER' as const,
      name: `Hidden ${status}`,
      phoneNumber: `80000000${i}`,
      status,
      masterAppId: app2,
      createdAt: at,
      updatedAt: at,
    }));
    await db.insertInto('accounts').values(rows).execute();
    const page = (q: Record<string, unknown>) =>
      s.ctx.lists.page(USERS_LIST, { limit: 10, offset: 0, role: 'USER', masterAppId: app2, ...q });
    const all = await page({});
    expect(all.total).toBe(2);
    expect(all.result.map((r) => r.status).sort()).toEqual(['ACTIVE', 'SUSPENDED']);
    expect((await page({ keyword: 'hidden' })).total).toBe(2);
    expect((await page({ status: 'DELETED' })).total).toBe(1);
    expect((await page({ status: 'DELETED', keyword: 'hid' })).result[0]!.status).toBe('DELETED');
  });
});

describe.runIf(TEST_DB === 'sqlite')('a list with hidden rows (staff: DELETED)', () => {
  it('pages and counts from indexes and kept counts, with or without the hidden value', async () => {
    const plan = async (source: string, parameters: readonly unknown[]) =>
      (
        await sql
          .raw<{ detail: string }>(`explain query plan ${bind(source, parameters)}`)
          .execute(s.ctx.database.db.withoutPlugins())
      ).rows.map((r) => r.detail);
    for (const status of [undefined, 'ACTIVE', 'DELETED']) {
      for (const keyword of [undefined, 'editor']) {
        const query = { limit: 10, offset: 0, role: 'STAFF', status, keyword };
        for (const statement of s.ctx.lists.statements(STAFF_LIST, query)) {
          const lines = await plan(statement.sql, statement.parameters);
          const scans = tableScans(lines);
          expect(scans, `${JSON.stringify(query)}: ${lines.join(' | ')}`).toEqual([]);
          if (status === undefined) expect(statement.sql).toContain(`<> 'DELETED'`);
          else expect(statement.sql).not.toContain(`<> 'DELETED'`);
        }
      }
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('a kept total on PostgreSQL', () => {
  it('is read through the key when one list fills most of list_counts with another grouping set', async () => {
    // The shape of a million posters: one list's big grouping set, another's small one; counted
    // as independent, (list, grp) looked like thousands of rows and the total scanned the table.
    const pg = s.ctx.database.db.withoutPlugins();
    const fill = (list: string, grp: number, rows: number) =>
      sql`insert into list_counts (list, grp, k1, k2, k3, k4, n)
          select ${list}, ${grp}, cast(i as text), '', '', '', 1 from generate_series(1, ${rows}) i`.execute(
        pg,
      );
    try {
      await fill('zz_big', 3, 40_000);
      await fill('zz_big', 0, 25);
      await fill('zz_other', 0, 40_000);
      await sql`analyze list_counts`.execute(pg);
      const plan = (
        await sql<{ 'QUERY PLAN': string }>`explain select coalesce(sum(n), 0) from list_counts
          where list = 'zz_big' and grp = 0`.execute(pg)
      ).rows.map((r) => r['QUERY PLAN']);
      expect(plan.join('\n')).not.toMatch(/Seq Scan/);
      const estimate = Number(/rows=(\d+)/.exec(plan.find((l) => /Scan/.test(l))!)![1]);
      expect(estimate).toBeLessThan(1_000);
    } finally {
      await sql`delete from list_counts where list in ('zz_big', 'zz_other')`.execute(pg);
    }
  });
});

describe.runIf(TEST_DB === 'postgres')('a page on PostgreSQL', () => {
  it('of rows joining several tables reads them by the ids with one generic plan', async () => {
    // The page is its ids, then their rows: whatever the ids, the rows statement is looked up
    // by key, so PostgreSQL keeps one generic plan instead of planning the joins on every call.
    // (The pages themselves are checked through the API in posters.test.ts.)
    const statements = s.ctx.lists.statements(POSTERS_LIST, { limit: 10, offset: 0 });
    const rows = statements.at(-1)!;
    expect(rows.sql).toMatch(/in \(select unnest\(\$1::int\[\]\) as "id"\)/);
    // A list whose rows join fewer tables keeps its one statement (a round trip saved).
    for (const statement of s.ctx.lists.statements(USERS_LIST, { limit: 10, offset: 0 })) {
      expect(statement.sql).not.toContain('unnest');
    }
    const config = s.ctx.config.database;
    if (config.kind !== 'postgres') throw new Error('a PostgreSQL test');
    const client = new pg.Client({ connectionString: config.url });
    await client.connect();
    try {
      // Pages of 20 ids (PostgreSQL weighs a generic plan against the custom ones' average).
      for (let i = 0; i < 10; i++) {
        const ids = Array.from({ length: 20 }, (_, k) => 1 + i * 20 + k);
        await client.query({ name: 'page_rows', text: rows.sql, values: [ids] });
      }
      const plans = await client.query<{ generic_plans: string }>(
        `select generic_plans from pg_prepared_statements where name = 'page_rows'`,
      );
      expect(Number(plans.rows[0]!.generic_plans)).toBeGreaterThan(0);
    } finally {
      await client.end();
    }
  });
});

/** SQLite's EXPLAIN needs the values in place of the placeholders. */
function bind(source: string, parameters: readonly unknown[]): string {
  let i = 0;
  return source.replace(/\?/g, () => {
    const v = parameters[i++];
    return typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`;
  });
}

it.runIf(TEST_DB === 'postgres')(
  'gathers an analyzed PostgreSQL database’s statistics after a migration, not a new one’s',
  async () => {
    const fresh = await createPgDatabase();
    const analyzed = await createPgDatabase();
    const lastAnalyze = async (handle: ReturnType<typeof openDatabase>, table: string) =>
      (
        await sql<{ at: string | null }>`
          select cast(last_analyze as text) as at from pg_stat_user_tables
          where relname = ${table}`.execute(handle.db)
      ).rows[0]?.at ?? null;
    const handles = [fresh, analyzed].map((d) => openDatabase({ kind: 'postgres', url: d.url }));
    try {
      const [newOne, old] = handles as [(typeof handles)[0], (typeof handles)[0]];
      await migrateToLatest(newOne);
      expect(await lastAnalyze(newOne, 'users_search')).toBeNull();
      // A database in use (analyzed once, as the bench's loader does), then a later migration.
      await migrateToLatest(old, '0015-list-counts-statistics');
      await sql`analyze master_apps`.execute(old.db);
      await migrateToLatest(old);
      // 0016 made users_search: its statistics are there without anyone analyzing it.
      expect(await lastAnalyze(old, 'users_search')).not.toBeNull();
    } finally {
      await Promise.all(handles.map((h) => h.close()));
      await fresh.drop();
      await analyzed.drop();
    }
  },
);
