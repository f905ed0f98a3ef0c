import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { posterRow, startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

type Category = {
  id: number;
  version: number;
  name: string;
  downloadCount: number;
  status: string;
  createdAt: string;
};

const create = (payload: unknown, token = s.adminToken, headers: Record<string, string> = {}) =>
  s.api({ method: 'POST', url: '/category', token, headers, payload: payload as string });

async function created(name: string): Promise<Category> {
  const res = await create({ name });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as Category;
}

const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/category/list${query}`, token });

const rename = (id: number | string, payload: unknown, token = s.adminToken) =>
  s.api({ method: 'PATCH', url: `/category/${id}`, token, payload: payload as string });

const setStatus = (id: number | string, payload: unknown, token = s.adminToken) =>
  s.api({ method: 'PUT', url: `/category/status/${id}`, token, payload: payload as string });

const remove = (id: number | string, token = s.adminToken) =>
  s.api({ method: 'DELETE', url: `/category/remove/${id}`, token });

const countCategories = async () =>
  Number(
    (
      await s.ctx.db
        .selectFrom('categories')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const stored = (id: number) =>
  s.ctx.db.selectFrom('categories').selectAll().where('id', '=', id).executeTakeFirst();

/** The paths a 400 names. */
const paths = (res: { json(): unknown }) =>
  ((res.json() as { details?: Array<{ path: string }> }).details ?? []).map((d) => d.path);

const ids = async (query: string) =>
  (await list(query)).json().result.map((r: { id: number }) => r.id) as number[];

let appId: number;
let adminId: number;
beforeAll(async () => {
  const app = await s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    payload: { name: 'Posters App' },
  });
  appId = app.json().result.id;
  adminId = s.adminId;
});

/** A poster row using `categoryId`, written straight to the database. */
async function insertPoster(categoryId: number): Promise<number> {
  const row = await s.ctx.db
    .insertInto('posters')
    .values(posterRow({ masterAppId: appId, categoryId, accountId: adminId }))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

describe('creating a category', () => {
  it('answers the message and the row: ACTIVE, no downloads', async () => {
    const res = await create({ name: '  Good Morning  ' });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      message: MESSAGES.categoryCreated,
      result: {
        id: expect.any(Number),
        version: 1,
        name: 'Good Morning',
        downloadCount: 0,
        status: 'ACTIVE',
        createdAt: expect.any(String),
      },
    });
    expect(new Date(body.result.createdAt).toISOString()).toBe(body.result.createdAt);
    expect((await list()).json().result[0]).toEqual(body.result);
  });

  it('accepts a form-encoded body', async () => {
    const res = await create('name=Form+Category', s.adminToken, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.name).toBe('Form Category');
  });

  it('refuses a taken name in any letter case with 409, adding nothing', async () => {
    await created('Festivals');
    const before = await countCategories();
    for (const name of ['Festivals', 'FESTIVALS', '  festivals ']) {
      const res = await create({ name });
      expect(res.statusCode, name).toBe(409);
      expect(res.json()).toEqual({
        statusCode: 409,
        error: 'Conflict',
        message: MESSAGES.categoryNameTaken,
        details: [{ path: 'name', message: MESSAGES.categoryNameTaken }],
      });
    }
    expect(await countCategories()).toBe(before);
  });

  it('takes 100 characters but not 101', async () => {
    expect((await created('C'.repeat(100))).name).toHaveLength(100);
    const res = await create({ name: 'D'.repeat(101) });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['name']);
  });

  it.each([
    ['a missing name', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a blank name', { name: '   ' }, 'name'],
    ['a number', { name: 5 }, 'name'],
    ['null', { name: null }, 'name'],
    ['an unknown key', { name: 'Sneaky', downloadCount: 99 }, 'downloadCount'],
    ['a status', { name: 'Sneaky', status: 'DEACTIVE' }, 'status'],
  ])('refuses %s naming the field, storing nothing', async (_name, payload, field) => {
    const before = await countCategories();
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res)).toEqual([field]);
    expect(await countCategories()).toBe(before);
  });
});

describe('listing categories', () => {
  it('filters by keyword and status, newest first, and counts every match', async () => {
    const a = await created('Birthday Wishes');
    const b = await created('Anniversary wishes');
    const c = await created('Wishes for Diwali');
    await created('Quotes');
    expect((await setStatus(b.id, { status: 'DEACTIVE' })).statusCode).toBe(200);

    expect(await ids('?keyword=WISHES')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?keyword=wishes&status=ACTIVE')).toEqual([c.id, a.id]);
    expect(await ids('?keyword=wishes&status=DEACTIVE')).toEqual([b.id]);
    expect(await ids('?keyword=wishes&status=')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?keyword=%25')).toEqual([]);

    const page = (await list('?keyword=wishes&limit=2&offset=1')).json();
    expect(page.result.map((r: Category) => r.id)).toEqual([b.id, a.id]);
    expect(page.total).toBe(3);
  });

  it.each([
    ['?limit=1000', 'limit'],
    ['?limit=0', 'limit'],
    ['?offset=-1', 'offset'],
    ['?offset=x', 'offset'],
    ['?status=GONE', 'status'],
    ['?colour=red', 'colour'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });
});

describe('renaming a category', () => {
  it('renames it, keeping the rest', async () => {
    const cat = await created('Old Name');
    const res = await rename(cat.id, { name: 'New Name' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.categoryUpdated,
      result: { ...cat, name: 'New Name', version: cat.version + 1 },
    });
    expect(await stored(cat.id)).toMatchObject({ name: 'New Name' });
  });

  it('lets a category change its own letter case', async () => {
    const cat = await created('lower case');
    const res = await rename(cat.id, { name: 'Lower Case' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.name).toBe('Lower Case');
  });

  it('refuses another category’s name in any case with 409, changing nothing', async () => {
    await created('Taken Name');
    const cat = await created('Free Name');
    const res = await rename(cat.id, { name: 'TAKEN name' });
    expect(res.statusCode).toBe(409);
    expect(res.json().message).toBe(MESSAGES.categoryNameTaken);
    expect(await stored(cat.id)).toMatchObject({ name: 'Free Name' });
  });

  it.each([
    ['an empty body', {}, 'name'],
    ['an empty name', { name: '' }, 'name'],
    ['a 101-character name', { name: 'x'.repeat(101) }, 'name'],
    ['an unknown key', { name: 'x', status: 'ACTIVE' }, 'status'],
  ])('refuses %s naming the field', async (_name, payload, field) => {
    const cat = await created(`Unchanged ${field} ${Math.random()}`);
    const res = await rename(cat.id, payload);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual([field]);
    expect(await stored(cat.id)).toMatchObject({ name: cat.name });
  });

  it('answers 404 for a missing category, 400 for a bad id', async () => {
    const res = await rename(999_999, { name: 'Nobody' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.categoryNotFound);
    for (const id of ['abc', '-3', '0']) {
      const bad = await rename(id, { name: 'Nobody' });
      expect(bad.statusCode, id).toBe(400);
      expect(paths(bad)).toEqual(['id']);
    }
  });
});

describe('category status', () => {
  it('changes the status', async () => {
    const cat = await created('Status Check');
    const res = await setStatus(cat.id, { status: 'SUSPENDED' });
    expect(res.json()).toEqual({
      message: MESSAGES.statusUpdated,
      result: { ...cat, status: 'SUSPENDED', version: cat.version + 1 },
    });
    expect(await stored(cat.id)).toMatchObject({ status: 'SUSPENDED' });
  });

  it.each([
    [{}, 'status'],
    [{ status: 'GONE' }, 'status'],
    [{ status: '' }, 'status'],
    [{ status: 'ACTIVE', name: 'x' }, 'name'],
  ])('refuses %j naming the field', async (payload, field) => {
    const cat = await created(`Status ${Math.random()}`);
    const res = await setStatus(cat.id, payload);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual([field]);
    expect(await stored(cat.id)).toMatchObject({ status: 'ACTIVE' });
  });

  it('answers 404 for a missing category, 400 for a bad id', async () => {
    expect((await setStatus(999_999, { status: 'ACTIVE' })).statusCode).toBe(404);
    expect((await setStatus('x1', { status: 'ACTIVE' })).statusCode).toBe(400);
  });
});

describe('deleting a category', () => {
  it('deletes an unused category, then answers 404', async () => {
    const cat = await created('Short Lived');
    const res = await remove(cat.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.categoryDeleted, result: { id: cat.id } });
    expect(await stored(cat.id)).toBeUndefined();
    const again = await remove(cat.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(MESSAGES.categoryNotFound);
  });

  it('refuses with 409 while a poster uses it, and deletes it once none does', async () => {
    const cat = await created('In Use');
    const poster = await insertPoster(cat.id);
    const res = await remove(cat.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: MESSAGES.categoryInUse,
    });
    expect(await stored(cat.id)).toBeDefined();

    await s.ctx.db.deleteFrom('posters').where('id', '=', poster).execute();
    expect((await remove(cat.id)).statusCode).toBe(200);
  });

  it('refuses bad ids', async () => {
    for (const id of ['abc', '-1', '0']) {
      const res = await remove(id);
      expect(res.statusCode, id).toBe(400);
      expect(paths(res)).toEqual(['id']);
    }
  });
});

describe('permissions', () => {
  it('needs the category menu: 403 without, each call with its own kind', async () => {
    const cat = await created('Guarded Category');
    const none = await s.staff({ faqs: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    for (const res of [
      await list('', none.token),
      await create({ name: 'Nope' }, none.token),
      await rename(cat.id, { name: 'Nope' }, none.token),
      await setStatus(cat.id, { status: 'DEACTIVE' }, none.token),
      await remove(cat.id, none.token),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.accessDenied);
    }
    expect(await stored(cat.id)).toMatchObject({ name: 'Guarded Category', status: 'ACTIVE' });

    const viewer = await s.staff({ category: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
    expect((await rename(cat.id, { name: 'Nope' }, viewer.token)).statusCode).toBe(403);

    const editor = await s.staff({ category: ['CREATE', 'UPDATE', 'DELETE'] });
    expect((await create({ name: 'By Staff' }, editor.token)).statusCode).toBe(200);
    expect((await rename(cat.id, { name: 'Renamed By Staff' }, editor.token)).statusCode).toBe(200);
    expect((await setStatus(cat.id, { status: 'DEACTIVE' }, editor.token)).statusCode).toBe(200);
    expect((await remove(cat.id, editor.token)).statusCode).toBe(200);
  });
});
