import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

type Row = { id: number; version: number; name: string; createdAt: string };

const create = (payload: unknown, headers: Record<string, string> = {}) =>
  s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    headers,
    payload: payload as string,
  });

async function created(name: string): Promise<Row> {
  const res = await create({ name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as Row;
}

const list = (query: string, token = s.adminToken) =>
  s.api({ method: 'GET', url: `/master-app/list${query}`, token });

const rename = (id: number | string, payload: unknown) =>
  s.api({
    method: 'PATCH',
    url: `/master-app/update/${id}`,
    token: s.adminToken,
    payload: payload as string,
  });

const countApps = async () =>
  Number(
    (
      await s.ctx.db
        .selectFrom('masterApps')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const rowNamed = (name: string) =>
  s.ctx.db.selectFrom('masterApps').selectAll().where('name', '=', name).executeTakeFirst();

/** The paths a 400 names. */
const paths = (res: { json(): unknown }) =>
  ((res.json() as { details?: Array<{ path: string }> }).details ?? []).map((d) => d.path);

describe('creating a master app', () => {
  it('answers the message and the row, from a JSON body', async () => {
    const res = await create({ name: 'Json App' });
    expect(res.statusCode).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      message: 'App Created Successfully',
      result: {
        id: expect.any(Number),
        version: 1,
        name: 'Json App',
        timeZone: 'UTC',
        timeZoneIsDefault: true,
        createdAt: expect.any(String),
      },
    });
    expect(new Date(body.result.createdAt).toISOString()).toBe(body.result.createdAt);
    expect(await rowNamed('Json App')).toMatchObject({ id: body.result.id });
  });

  it('accepts a form-encoded body', async () => {
    const res = await create('name=Form+App%21', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.name).toBe('Form App!');
    expect(await rowNamed('Form App!')).toBeDefined();
  });

  it('accepts a multipart body', async () => {
    const form = new FormData();
    form.append('name', 'Multipart App');
    const res = await s.api({
      method: 'POST',
      url: '/master-app',
      token: s.adminToken,
      payload: form,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: 'App Created Successfully',
      result: { name: 'Multipart App' },
    });
    expect(await rowNamed('Multipart App')).toBeDefined();
  });

  it('trims the name', async () => {
    const row = await created('   Spaced Out   ');
    expect(row.name).toBe('Spaced Out');
    expect(await rowNamed('Spaced Out')).toMatchObject({ id: row.id });
  });

  it('takes a name of 100 characters but not 101', async () => {
    const longest = 'L'.repeat(100);
    expect((await created(longest)).name).toBe(longest);
    const before = await countApps();
    const res = await create({ name: 'M'.repeat(101) });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['name']);
    expect(res.json().message).toMatch(/^name: /);
    expect(await countApps()).toBe(before);
  });

  it('refuses an empty, blank or missing name, naming `name`', async () => {
    const before = await countApps();
    for (const payload of [{ name: '' }, { name: '    ' }, {}, { name: null }, { name: 12 }]) {
      const res = await create(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json()).toMatchObject({ statusCode: 400, error: 'Bad Request' });
      expect(paths(res), JSON.stringify(payload)).toEqual(['name']);
    }
    const form = await create('name=', { 'content-type': 'application/x-www-form-urlencoded' });
    expect(form.statusCode).toBe(400);
    expect(paths(form)).toEqual(['name']);
    expect(await countApps()).toBe(before);
  });

  it('refuses an unknown body key, naming it', async () => {
    const before = await countApps();
    const res = await create({ name: 'Sneaky', id: 5000 });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['id']);
    expect(res.json().message).toContain('id');
    const form = await create('name=Sneaky&createdAt=2000-01-01', {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(form.statusCode).toBe(400);
    expect(paths(form)).toEqual(['createdAt']);
    expect(await countApps()).toBe(before);
    expect(await rowNamed('Sneaky')).toBeUndefined();
  });

  it('refuses a taken name in any letter case with 409, adding nothing', async () => {
    await created('Festival Posters');
    const before = await countApps();
    for (const name of ['Festival Posters', 'FESTIVAL posters', '  festival posters ']) {
      const res = await create({ name });
      expect(res.statusCode, name).toBe(409);
      expect(res.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: MESSAGES.appNameTaken,
        details: [{ path: 'name', message: MESSAGES.appNameTaken }],
      });
    }
    expect(await countApps()).toBe(before);
  });

  it('refuses a multipart file part with 400 naming the field, creating nothing', async () => {
    const before = await countApps();
    const form = new FormData();
    form.append('name', 'With A File');
    form.append('logo', new Blob([Buffer.from('GIF89a')], { type: 'image/gif' }), 'logo.gif');
    const res = await s.api({
      method: 'POST',
      url: '/master-app',
      token: s.adminToken,
      payload: form,
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res)).toEqual(['logo']);
    expect(res.json().message).toContain('logo');
    expect(await countApps()).toBe(before);
    expect(await rowNamed('With A File')).toBeUndefined();
  });
});

describe('listing master apps', () => {
  it('answers newest first with paging, and total counts every match', async () => {
    const made: Row[] = [];
    for (let i = 1; i <= 5; i++) made.push(await created(`Paged ${i}`));
    const newestFirst = made.map((r) => r.id).reverse();

    const first = await list('?keyword=paged&limit=2');
    expect(first.statusCode).toBe(200);
    expect(first.json().total).toBe(5);
    expect(first.json().result.map((r: Row) => r.id)).toEqual(newestFirst.slice(0, 2));

    const third = await list('?keyword=paged&limit=2&offset=4');
    expect(third.json()).toEqual({ result: [made[0]], total: 5, nextCursor: null });

    const beyond = await list('?keyword=paged&offset=50');
    expect(beyond.json()).toEqual({ result: [], total: 5, nextCursor: null });

    const all = await list('?keyword=paged');
    expect(all.json().result.map((r: Row) => r.id)).toEqual(newestFirst);
    expect(all.json().result[0]).toEqual(made[4]);
  });

  it('orders rows created at the same instant by id, newest first', async () => {
    const at = '2020-05-05T05:05:05.000Z';
    const ids: number[] = [];
    for (const name of ['Same Time A', 'Same Time B', 'Same Time C']) {
      const { id } = await s.ctx.db
        .insertInto('masterApps')
        .values({ name, createdAt: at, updatedAt: at })
        .returning('id')
        .executeTakeFirstOrThrow();
      ids.push(id);
    }
    const res = await list('?keyword=same%20time');
    expect(res.json().result.map((r: Row) => r.id)).toEqual(ids.reverse());
  });

  it('defaults to 10 rows and counts all of them', async () => {
    const res = await list('');
    expect(res.statusCode).toBe(200);
    const total = await countApps();
    expect(total).toBeGreaterThan(10);
    expect(res.json().total).toBe(total);
    expect(res.json().result).toHaveLength(10);
    expect((await list('?limit=100')).json().result).toHaveLength(Math.min(total, 100));
  });

  it('searches the name case-insensitively as a substring', async () => {
    const row = await created('Diwali Greetings');
    for (const keyword of ['diwali', 'GREET', 'li gr', '  Greetings  ']) {
      const res = await list(`?keyword=${encodeURIComponent(keyword)}`);
      expect(res.json(), keyword).toEqual({ result: [row], total: 1, nextCursor: null });
    }
    expect((await list('?keyword=nothing-like-this')).json()).toEqual({
      result: [],
      total: 0,
      nextCursor: null,
    });
  });

  it('treats % and _ in the keyword literally', async () => {
    const pct = await created('Sale 50% off');
    await created('Sale 500 off');
    const under = await created('snake_case app');
    await created('snakeXcase app');
    const back = await created('back\\slash app');
    await created('backslash app');

    expect((await list('?keyword=0%25')).json()).toEqual({
      result: [pct],
      total: 1,
      nextCursor: null,
    });
    expect((await list('?keyword=%25')).json()).toEqual({
      result: [pct],
      total: 1,
      nextCursor: null,
    });
    expect((await list('?keyword=e_c')).json()).toEqual({
      result: [under],
      total: 1,
      nextCursor: null,
    });
    expect((await list('?keyword=k%5Cs')).json()).toEqual({
      result: [back],
      total: 1,
      nextCursor: null,
    });
  });

  it('refuses bad paging and unknown keys with 400 naming the field', async () => {
    const cases: Array<[string, string]> = [
      ['?limit=1000', 'limit'],
      ['?limit=101', 'limit'],
      ['?limit=0', 'limit'],
      ['?limit=abc', 'limit'],
      ['?limit=1.5', 'limit'],
      ['?offset=-1', 'offset'],
      ['?offset=x', 'offset'],
      ['?keyword=' + 'k'.repeat(101), 'keyword'],
      ['?status=ACTIVE', 'status'],
      ['?sort=image', 'sort'],
      ['?sort=-createdat', 'sort'],
    ];
    for (const [query, field] of cases) {
      const res = await list(query);
      expect(res.statusCode, query).toBe(400);
      expect(paths(res), query).toEqual([field]);
      expect(res.json().message, query).toContain(field);
    }
  });

  it('takes limit 100 and an empty keyword as absent', async () => {
    expect((await list('?limit=100')).statusCode).toBe(200);
    const empty = await list('?keyword=&limit=1');
    expect(empty.statusCode).toBe(200);
    expect(empty.json().total).toBe(await countApps());
  });
});

describe('renaming a master app', () => {
  it('answers "Successfully Updated." and the renamed row', async () => {
    const row = await created('Old Name');
    const res = await rename(row.id, { name: '  New Name  ' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      message: 'Successfully Updated.',
      result: {
        id: row.id,
        version: row.version + 1,
        name: 'New Name',
        timeZone: 'UTC',
        timeZoneIsDefault: true,
        createdAt: row.createdAt,
      },
    });
    expect(await rowNamed('Old Name')).toBeUndefined();
    expect(await rowNamed('New Name')).toMatchObject({ id: row.id });
  });

  it('accepts a form-encoded body, and a change of letter case of its own name', async () => {
    const row = await created('Casing App');
    const res = await s.api({
      method: 'PATCH',
      url: `/master-app/update/${row.id}`,
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'name=CASING+APP',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.name).toBe('CASING APP');
  });

  it('answers 404 for an id with no row', async () => {
    const res = await rename(2_000_000_000, { name: 'Ghost' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({
      statusCode: 404,
      error: 'Not Found',
      message: MESSAGES.appNotFound,
    });
    expect(await rowNamed('Ghost')).toBeUndefined();
  });

  it('answers 400 naming `id` for an id that is not a positive integer', async () => {
    for (const id of ['abc', '-1', '0', '1.5', '99999999999', '1e3', '%20']) {
      const res = await rename(id, { name: 'Never' });
      expect(res.statusCode, `id ${id}: ${res.body}`).toBe(400);
      expect(paths(res), id).toEqual(['id']);
    }
    expect(await rowNamed('Never')).toBeUndefined();
  });

  it('answers 409 for a name another app holds, changing nothing', async () => {
    await created('Taken Name');
    const row = await created('Wants A Name');
    const res = await rename(row.id, { name: 'taken NAME' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(MESSAGES.appNameTaken);
    expect(await rowNamed('Wants A Name')).toMatchObject({ id: row.id });
  });

  it('validates the body as create does', async () => {
    const row = await created('Validated');
    for (const [payload, field] of [
      [{ name: '' }, 'name'],
      [{}, 'name'],
      [{ name: 'N'.repeat(101) }, 'name'],
      [{ name: 'Fine', createdAt: '2000-01-01' }, 'createdAt'],
    ] as const) {
      const res = await rename(row.id, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(paths(res)).toEqual([field]);
    }
    expect(await rowNamed('Validated')).toMatchObject({ createdAt: row.createdAt });
  });
});

describe('master app options', () => {
  it('answers every app’s id, name and time zone by name, to staff without the masterApp menu', async () => {
    const staff = await s.staff({ dashboard: ['VIEW'] });
    expect((await list('', staff.token)).statusCode).toBe(403);

    const res = await s.api({ method: 'GET', url: '/master-app/options', token: staff.token });
    expect(res.statusCode).toBe(200);
    const result = res.json().result as Array<{ id: number; name: string }>;
    const rows = await s.ctx.db.selectFrom('masterApps').select(['id', 'name']).execute();
    expect(result).toHaveLength(rows.length);
    expect(new Set(result.map((r) => r.id))).toEqual(new Set(rows.map((r) => r.id)));
    // The zone a form enters schedules in: the app's own, else the server's default (UTC here).
    for (const r of result) expect(r).toEqual({ id: r.id, name: r.name, timeZone: 'UTC' });
    const names = result.map((r) => r.name);
    const byLowerCase = (a: string, b: string) =>
      a.toLowerCase() < b.toLowerCase() ? -1 : a.toLowerCase() > b.toLowerCase() ? 1 : 0;
    expect(names).toEqual([...names].sort(byLowerCase));
  });

  it('sorts by name regardless of letter case', async () => {
    const fresh = await startServer();
    try {
      for (const name of ['beta', 'Zulu', 'alpha', 'Charlie']) {
        await fresh.api({
          method: 'POST',
          url: '/master-app',
          token: fresh.adminToken,
          payload: { name },
        });
      }
      const res = await fresh.api({
        method: 'GET',
        url: '/master-app/options',
        token: fresh.adminToken,
      });
      expect(res.json().result.map((r: { name: string }) => r.name)).toEqual([
        'alpha',
        'beta',
        'Charlie',
        'Zulu',
      ]);
    } finally {
      await fresh.close();
    }
  });

  it('needs a token', async () => {
    expect((await s.api({ method: 'GET', url: '/master-app/options' })).statusCode).toBe(401);
  });
});
