/**
 * CSV export of every list (`GET <list>/export`): the file holds exactly the list's rows for the
 * same filters, keyword and sort, across many chunks (the chunk is 3 rows here), quoted as RFC 4180
 * says, with formulas neutralised, the list's access, and the walk stops when the client leaves.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  PATHS,
  POSTER_COLUMNS,
  SPECIAL_DAY_COLUMNS,
  STAFF_COLUMNS,
  type Poster,
} from '@master-admin/contract';
import { sql } from 'kysely';
import { TEST_DB, startServer } from './harness.ts';
import { LIST_ROUTE_SCOPES } from './list-scopes.ts';
import { POSTERS_LIST } from '../src/features/posters/routes.ts';
import { ALL_LISTS } from '../src/features/lists.ts';

const CHUNK = 3;
const s = await startServer({ EXPORT_CHUNK_ROWS: String(CHUNK) });
afterAll(() => s.close());

const admin = (url: string) => s.api({ method: 'GET', url, token: s.adminToken });

/** RFC 4180 records of a CSV text (after its BOM). */
function parseCsv(text: string): string[][] {
  expect(text.startsWith('\uFEFF')).toBe(true);
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let i = 1;
  let quoted = false;
  while (i < text.length) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (c === '"') quoted = false;
      else field += c;
      i++;
      continue;
    }
    if (c === '"' && field === '') quoted = true;
    else if (c === ',') {
      record.push(field);
      field = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      record.push(field);
      records.push(record);
      record = [];
      field = '';
      i++;
    } else field += c;
    i++;
  }
  expect(field).toBe('');
  expect(record).toEqual([]);
  return records;
}

/** A list row's fields as the export writes them: `a.b` for nested ones, null as empty, text. */
function fields(row: object, columns: readonly string[]): string[] {
  return columns.map((column) => {
    let value: unknown = row;
    for (const key of column.split('.')) value = (value as Record<string, unknown> | null)?.[key];
    if (value === null || value === undefined) return '';
    return typeof value === 'string' ? value : JSON.stringify(value);
  });
}

/** The poster file's fields and their titles (the screen's column headings). */
const POSTER_FIELDS = Object.entries(POSTER_COLUMNS)
  .filter(([, title]) => title !== null)
  .map(([field]) => field);
const POSTER_HEADER = POSTER_FIELDS.map(
  (f) => (POSTER_COLUMNS as Record<string, string | null>)[f]!,
);

/** Every row of the poster list for `query`, page by page. */
async function allPages(query: string): Promise<Poster[]> {
  const rows: Poster[] = [];
  for (let offset = 0; ; offset += 100) {
    const res = await admin(`/poster/list?${query}&limit=100&offset=${offset}`);
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json<{ result: Poster[] }>().result;
    rows.push(...page);
    if (page.length < 100) return rows;
  }
}

let apps: number[];
let categories: number[];
let dayId: number;
let adminId: number;
const posterIds: number[] = [];

/** Inserts posters directly (the export is under test, not the upload). */
async function insertPosters(count: number, at: (i: number) => string) {
  const rows = Array.from({ length: count }, (_, i) => ({
    masterAppId: apps[i % 2]!,
    categoryId: categories[i % 3]!,
    specialDayId: i % 4 === 0 ? null : dayId,
    accountId: adminId,
    topDefNum: 1 + (i % 7),
    selfDefNum: 2,
    bottomDefNum: 3,
    poster: `posters/p${i}.png`,
    videoThumb: i % 5 === 0 ? `posters/t${i}.png` : null,
    // Nullable, with ties: the keyset's NULL phases and its id tie-break.
    date: i % 3 === 0 ? null : `2026-0${1 + (i % 4)}-1${i % 2}`,
    downloadCount: i % 6,
    status: i % 5 === 1 ? ('DEACTIVE' as const) : ('ACTIVE' as const),
    position: 'LEFT' as const,
    createdAt: at(i),
    updatedAt: at(i),
  }));
  const ids: number[] = [];
  for (let i = 0; i < rows.length; i += 500) {
    const batch = rows.slice(i, i + 500);
    const inserted = await s.ctx.db.insertInto('posters').values(batch).returning('id').execute();
    ids.push(...inserted.map((r) => r.id));
  }
  return ids;
}

