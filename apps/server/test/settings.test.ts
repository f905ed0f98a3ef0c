import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { thumbOf } from '../src/media/images.ts';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const s = await startServer();
afterAll(() => s.close());

const { storedFiles, mediaFile: fileOf } = s;
const settingsRows = async () =>
  s.ctx.db.selectFrom('settings').selectAll().orderBy('id').execute();

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

let appCount = 0;
/** A new master app, named uniquely. */
const newApp = () => makeApp(`Settings app ${++appCount}`);

type File = { name: string; data: Buffer; type?: string };
/** A PNG that no other test uses, so its stored file belongs to one row. */
let size = 20;
const uniquePng = async (): Promise<File> => {
  size += 1;
  return { name: 'logo.png', data: await images.png(size, 17), type: 'image/png' };
};

async function createSettings(
  app: number | string,
  fields: Record<string, string>,
  logo: File | undefined,
  token = s.adminToken,
) {
  const body = await multipart(fields, logo ? { logo } : {});
  return s.api({ method: 'POST', url: `/settings/${app}`, token, ...body });
}

async function created(app: number, fields: Record<string, string> = { title: 'Festival' }) {
  const res = await createSettings(app, fields, await uniquePng());
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result;
}

async function update(
  id: number | string,
  fields: Record<string, string>,
  logo?: File,
  token = s.adminToken,
) {
  const body = await multipart(fields, logo ? { logo } : {});
  return s.api({ method: 'PUT', url: `/settings/update/${id}`, token, ...body });
}

