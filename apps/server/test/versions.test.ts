/**
 * No silent overwrite (API.md, "Versions"), on both databases: every change of one row, taken from
 * the OpenAPI document (so a route added later is covered), refuses a stale `If-Match` with 409,
 * the row as it is now and who changed it, and changes nothing; the row's version moves with every
 * change; bulk calls check `versions` all or nothing; two changes based on one version: one wins.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import { startServer } from './harness.ts';
import { documentClient, type Request } from './openapi-requests.ts';
import { images } from './images.ts';
import type { Database } from '../src/db/schema.ts';

const s = await startServer();
afterAll(() => s.close());
const { operations, send, baseRequest, bodyFor } = await documentClient(s);
const anyDb = s.ctx.db as unknown as Kysely<Record<string, Record<string, unknown>>>;

type Made = { id: number; version: number };
const ok = async (res: { statusCode: number; body: string; json(): unknown }) => {
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { result: Made & Record<string, unknown> };
};
const admin = (method: string, url: string, payload?: unknown, headers = {}) =>
  s.api({ method: method, url, token: s.adminToken, payload: payload as string, headers });

/**
 * Makes a row through the document's own create call: `path` its template, `params` its path
 * ids, `fields` what the minimal valid body must hold. Answers the row (or the first of many).
 */
async function create(
  path: string,
  params: Record<string, number> = {},
  fields: Record<string, unknown> = {},
): Promise<Made> {
  const found = operations.find((o) => o.method === 'POST' && o.path === `/api/v1${path}`);
  if (!found) throw new Error(`no POST ${path} in the document`);
  const base = baseRequest(found.op);
  for (const [name, value] of Object.entries(params)) base.path[name] = String(value);
  const contents = Object.entries(found.op.requestBody?.content ?? {});
  const [type, content] = contents.find(([t]) => t === 'multipart/form-data') ?? contents[0] ?? [];
  const res = await send('POST', found.path, {
    ...base,
    ...(type && content ? { body: bodyFor(content.schema, type, fields), type } : {}),
  });
  expect(res.statusCode, `${path}: ${res.body}`).toBe(200);
  const result = res.json().result as Made | { ids: number[] };
  return 'ids' in result ? { id: result.ids[0]!, version: 1 } : result;
}

/** The rows the change routes act on, one per area, made through the API. */
const ids: Record<string, number> = {};
beforeAll(async () => {
  ids.app = (await create('/master-app', {}, { name: 'Versions App' })).id;
  ids.category = (await create('/category', {}, { name: 'Versions' })).id;
  ids.poster = (
    await create(
      '/poster/only-cat/{categoryId}',
      { categoryId: ids.category },
      { masterAppId: ids.app },
    )
  ).id;
  ids.video = (await create('/video', {}, { masterAppId: ids.app })).id;
  ids.banner = (await create('/banner/{masterAppId}', { masterAppId: ids.app })).id;
  ids.blog = (await create('/blogs')).id;
  ids.faq = (await create('/faqs')).id;
  ids.specialDay = (await create('/special-day', {}, { name: 'Versions day' })).id;
  ids.settings = (await create('/settings/{masterAppId}', { masterAppId: ids.app })).id;
  const pages = await admin('GET', `/pages/all?masterAppId=${ids.app}`);
  ids.page = pages.json<{ result: Made[] }>().result[0]!.id;
  ids.user = (
    await create('/auth/user/register', {}, { masterAppId: ids.app, phoneNumber: '9000000001' })
  ).id;
  for (const kind of ['top', 'self', 'bottom']) {
    ids[kind] = (await create(`/${kind}/{accountId}`, { accountId: ids.user })).id;
  }
  ids.notification = (
    await create('/notifications/single', {}, { masterAppId: ids.app, accountId: ids.user })
  ).id;
  ids.staff = (await s.staff()).id;
  ids.menu = (await create('/menus', {}, { name: 'drafts', title: 'Drafts' })).id;
});