beforeAll(async () => {
  const make = async (url: string, payload: object) => {
    const res = await s.api({ method: 'POST', url, token: s.adminToken, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as number;
  };
  apps = [
    await make('/master-app', { name: 'Export One' }),
    await make('/master-app', { name: 'Export Two' }),
  ];
  categories = [
    await make('/category', { name: 'Diwali Wishes' }),
    await make('/category', { name: 'दीपावली शुभकामनाएं' }),
    await make('/category', { name: 'Morning, "Quotes"' }),
  ];
  dayId = await make('/special-day', { name: 'Holi Festival', month: 3, day: 14 });
  adminId = (
    await s.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'SUPER_ADMIN')
      .executeTakeFirstOrThrow()
  ).id;
  // Some share a creation time, so the order's tie-break by id is walked too.
  posterIds.push(
    ...(await insertPosters(40, (i) =>
      new Date(Date.UTC(2026, 0, 1, 0, 0, Math.floor(i / 2))).toISOString(),
    )),
  );
});

describe('the file is the list', () => {
  it.each([
    '',
    'status=ACTIVE',
    `masterAppId=${0}`,
    'sort=date',
    'sort=-date',
    'sort=downloadCount&status=DEACTIVE',
    'sort=-createdAt',
    'sort=status',
    'keyword=diwali',
    'keyword=Holi&sort=-downloadCount',
  ])('%s: headers and every row, in order, across chunks', async (rawQuery) => {
    const query = rawQuery.replace('masterAppId=0', `masterAppId=${apps[1]}`);
    const expected = await allPages(query);
    expect(expected.length).toBeGreaterThan(CHUNK);
    const res = await admin(`/poster/list/export?${query}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('text/csv; charset=utf-8');
    expect(res.headers['content-disposition']).toMatch(
      /^attachment; filename="posters-\d{4}-\d{2}-\d{2}\.csv"$/,
    );
    const [header, ...records] = parseCsv(res.body);
    expect(header).toEqual(POSTER_HEADER);
    expect(records).toEqual(expected.map((row) => fields(row, POSTER_FIELDS)));
  });

  it('file keys are their URLs, names in Indian scripts are UTF-8', async () => {
    const res = await admin('/poster/list/export?sort=date');
    const text = Buffer.from(res.rawPayload).toString('utf8');
    expect(text).toContain('दीपावली शुभकामनाएं');
    expect(text).toMatch(/,\/media\/posters\/p\d+\.png,/);
    expect([...res.rawPayload.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
  });

  it('an empty result is the header alone', async () => {
    const res = await admin(`/poster/list/export?status=DELETED`);
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(`\uFEFF${POSTER_HEADER.join(',')}\r\n`);
  });

  it('other lists: their fixed filters and own order (users, special days)', async () => {
    const days = await admin('/special-day/list/export');
    expect(days.statusCode).toBe(200);
    const [header, ...rows] = parseCsv(days.body);
    expect(header).toEqual(Object.values(SPECIAL_DAY_COLUMNS));
    expect(rows.map((r) => r[1])).toEqual(['Holi Festival']);
    const staff = await s.staff({});
    const users = await admin('/account/user/list/export');
    expect(users.statusCode).toBe(200);
    // Staff accounts are not users.
    expect(users.body).not.toContain(staff.email);
    // A list of objects (the staff member's details): a column per field.
    const [staffHeader, ...staffRows] = parseCsv((await admin('/account/stafflist/export')).body);
    expect(staffHeader).toEqual(['ID', 'Name', 'Email', 'Phone', 'Job title', 'Status', 'Created']);
    expect(Object.values(STAFF_COLUMNS).filter((t) => t !== null)).toEqual(staffHeader);
    const row = staffRows.find((r) => r[0] === String(staff.id))!;
    expect(row.slice(1, 3)).toEqual([expect.any(String), staff.email]);
  });
});

describe('headers', () => {
  it('every list’s file is headed by its columns’ titles, never raw field names', async () => {
    const user = await s.api({
      method: 'POST',
      url: PATHS.userRegister,
      token: s.adminToken,
      payload: { name: 'Header User', phoneNumber: '7000000123', masterAppId: apps[0] },
    });
    const accountId = user.json().result.id as number;
    const lists = [
      PATHS.masterAppList,
      PATHS.bannerList,
      PATHS.blogList,
      PATHS.pageList,
      PATHS.faqList,
      PATHS.categoryList,
      PATHS.specialDayList,
      PATHS.posterList,
      PATHS.videoList,
      PATHS.userList,
      PATHS.wallets(accountId),
      PATHS.loginHistory(accountId),
      PATHS.loginHistoryOwn,
      PATHS.imageList('top', accountId),
      PATHS.imageList('self', accountId),
      PATHS.imageList('bottom', accountId),
      PATHS.settingsList,
      PATHS.notificationList,
      PATHS.staffList,
      PATHS.auditList,
      PATHS.contactList,
    ];
    for (const list of lists) {
      const res = await admin(PATHS.listExport(list));
      expect(res.statusCode, `${list}: ${res.body}`).toBe(200);
      const [header] = parseCsv(res.body);
      expect(header!.length, list).toBeGreaterThan(2);
      for (const title of header!) {
        // Words as a person writes them: a capital first; no dots, underscores or camelCase.
        expect(title, list).toMatch(/^[A-Z][^._]*$/);
        expect(title, list).not.toMatch(/[a-z][A-Z]/);
      }
      expect(new Set(header).size, `${list}: ${header!.join(',')}`).toBe(header!.length);
    }
  });

  it('posters and videos keep their columns in the order people have their files in', async () => {
    // Spelled out: their titles share parts in the contract, and a share must not move a column.
    const placed =
      'Master app ID,Master app,Top number,Self number,Bottom number,Self photo side,Date,Downloads,Status,Live from,Live until';
    const expected = {
      [PATHS.posterList]: `ID,Poster,Thumbnail,Category ID,Category,Special day ID,Special day,Special day: day,Special day: month,${placed},Uploaded by (ID),Uploaded by (phone number),Created,Updated`,
      [PATHS.videoList]: `ID,Video,Player link,Video file ID,Video store,${placed},Created,Updated`,
    };
    for (const [list, header] of Object.entries(expected)) {
      const res = await admin(PATHS.listExport(list));
      expect(res.statusCode, `${list}: ${res.body}`).toBe(200);
      expect(res.body.slice(1).split('\r\n')[0], list).toBe(header);
    }
  });
});

describe('quoting and formulas', () => {
  const names = {
    formula: '=HYPERLINK("http://x","y")',
    plus: '+1 555',
    minus: '-2',
    at: '@SUM(A1)',
    quoted: 'Say "hi", then\nleave',
  };
  let ids: Record<keyof typeof names, number>;
  beforeAll(async () => {
    const at = new Date().toISOString();
    const rows = await s.ctx.db
      .insertInto('categories')
      .values(
        Object.values(names).map((name) => ({
          name,
          status: 'DEACTIVE' as const,
          createdAt: at,
          updatedAt: at,
        })),
      )
      .returning('id')
      .execute();
    ids = Object.fromEntries(Object.keys(names).map((k, i) => [k, rows[i]!.id])) as typeof ids;
  });

  it('commas, quotes and line breaks are quoted; = + - @ get an apostrophe', async () => {
    const res = await admin('/category/list/export?status=DEACTIVE&sort=createdAt');
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.slice(1).split('\r\n');
    const line = (key: keyof typeof names) => lines.find((l) => l.startsWith(`${ids[key]},`))!;
    expect(line('formula')).toContain(`,"'=HYPERLINK(""http://x"",""y"")",`);
    expect(line('plus')).toContain(`,'+1 555,`);
    expect(line('minus')).toContain(`,'-2,`);
    expect(line('at')).toContain(`,'@SUM(A1),`);
    expect(res.body).toContain(`,"Say ""hi"", then\nleave",`);
    const records = parseCsv(res.body);
    expect(records.find((r) => r[0] === String(ids.quoted))?.[1]).toBe(names.quoted);
    expect(records.find((r) => r[0] === String(ids.formula))?.[1]).toBe(`'${names.formula}`);
  });
});

describe('access and validation', () => {
  it('needs the list’s VIEW permission', async () => {
    const none = await s.staff({ category: ['VIEW'] });
    const denied = await s.api({ method: 'GET', url: '/poster/list/export', token: none.token });
    expect(denied.statusCode).toBe(403);
    const viewer = await s.staff({ poster: ['VIEW'] });
    const allowed = await s.api({ method: 'GET', url: '/poster/list/export', token: viewer.token });
    expect(allowed.statusCode).toBe(200);
    expect(parseCsv(allowed.body).length).toBe(posterIds.length + 1);
    expect((await s.api({ method: 'GET', url: '/poster/list/export' })).statusCode).toBe(401);
    const staffExport = await s.api({
      method: 'GET',
      url: '/account/stafflist/export',
      token: viewer.token,
    });
    expect(staffExport.statusCode).toBe(403);
  });

  it('a bad filter is a 400 naming the field; paging is not taken', async () => {
    const bad = await admin('/poster/list/export?status=NOPE');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ path: 'status' })]);
    const sort = await admin('/poster/list/export?sort=poster');
    expect(sort.statusCode).toBe(400);
    expect(sort.json().details[0].path).toBe('sort');
    const paged = await admin('/poster/list/export?limit=10');
    expect(paged.statusCode).toBe(400);
  });

  it('an account the list names must exist', async () => {
    expect((await admin('/wallets/all/999999/export')).statusCode).toBe(404);
  });
});