const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/settings/admin${query}`, token });

const paths = (res: { json(): { details?: Array<{ path: string }> } }) =>
  (res.json().details ?? []).map((d) => d.path);

let appId: number;
let appName: string;
beforeAll(async () => {
  appName = 'Festival Posters';
  appId = await makeApp(appName);
});

describe('create', () => {
  it('stores the logo as WebP with a thumbnail and answers the row', async () => {
    const before = storedFiles();
    const res = await createSettings(
      appId,
      {
        title: '  Festival Posters  ',
        user_domain: 'festival.example.com',
        admin_domain: 'https://admin.festival.example.com',
        mobile_domain: 'http://localhost:8080/app',
      },
      { name: 'logo.jpg', data: await images.jpeg(), type: 'image/jpeg' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe(MESSAGES.logoCreated);
    expect(Object.keys(body.result).sort()).toEqual(
      [
        'id',
        'version',
        'title',
        'user_domain',
        'admin_domain',
        'mobile_domain',
        'logo',
        'updatedAt',
        'masterApp',
      ].sort(),
    );
    expect(body.result).toMatchObject({
      title: 'Festival Posters',
      user_domain: 'festival.example.com',
      admin_domain: 'https://admin.festival.example.com',
      mobile_domain: 'http://localhost:8080/app',
      masterApp: { id: appId, name: appName },
    });
    expect(body.result.updatedAt).toMatch(/^\d{4}-\d{2}-\d{2}T.*Z$/);
    expect(body.result.logo).toMatch(/^\/media\/settings\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);

    const added = storedFiles().filter((f) => !before.includes(f));
    expect(added.sort()).toEqual(
      [
        body.result.logo.slice('/media/'.length),
        thumbOf(body.result.logo).slice('/media/'.length),
      ].sort(),
    );
    const file = await s.app.inject({ method: 'GET', url: body.result.logo });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');

    // The columns behind the snake_case fields.
    const row = await s.ctx.db
      .selectFrom('settings')
      .selectAll()
      .where('id', '=', body.result.id)
      .executeTakeFirstOrThrow();
    expect(row).toMatchObject({
      masterAppId: appId,
      userDomain: 'festival.example.com',
      adminDomain: 'https://admin.festival.example.com',
      mobileDomain: 'http://localhost:8080/app',
    });
    expect(row.logo).toBe(body.result.logo.slice('/media/'.length));
  });

  it('takes the domains as optional: absent or empty is null', async () => {
    const app = await newApp();
    const res = await createSettings(app, { title: 'T', admin_domain: '' }, await uniquePng());
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({
      title: 'T',
      user_domain: null,
      admin_domain: null,
      mobile_domain: null,
    });
  });

  it('refuses a second settings row for the same app with 409, storing nothing', async () => {
    const before = storedFiles();
    const rows = await settingsRows();
    const res = await createSettings(appId, { title: 'Again' }, await uniquePng());
    expect(res.statusCode, res.body).toBe(409);
    expect(res.json().message).toBe(MESSAGES.settingsExist);
    expect(await settingsRows()).toEqual(rows);
    expect(storedFiles()).toEqual(before);
  });

  it('keeps one row when two creates for the same app race, and the loser’s file goes', async () => {
    const app = await newApp();
    const before = storedFiles();
    const [a, b] = await Promise.all([
      createSettings(app, { title: 'A' }, await uniquePng()),
      createSettings(app, { title: 'B' }, await uniquePng()),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 409]);
    const winner = (a.statusCode === 200 ? a : b).json().result;
    const loser = a.statusCode === 200 ? b : a;
    expect(loser.json().message).toBe(MESSAGES.settingsExist);
    const rows = (await settingsRows()).filter((r) => r.masterAppId === app);
    expect(rows).toHaveLength(1);
    const added = storedFiles().filter((f) => !before.includes(f));
    expect(added.sort()).toEqual(
      [winner.logo.slice('/media/'.length), thumbOf(winner.logo).slice('/media/'.length)].sort(),
    );
  });

  const long = (n: number) => 'a'.repeat(n);
  it.each([
    ['no logo', { title: 'T' }, false, 400, 'logo'],
    ['no title', {}, true, 400, 'title'],
    ['a blank title', { title: '   ' }, true, 400, 'title'],
    ['a title over 200 characters', { title: long(201) }, true, 400, 'title'],
    ['a domain with a space', { title: 'T', user_domain: 'my site.com' }, true, 400, 'user_domain'],
    [
      'a javascript: URL',
      { title: 'T', admin_domain: 'javascript:alert(1)' },
      true,
      400,
      'admin_domain',
    ],
    [
      'an ftp URL',
      { title: 'T', mobile_domain: 'ftp://files.example.com' },
      true,
      400,
      'mobile_domain',
    ],
    [
      'a URL with credentials',
      { title: 'T', user_domain: 'https://user:pw@example.com' },
      true,
      400,
      'user_domain',
    ],
    [
      'a domain over 255 characters',
      {
        title: 'T',
        user_domain: `${long(60)}.${long(60)}.${long(60)}.${long(60)}.${long(20)}.com`,
      },
      true,
      400,
      'user_domain',
    ],
    ['a camelCase domain field', { title: 'T', userDomain: 'x.com' }, true, 400, 'userDomain'],
    ['an unknown field', { title: 'T', colour: 'red' }, true, 400, 'colour'],
    ['a logo sent as text', { title: 'T', logo: 'logo.png' }, false, 400, 'logo'],
  ] as const)(
    'refuses %s, naming the field and storing nothing',
    async (_n, fields, withLogo, status, field) => {
      const app = await newApp();
      const before = storedFiles();
      const rows = await settingsRows();
      const res = await createSettings(
        app,
        { ...fields },
        withLogo ? await uniquePng() : undefined,
      );
      expect(res.statusCode, res.body).toBe(status);
      expect(paths(res)).toContain(field);
      expect(await settingsRows()).toEqual(rows);
      expect(storedFiles()).toEqual(before);
    },
  );

  it('refuses a logo that is not an image (415), storing nothing', async () => {
    const app = await newApp();
    const before = storedFiles();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const res = await createSettings(
      app,
      { title: 'T' },
      { name: 'x.svg', data: Buffer.from(svg), type: 'image/svg+xml' },
    );
    expect(res.statusCode).toBe(415);
    expect(paths(res)).toEqual(['logo']);
    expect(storedFiles()).toEqual(before);
  });

  it('refuses a file under another field name (400)', async () => {
    const app = await newApp();
    const before = storedFiles();
    const body = await multipart({ title: 'T' }, { file: await uniquePng() });
    const res = await s.api({
      method: 'POST',
      url: `/settings/${app}`,
      token: s.adminToken,
      ...body,
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain('file');
    expect(storedFiles()).toEqual(before);
  });

  it.each([
    ['a missing master app', 999_999, 404, MESSAGES.appNotFound],
    ['a non-numeric master app id', 'abc', 400, undefined],
    ['a zero master app id', 0, 400, undefined],
  ] as const)('answers %s with %i, storing nothing', async (_n, app, status, message) => {
    const before = storedFiles();
    const res = await createSettings(app, { title: 'T' }, await uniquePng());
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json().message).toBe(message);
    else expect(paths(res)).toContain('masterAppId');
    expect(storedFiles()).toEqual(before);
  });
});

describe('list', () => {
  it('filters by keyword (title) and master app, newest first, and counts every match', async () => {
    const [appA, appB, appC] = [await newApp(), await newApp(), await newApp()];
    const a = await created(appA, { title: 'Diwali Wishes' });
    const b = await created(appB, { title: 'Holi DIWALI combo', user_domain: 'holi.example' });
    const c = await created(appC, { title: 'Christmas' });

    const ids = async (q: string) =>
      (await list(q)).json().result.map((r: { id: number }) => r.id) as number[];
    expect(await ids('?keyword=diwali')).toEqual([b.id, a.id]);
    expect(await ids(`?keyword=diwali&masterAppId=${appA}`)).toEqual([a.id]);
    expect(await ids(`?masterAppId=${appC}`)).toEqual([c.id]);
    expect(await ids('?keyword=%25')).toEqual([]);
    expect(await ids('?keyword=_')).toEqual([]);

    const page = (await list('?limit=1&offset=1&keyword=diwali')).json();
    expect(page.result.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect(page.total).toBe(2);

    const all = (await list('?limit=100')).json();
    expect(all.total).toBe((await settingsRows()).length);
    const row = all.result.find((r: { id: number }) => r.id === b.id);
    expect(row).toEqual({
      id: b.id,
      version: b.version,
      title: 'Holi DIWALI combo',
      user_domain: 'holi.example',
      admin_domain: null,
      mobile_domain: null,
      logo: b.logo,
      updatedAt: b.updatedAt,
      masterApp: { id: appB, name: b.masterApp.name },
    });
  });

  it.each([
    ['?limit=0', 'limit'],
    ['?limit=101', 'limit'],
    ['?offset=-1', 'offset'],
    ['?masterAppId=abc', 'masterAppId'],
    ['?status=ACTIVE', 'status'],
    ['?colour=red', 'colour'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });
});

describe('update', () => {
  it('changes text fields only, keeping the logo', async () => {
    const app = await newApp();
    const row = await created(app, { title: 'Old', user_domain: 'old.example.com' });
    const files = storedFiles();
    const res = await update(row.id, { title: 'New title', mobile_domain: 'm.example.com' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.logoUpdated,
      result: {
        ...row,
        version: row.version + 1,
        title: 'New title',
        mobile_domain: 'm.example.com',
        updatedAt: res.json().result.updatedAt,
      },
    });
    expect(storedFiles()).toEqual(files);
  });

  it('keeps a field sent empty, and clears a domain sent as JSON null', async () => {
    const app = await newApp();
    const row = await created(app, {
      title: 'Keep',
      user_domain: 'u.example.com',
      admin_domain: 'a.example.com',
    });
    const empty = await update(row.id, {
      title: '',
      user_domain: '',
      admin_domain: 'b.example.com',
    });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().result).toMatchObject({
      title: 'Keep',
      user_domain: 'u.example.com',
      admin_domain: 'b.example.com',
    });
    const cleared = await s.api({
      method: 'PUT',
      url: `/settings/update/${row.id}`,
      token: s.adminToken,
      payload: { user_domain: null },
    });
    expect(cleared.statusCode, cleared.body).toBe(200);
    expect(cleared.json().result).toMatchObject({
      title: 'Keep',
      user_domain: null,
      admin_domain: 'b.example.com',
    });
  });

  it('replaces the logo and removes the old file', async () => {
    const app = await newApp();
    const row = await created(app, { title: 'Logo', user_domain: 'l.example.com' });
    const oldFile = fileOf(row.logo);
    expect(fs.existsSync(oldFile)).toBe(true);
    expect(fs.existsSync(thumbOf(oldFile))).toBe(true);

    const res = await update(row.id, {}, await uniquePng());
    expect(res.statusCode, res.body).toBe(200);
    const result = res.json().result;
    expect(res.json().message).toBe(MESSAGES.logoUpdated);
    expect(result.logo).not.toBe(row.logo);
    expect(result).toMatchObject({ title: 'Logo', user_domain: 'l.example.com' });
    expect(fs.existsSync(fileOf(result.logo))).toBe(true);
    expect(fs.existsSync(thumbOf(fileOf(result.logo)))).toBe(true);
    expect(fs.existsSync(oldFile)).toBe(false);
    expect(fs.existsSync(thumbOf(oldFile))).toBe(false);

    // Logo and text together.
    const both = await update(row.id, { title: 'Both' }, await uniquePng());
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json().result.title).toBe('Both');
    expect(fs.existsSync(fileOf(result.logo))).toBe(false);
  });

  it('keeps the file when the same image is sent again, and while another row uses it', async () => {
    const logo = await uniquePng();
    const [appA, appB] = [await newApp(), await newApp()];
    const one = (await createSettings(appA, { title: 'One' }, logo)).json().result;
    const two = (await createSettings(appB, { title: 'Two' }, logo)).json().result;
    expect(one.logo).toBe(two.logo);
    const shared = fileOf(one.logo);

    const same = await update(one.id, {}, logo);
    expect(same.statusCode).toBe(200);
    expect(same.json().result.logo).toBe(one.logo);
    expect(fs.existsSync(shared)).toBe(true);

    expect((await update(one.id, {}, await uniquePng())).statusCode).toBe(200);
    expect(fs.existsSync(shared)).toBe(true);
    expect((await update(two.id, {}, await uniquePng())).statusCode).toBe(200);
    expect(fs.existsSync(shared)).toBe(false);
  });

  it('refuses a call with neither a logo nor a field (400)', async () => {
    const app = await newApp();
    const row = await created(app);
    const empty = await update(row.id, {});
    expect(empty.statusCode).toBe(400);
    expect(paths(empty)).toEqual(['body']);
    const blank = await update(row.id, { title: ' ', user_domain: '' });
    expect(blank.statusCode).toBe(400);
    const none = await s.api({
      method: 'PUT',
      url: `/settings/update/${row.id}`,
      token: s.adminToken,
    });
    expect(none.statusCode).toBe(400);
  });

  it.each([
    ['a bad domain', { user_domain: 'not a domain' }, 'user_domain'],
    ['a title over 200 characters', { title: 'x'.repeat(201) }, 'title'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['a masterAppId', { masterAppId: '1' }, 'masterAppId'],
  ] as const)('refuses %s with a logo, changing and storing nothing', async (_n, fields, field) => {
    const app = await newApp();
    const row = await created(app);
    const before = storedFiles();
    const rows = await settingsRows();
    const res = await update(row.id, { ...fields }, await uniquePng());
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res)).toContain(field);
    expect(await settingsRows()).toEqual(rows);
    expect(storedFiles()).toEqual(before);
  });

  it('answers 404 for missing settings, storing nothing, and 400 for a bad id', async () => {
    const before = storedFiles();
    const res = await update(999_999, { title: 'X' }, await uniquePng());
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.settingsNotFound);
    expect(storedFiles()).toEqual(before);
    const bad = await update('abc', { title: 'X' });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toContain('id');
  });
});

describe('permissions', () => {
  it('needs the settings menu: 403 Access Denied! without, success with', async () => {
    const app = await newApp();
    const none = await s.staff({ banner: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    const denied = await list('', none.token);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual({
      statusCode: 403,
      error: 'Forbidden',
      message: MESSAGES.accessDenied,
    });
    const before = storedFiles();
    const create = await createSettings(app, { title: 'T' }, await uniquePng(), none.token);
    expect(create.statusCode).toBe(403);
    expect(create.json().message).toBe(MESSAGES.accessDenied);
    expect(storedFiles()).toEqual(before);

    const viewer = await s.staff({ settings: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
    expect(
      (await createSettings(app, { title: 'T' }, await uniquePng(), viewer.token)).statusCode,
    ).toBe(403);

    const creator = await s.staff({ settings: ['CREATE'] });
    const made = await createSettings(app, { title: 'By staff' }, await uniquePng(), creator.token);
    expect(made.statusCode, made.body).toBe(200);
    const id = made.json().result.id as number;
    expect((await update(id, { title: 'No' }, undefined, creator.token)).statusCode).toBe(403);
    expect((await list('', creator.token)).statusCode).toBe(403);

    const editor = await s.staff({ settings: ['UPDATE'] });
    const changed = await update(id, { title: 'Yes' }, undefined, editor.token);
    expect(changed.statusCode, changed.body).toBe(200);
    expect(changed.json().result.title).toBe('Yes');
  });
});
