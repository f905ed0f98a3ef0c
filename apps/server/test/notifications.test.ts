import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Status } from '@master-admin/contract';
import { now } from '../src/db/dialect.ts';
import { thumbOf } from '../src/media/images.ts';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const s = await startServer();
afterAll(() => s.close());

const { storedFiles, mediaFile: fileOf } = s;
const notificationRows = () =>
  s.ctx.db.selectFrom('notifications').selectAll().orderBy('id').execute();

type File = { name: string; data: Buffer; type?: string };
let size = 20;
/** A PNG that no other test uses, so its stored file belongs to one row. */
const uniquePng = async (): Promise<File> => {
  size += 1;
  return { name: 'logo.png', data: await images.png(size, 19), type: 'image/png' };
};

const makeApp = async (name: string) => {
  const res = await s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
};

let phone = 9_000_000_000;
/** An end user (role USER) of `masterAppId`, inserted directly: the users API is another area. */
async function insertUser(masterAppId: number, status: Status = 'ACTIVE') {
  const at = now();
  const row = await s.ctx.db
    .insertInto('accounts')
    .values({
      role: 'USER',
      name: 'End User',
      email: null,
      phoneNumber: String(++phone),
      passwordHash: null,
      status,
      masterAppId,
      dateLimit: null,
      createdAt: at,
      updatedAt: at,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

async function createMultipart(fields: Record<string, string>, logo?: File, token = s.adminToken) {
  const body = await multipart(fields, logo ? { logo } : {});
  return s.api({ method: 'POST', url: '/notifications/single', token, ...body });
}

const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/notifications/admin${query}`, token });
const remove = (id: number | string, token = s.adminToken) =>
  s.api({ method: 'DELETE', url: `/notifications/remove/${id}`, token });

const paths = (res: { json(): { details?: Array<{ path: string }> } }) =>
  (res.json().details ?? []).map((d) => d.path);

let appId: number;
let otherAppId: number;
let userId: number;
beforeAll(async () => {
  appId = await makeApp('Festival');
  otherAppId = await makeApp('Greetings');
  userId = await insertUser(appId);
});

const basic = () => ({
  title: 'Diwali offer',
  desc: 'New posters are out',
  type: 'promo',
  masterAppId: String(appId),
});

describe('create', () => {
  it('creates a notification for every user of an app, from JSON, without a logo', async () => {
    const res = await s.api({
      method: 'POST',
      url: '/notifications/single',
      token: s.adminToken,
      payload: { title: ' Hello ', desc: 'World', type: 'info', masterAppId: appId },
    });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe(MESSAGES.notificationCreated);
    expect(body.result).toEqual({
      id: expect.any(Number),
      version: 1,
      masterAppId: appId,
      accountId: null,
      title: 'Hello',
      desc: 'World',
      type: 'info',
      read: false,
      readCount: 0,
      logo: null,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      masterApp: { id: appId, name: 'Festival' },
    });
  });

  it('takes a form-encoded body', async () => {
    const res = await s.api({
      method: 'POST',
      url: '/notifications/single',
      token: s.adminToken,
      payload: `title=Form&desc=Encoded&type=info&masterAppId=${appId}&accountId=`,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({ title: 'Form', accountId: null, logo: null });
  });

  it('creates one for a single user with a logo, stored as WebP with a thumbnail', async () => {
    const before = storedFiles();
    const res = await createMultipart(
      { ...basic(), accountId: String(userId) },
      { name: 'l.jpg', data: await images.jpeg(), type: 'image/jpeg' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().result;
    expect(result).toMatchObject({ accountId: userId, masterAppId: appId, read: false });
    expect(result.logo).toMatch(/^\/media\/notifications\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    const added = storedFiles().filter((f) => !before.includes(f));
    expect(added.sort()).toEqual(
      [result.logo.slice('/media/'.length), thumbOf(result.logo).slice('/media/'.length)].sort(),
    );
    const file = await s.app.inject({ method: 'GET', url: result.logo });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
  });

  it('accepts a user of the app who is not ACTIVE but not DELETED', async () => {
    const suspended = await insertUser(appId, 'SUSPENDED');
    const res = await createMultipart({ ...basic(), accountId: String(suspended) });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.accountId).toBe(suspended);
  });

  const long = (n: number) => 'x'.repeat(n);
  it.each([
    ['no title', { title: undefined }, 'title'],
    ['a blank title', { title: '  ' }, 'title'],
    ['a title over 200 characters', { title: long(201) }, 'title'],
    ['no desc', { desc: undefined }, 'desc'],
    ['a desc over 2000 characters', { desc: long(2001) }, 'desc'],
    ['no type', { type: undefined }, 'type'],
    ['a type over 50 characters', { type: long(51) }, 'type'],
    ['no masterAppId', { masterAppId: undefined }, 'masterAppId'],
    ['a non-numeric masterAppId', { masterAppId: 'abc' }, 'masterAppId'],
    ['a negative accountId', { accountId: '-3' }, 'accountId'],
    ['the spec’s acccountId spelling', { acccountId: '1' }, 'acccountId'],
    ['an unknown field', { read: 'true' }, 'read'],
  ] as const)('refuses %s, naming the field and storing nothing', async (_n, change, field) => {
    const fields: Record<string, string> = basic();
    for (const [key, value] of Object.entries(change)) {
      if (value === undefined) delete fields[key];
      else fields[key] = value;
    }
    const before = storedFiles();
    const rows = await notificationRows();
    const res = await createMultipart(fields, await uniquePng());
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res)).toContain(field);
    expect(await notificationRows()).toEqual(rows);
    expect(storedFiles()).toEqual(before);
  });

  it('refuses a master app that does not exist with 404 naming masterAppId', async () => {
    const before = storedFiles();
    const rows = await notificationRows();
    const res = await createMultipart({ ...basic(), masterAppId: '999999' }, await uniquePng());
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      message: MESSAGES.appNotFound,
      details: [{ path: 'masterAppId', message: MESSAGES.appNotFound }],
    });
    expect(await notificationRows()).toEqual(rows);
    expect(storedFiles()).toEqual(before);
  });

  it('refuses an accountId that is not a live USER of that app with 404 naming accountId', async () => {
    const ofOtherApp = await insertUser(otherAppId);
    const deleted = await insertUser(appId, 'DELETED');
    const staff = await s.staff();
    for (const accountId of [ofOtherApp, deleted, staff.id, 1, 999_999]) {
      const before = storedFiles();
      const rows = await notificationRows();
      const res = await createMultipart(
        { ...basic(), accountId: String(accountId) },
        await uniquePng(),
      );
      expect(res.statusCode, `accountId ${accountId}`).toBe(404);
      expect(res.json()).toMatchObject({
        message: MESSAGES.userNotFound,
        details: [{ path: 'accountId', message: MESSAGES.userNotFound }],
      });
      expect(await notificationRows()).toEqual(rows);
      expect(storedFiles()).toEqual(before);
    }
  });

  it('refuses a logo that is not an image (415) and a file in another field (400)', async () => {
    const before = storedFiles();
    const html = '<!doctype html><script>alert(1)</script>';
    const res = await createMultipart(basic(), {
      name: 'x.png',
      data: Buffer.from(html),
      type: 'image/png',
    });
    expect(res.statusCode).toBe(415);
    expect(paths(res)).toEqual(['logo']);
    const body = await multipart(basic(), { file: await uniquePng() });
    const other = await s.api({
      method: 'POST',
      url: '/notifications/single',
      token: s.adminToken,
      ...body,
    });
    expect(other.statusCode).toBe(400);
    expect(paths(other)).toContain('file');
    expect(storedFiles()).toEqual(before);
  });
});

describe('list', () => {
  it('filters by keyword (title and desc) and master app, newest first, and counts', async () => {
    const make = async (fields: Record<string, string>) => {
      const res = await createMultipart({ ...basic(), ...fields });
      expect(res.statusCode, res.body).toBe(200);
      return res.json().result as { id: number };
    };
    const a = await make({ title: 'Monsoon SALE', desc: 'Rain posters' });
    const b = await make({ title: 'Weekly digest', desc: 'The monsoon collection' });
    const c = await make({ title: 'Monsoon', desc: 'Other app', masterAppId: String(otherAppId) });
    await make({ title: 'Unrelated', desc: 'Nothing' });

    const ids = async (q: string) =>
      (await list(q)).json().result.map((r: { id: number }) => r.id) as number[];
    expect(await ids('?keyword=monsoon')).toEqual([c.id, b.id, a.id]);
    expect(await ids(`?keyword=MONSOON&masterAppId=${appId}`)).toEqual([b.id, a.id]);
    expect(await ids(`?masterAppId=${otherAppId}`)).toEqual([c.id]);
    expect(await ids('?keyword=%25')).toEqual([]);

    const page = (await list('?keyword=monsoon&limit=1&offset=1')).json();
    expect(page.result.map((r: { id: number }) => r.id)).toEqual([b.id]);
    expect(page.total).toBe(3);

    const all = (await list('?limit=100')).json();
    expect(all.total).toBe((await notificationRows()).length);
    for (const row of all.result) {
      expect(Object.keys(row).sort()).toEqual(
        [
          'id',
          'version',
          'masterAppId',
          'accountId',
          'title',
          'desc',
          'type',
          'read',
          'readCount',
          'logo',
          'createdAt',
          'masterApp',
        ].sort(),
      );
      expect(typeof row.read).toBe('boolean');
    }
  });

  it('answers read as a boolean when set', async () => {
    const made = (await createMultipart(basic())).json().result;
    await s.ctx.db
      .updateTable('notifications')
      .set({ read: true })
      .where('id', '=', made.id)
      .execute();
    const row = (await list('?limit=100'))
      .json()
      .result.find((r: { id: number }) => r.id === made.id);
    expect(row.read).toBe(true);
  });

  it.each([
    ['?limit=101', 'limit'],
    ['?offset=x', 'offset'],
    ['?masterAppId=0', 'masterAppId'],
    ['?accountId=1', 'accountId'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });
});

describe('delete', () => {
  it('deletes the row and its logo', async () => {
    const made = (await createMultipart(basic(), await uniquePng())).json().result;
    const file = fileOf(made.logo);
    expect(fs.existsSync(file)).toBe(true);
    const res = await remove(made.id);
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.notificationDeleted, result: { id: made.id } });
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(thumbOf(file))).toBe(false);
    expect((await notificationRows()).some((r) => r.id === made.id)).toBe(false);

    const again = await remove(made.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(MESSAGES.notificationNotFound);
  });

  it('keeps a logo another notification still uses', async () => {
    const logo = await uniquePng();
    const one = (await createMultipart(basic(), logo)).json().result;
    const two = (await createMultipart(basic(), logo)).json().result;
    expect(one.logo).toBe(two.logo);
    await remove(one.id);
    expect(fs.existsSync(fileOf(one.logo))).toBe(true);
    await remove(two.id);
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    expect(fs.existsSync(fileOf(one.logo))).toBe(false);
  });

  it('deletes a notification without a logo, and refuses a bad id', async () => {
    const made = (await createMultipart(basic())).json().result;
    expect((await remove(made.id)).statusCode).toBe(200);
    const bad = await remove('abc');
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toContain('id');
  });
});

describe('permissions', () => {
  it('needs the notification menu: 403 without, success with', async () => {
    const none = await s.staff({ settings: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    const denied = await list('', none.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json().message).toBe(MESSAGES.accessDenied);
    const before = storedFiles();
    const create = await createMultipart(basic(), await uniquePng(), none.token);
    expect(create.statusCode).toBe(403);
    expect(create.json().message).toBe(MESSAGES.accessDenied);
    expect(storedFiles()).toEqual(before);

    const viewer = await s.staff({ notification: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
    expect((await createMultipart(basic(), undefined, viewer.token)).statusCode).toBe(403);

    const creator = await s.staff({ notification: ['CREATE'] });
    const made = await createMultipart(basic(), await uniquePng(), creator.token);
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().result.id as number;
    expect((await remove(id, creator.token)).statusCode).toBe(403);
    expect((await remove(id, viewer.token)).statusCode).toBe(403);

    const deleter = await s.staff({ notification: ['DELETE'] });
    expect((await remove(id, deleter.token)).statusCode).toBe(200);
  });
});