describe('the walk', () => {
  it('rows written during the walk neither repeat nor shift the others', async () => {
    const walk = s.ctx.lists.walk(POSTERS_LIST, {}, CHUNK);
    const seen: number[] = [];
    const first = await walk.next();
    seen.push(...first.value!.map((r) => (r as { id: number }).id));
    // Newer than every row (before the walk's position) and older (after it).
    const newer = await insertPosters(2, () => new Date(Date.UTC(2027, 0, 1)).toISOString());
    const older = await insertPosters(2, () => new Date(Date.UTC(2020, 0, 1)).toISOString());
    for await (const chunk of walk) seen.push(...chunk.map((r) => (r as { id: number }).id));
    expect(new Set(seen).size).toBe(seen.length);
    expect(seen).toEqual(expect.arrayContaining([...posterIds, ...older]));
    expect(seen.filter((id) => newer.includes(id))).toEqual([]);
    await s.ctx.db
      .deleteFrom('posters')
      .where('id', 'in', [...newer, ...older])
      .execute();
  });

  it('a client that leaves mid-file stops the walk, compressed or not', async () => {
    // Enough rows that the file outgrows the socket's buffers: about 2 MB.
    const extra = await insertPosters(4000, () => new Date(Date.UTC(2019, 0, 1)).toISOString());
    const lists = s.ctx.lists;
    const walk = lists.walk.bind(lists);
    let walkEnded: boolean | undefined;
    lists.walk = async function* (...args) {
      try {
        yield* walk(...args);
      } finally {
        walkEnded = true;
      }
    };
    const reads = s.ctx.database.reads;
    const run = reads.run.bind(reads);
    let statements = 0;
    reads.run = (queries) => {
      statements++;
      return run(queries);
    };
    try {
      await s.app.listen({ port: 0, host: '127.0.0.1' });
      const { port } = s.app.server.address() as AddressInfo;
      for (const encoding of ['identity', 'br', 'gzip']) {
        statements = 0;
        walkEnded = false;
        await new Promise<void>((resolve, reject) => {
          const req = http.get(
            {
              port,
              host: '127.0.0.1',
              path: '/api/v1/poster/list/export',
              headers: { authorization: `Bearer ${s.adminToken}`, 'accept-encoding': encoding },
            },
            (res) => {
              // A compressor sends nothing until it has gathered enough: leave after a moment.
              if (encoding !== 'identity') return;
              res.once('data', () => {
                req.destroy();
                resolve();
              });
            },
          );
          req.on('error', (err) => (req.destroyed ? resolve() : reject(err)));
          if (encoding !== 'identity') {
            setTimeout(() => {
              req.destroy();
              resolve();
            }, 100);
          }
        });
        await new Promise((r) => setTimeout(r, 300));
        const after = statements;
        await new Promise((r) => setTimeout(r, 300));
        expect(statements, encoding).toBe(after);
        expect(walkEnded, encoding).toBe(true);
        // The whole file would take over 1,300 chunks.
        expect(after, encoding).toBeLessThan(1000);
      }
    } finally {
      reads.run = run;
      lists.walk = walk;
      for (let i = 0; i < extra.length; i += 500) {
        await s.ctx.db
          .deleteFrom('posters')
          .where('id', 'in', extra.slice(i, i + 500))
          .execute();
      }
    }
  });
});