/** The row a change route's path names: its table, id, and the area row key in `ids`. */
const ROUTE_ROWS: Array<[RegExp, keyof Database, string]> = [
  [/^\/master-app\//, 'masterApps', 'app'],
  [/^\/banner\//, 'banners', 'banner'],
  [/^\/blogs\//, 'blogs', 'blog'],
  [/^\/pages\//, 'pages', 'page'],
  [/^\/faqs\//, 'faqs', 'faq'],
  [/^\/category\//, 'categories', 'category'],
  [/^\/special-day\//, 'specialDays', 'specialDay'],
  [/^\/settings\//, 'settings', 'settings'],
  [/^\/notifications\//, 'notifications', 'notification'],
  [/^\/poster\//, 'posters', 'poster'],
  [/^\/video\//, 'videos', 'video'],
  [/^\/(top)\//, 'userImages', 'top'],
  [/^\/(self)\//, 'userImages', 'self'],
  [/^\/(bottom)\//, 'userImages', 'bottom'],
  [
    /^\/(user-details|account\/update-datelimit|account\/user|account\/delete-user)\//,
    'accounts',
    'user',
  ],
  [
    /^\/(account\/update\/staff|account\/staff|account\/remove-staff|user-permissions\/bulk)\//,
    'accounts',
    'staff',
  ],
  [/^\/menus\//, 'menus', 'menu'],
];

const changesOfOneRow = operations.filter(({ op }) =>
  (op.parameters ?? []).some((p) => p.in === 'header' && p.name === 'if-match'),
);

/** The row and what belongs to it, as stored: a change leaves these exactly as they were. */
async function stored(table: keyof Database, id: number) {
  const row = await anyDb.selectFrom(table).selectAll().where('id', '=', id).executeTakeFirst();
  const detail =
    table === 'accounts'
      ? await anyDb.selectFrom('userDetails').selectAll().where('accountId', '=', id).execute()
      : [];
  return { row, detail };
}

describe('a stale If-Match: 409, the row now, who changed it, and nothing changes', () => {
  it('covers every change of one row the document lists', () => {
    expect(changesOfOneRow.length).toBeGreaterThan(50);
    const unmapped = changesOfOneRow
      .map(({ path }) => path.replace('/api/v1', ''))
      .filter((path) => !ROUTE_ROWS.some(([pattern]) => pattern.test(path)));
    expect(unmapped).toEqual([]);
  });

  for (const { path, method, op } of changesOfOneRow) {
    const local = path.replace('/api/v1', '');
    const [, table, key] = ROUTE_ROWS.find(([pattern]) => pattern.test(local)) ?? [];
    if (!table || !key) continue;
    it(`${method} ${local}`, async () => {
      const id = ids[key]!;
      const base = baseRequest(op);
      for (const name of Object.keys(base.path)) base.path[name] = String(id);
      const [type, content] = Object.entries(op.requestBody?.content ?? {})[0] ?? [];
      const request: Request = {
        ...base,
        ...(type && content ? { body: bodyFor(content.schema, type), type } : {}),
      };
      const before = await stored(table, id);
      const version = Number(before.row!.version);
      const res = await send(method, path, {
        ...request,
        headers: { 'if-match': `"${version + 7}"` },
      });
      expect(res.statusCode, res.body).toBe(409);
      const body = res.json();
      expect(body.current).toMatchObject({ id, version });
      expect(body.message).toMatch(/ was changed (by .+ )?since you opened it$/);
      expect(Object.keys(body)).toEqual(
        expect.arrayContaining(['statusCode', 'error', 'current', 'changedBy', 'changedAt']),
      );
      expect(await stored(table, id)).toEqual(before);
    });
  }
});

describe('versions move with every change', () => {
  it('a rename answers the next version, the ETag says it, and If-Match with it succeeds', async () => {
    const read = await admin('GET', `/category/list?keyword=Versions`);
    const row = read.json<{ result: Made[] }>().result.find((r) => r.id === ids.category)!;
    const first = await ok(
      await admin(
        'PATCH',
        `/category/${ids.category}`,
        { name: 'Versions 2' },
        {
          'if-match': `"${row.version}"`,
        },
      ),
    );
    expect(first.result.version).toBe(row.version + 1);
    const stale = await admin(
      'PATCH',
      `/category/${ids.category}`,
      { name: 'Versions 3' },
      {
        'if-match': `"${row.version}"`,
      },
    );
    expect(stale.statusCode).toBe(409);
    expect(stale.json()).toMatchObject({
      current: { id: ids.category, name: 'Versions 2', version: row.version + 1 },
      changedBy: { id: s.adminId },
    });
    expect(stale.json().message).toBe(
      `Category was changed by ${stale.json().changedBy.name} since you opened it`,
    );
    expect(new Date(stale.json().changedAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it('a single GET answers an ETag of the row’s version', async () => {
    const res = await admin('GET', `/blogs/${ids.blog}`);
    expect(res.statusCode).toBe(200);
    expect(res.headers.etag).toBe(`"${res.json().version}"`);
  });

  it('a change of another table moves the row’s version: a user’s banner, a staff member’s grants', async () => {
    const user = async () => (await admin('GET', `/account/user/${ids.user}`)).json<Made>();
    const { version } = await user();
    const png = await images.png();
    const body = new FormData();
    body.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'b.png');
    const encoded = new Response(body);
    const res = await admin(
      'PUT',
      `/user-details/top-banner/${ids.user}`,
      Buffer.from(await encoded.arrayBuffer()),
      {
        'content-type': encoded.headers.get('content-type')!,
        'if-match': `"${version}"`,
      },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.version).toBe(version + 1);

    const staffVersion = async () =>
      Number(
        (
          await anyDb
            .selectFrom('accounts')
            .select('version')
            .where('id', '=', ids.staff!)
            .executeTakeFirstOrThrow()
        ).version,
      );
    const v = await staffVersion();
    const perms = await admin('GET', `/user-permissions/list/${ids.staff}`);
    const first = perms.json<{ perms: Array<{ userPermission: Array<{ id: number }> }> }>()
      .perms[0]!.userPermission[0]!;
    const granted = await admin(
      'PUT',
      `/user-permissions/bulk/${ids.staff}`,
      {
        items: [{ id: first.id, status: true }],
      },
      { 'if-match': `"${v}"` },
    );
    expect(granted.statusCode, granted.body).toBe(200);
    expect(await staffVersion()).toBe(v + 1);
    const stale = await admin(
      'PUT',
      `/user-permissions/bulk/${ids.staff}`,
      {
        items: [{ id: first.id, status: false }],
      },
      { 'if-match': `"${v}"` },
    );
    expect(stale.statusCode).toBe(409);
  });
});

describe('If-Match that does not fit is refused, naming it', () => {
  it.each([['"x"'], ['"1", "2"'], ['"0"'], ['"99999999999"']])('%s → 400', async (value) => {
    const res = await admin(
      'PATCH',
      `/faqs/update/${ids.faq}`,
      { question: 'Z' },
      { 'if-match': value },
    );
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([{ path: 'If-Match', message: expect.any(String) }]);
  });

  it('on a create, a bulk call and a permission row: 400; `*` and W/"n" are taken', async () => {
    const create = await admin(
      'POST',
      '/faqs',
      { question: 'Q', answer: 'A' },
      { 'if-match': '"1"' },
    );
    expect(create.statusCode).toBe(400);
    const bulk = await admin(
      'PUT',
      '/poster/bulk-status',
      { ids: [ids.poster], status: 'ACTIVE' },
      {
        'if-match': '"1"',
      },
    );
    expect(bulk.statusCode).toBe(400);
    const perm = await admin(
      'PUT',
      '/permissions/status/1',
      { status: true },
      { 'if-match': '"1"' },
    );
    expect(perm.statusCode).toBe(400);
    const any = await admin(
      'PATCH',
      `/faqs/update/${ids.faq}`,
      { answer: 'Any' },
      { 'if-match': '*' },
    );
    expect(any.statusCode).toBe(200);
    const weak = await admin(
      'PATCH',
      `/faqs/update/${ids.faq}`,
      { answer: 'Weak' },
      {
        'if-match': `W/"${any.json().result.version}"`,
      },
    );
    expect(weak.statusCode, weak.body).toBe(200);
  });
});

describe('bulk calls take versions, all or nothing', () => {
  it('a stale id: 409 naming every stale id, with their rows, and nothing changes', async () => {
    const list = async () =>
      (await admin('GET', '/poster/list?limit=100')).json<{
        result: Array<Made & { status: string }>;
      }>();
    await create(
      '/poster/only-cat/{categoryId}',
      { categoryId: ids.category! },
      { masterAppId: ids.app },
    );
    const rows = (await list()).result.slice(0, 2);
    const versions = Object.fromEntries(rows.map((r) => [String(r.id), r.version]));
    versions[String(rows[1]!.id)] = rows[1]!.version + 3;
    const before = await anyDb.selectFrom('posters').selectAll().orderBy('id').execute();
    const res = await admin('PUT', '/poster/bulk-status', {
      ids: rows.map((r) => r.id),
      status: 'DEACTIVE',
      versions,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json()).toMatchObject({
      stale: [rows[1]!.id],
      current: [{ id: rows[1]!.id, version: rows[1]!.version }],
      details: [{ path: `versions.${rows[1]!.id}` }],
    });
    expect(await anyDb.selectFrom('posters').selectAll().orderBy('id').execute()).toEqual(before);

    versions[String(rows[1]!.id)] = rows[1]!.version;
    const done = await admin('PUT', '/poster/bulk-status', {
      ids: rows.map((r) => r.id),
      status: 'DEACTIVE',
      versions,
    });
    expect(done.statusCode, done.body).toBe(200);
    const after = (await list()).result.filter((r) => r.id in versions);
    for (const r of after)
      expect(r).toMatchObject({ status: 'DEACTIVE', version: versions[r.id]! + 1 });
  });

  it('versions naming an id the call does not act on, or a bad version: 400 naming versions', async () => {
    const stranger = await admin('PUT', '/poster/bulk-status', {
      ids: [ids.poster],
      status: 'ACTIVE',
      versions: { [String(ids.poster! + 1000)]: 1 },
    });
    expect(stranger.statusCode).toBe(400);
    expect(stranger.json().details[0].path).toBe('versions');
    const bad = await admin('PUT', '/poster/bulk-status', {
      ids: [ids.poster],
      status: 'ACTIVE',
      versions: { [String(ids.poster)]: 'one' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toMatch(/^versions/);
  });
});

describe('two changes based on one version', () => {
  it('exactly one wins, the other gets 409, whatever the order they reach the database', async () => {
    for (let trial = 0; trial < 5; trial++) {
      const faq = (
        await ok(await admin('PATCH', `/faqs/update/${ids.faq}`, { answer: `Base ${trial}` }))
      ).result;
      const answers = await Promise.all(
        ['A', 'B', 'C'].map((who) =>
          admin(
            'PATCH',
            `/faqs/update/${ids.faq}`,
            { answer: `${who} ${trial}` },
            {
              'if-match': `"${faq.version}"`,
            },
          ),
        ),
      );
      const codes = answers.map((r) => r.statusCode).sort();
      expect(codes).toEqual([200, 409, 409]);
      const winner = answers.find((r) => r.statusCode === 200)!.json().result;
      const row = await anyDb
        .selectFrom('faqs')
        .selectAll()
        .where('id', '=', ids.faq!)
        .executeTakeFirstOrThrow();
      expect(row).toMatchObject({ answer: winner.answer, version: faq.version + 1 });
    }
  });
});