describe.runIf(TEST_DB === 'sqlite')('query plans (SQLite)', () => {
  const FIXED = LIST_ROUTE_SCOPES;
  /** SQLite's EXPLAIN needs the values in place of the placeholders. */
  const bind = (source: string, parameters: readonly unknown[]) => {
    let i = 0;
    return source.replace(/\?/g, () => {
      const v = parameters[i++];
      return typeof v === 'number' ? String(v) : `'${String(v).replaceAll("'", "''")}'`;
    });
  };

  it('every chunk of every list, in every order, seeks its index: no scan, no sort of the list', async () => {
    for (const list of ALL_LISTS) {
      for (const sort of [undefined, ...list.sorts.flatMap((f) => [f, `-${f}`])]) {
        const query = { ...FIXED[list.name], sort };
        for (const statement of s.ctx.lists.keysetStatements(list, query, 1000)) {
          const lines = (
            await sql
              .raw<{ detail: string }>(
                `explain query plan ${bind(statement.sql, statement.parameters)}`,
              )
              .execute(s.ctx.database.db.withoutPlugins())
          ).rows.map((r) => r.detail);
          const where = `${list.name} ${sort ?? '(default)'}: ${lines.join(' | ')}`;
          expect(
            lines.filter((l) => /^SCAN \w+$/.test(l)),
            where,
          ).toEqual([]);
          // The chunk's own rows are sorted at the end; the list itself must come in order.
          const sorts = lines.filter((l) => l.includes('USE TEMP B-TREE FOR ORDER BY'));
          expect(sorts.length, where).toBeLessThanOrEqual(1);
        }
      }
    }
  });
});
