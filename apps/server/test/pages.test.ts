import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, STANDARD_PAGES } from '@master-admin/contract';
import { startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

type PageRow = {
  id: number;
  version: number;
  title: string;
  desc: string;
  masterApp: { id: number; name: string };
  updatedAt: string;
};
const paths = (res: { json(): { details?: Array<{ path: string }> } }) =>
  (res.json().details ?? []).map((d) => d.path);

const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/pages/all${query}`, token });
const rows = async (query: string) => (await list(query)).json().result as PageRow[];
const detail = (id: number | string, token = s.adminToken) =>
  s.api({ method: 'GET', url: `/pages/${id}`, token });
const patch = (id: number | string, payload: unknown, token = s.adminToken) =>
  s.api({ method: 'PATCH', url: `/pages/${id}`, token, payload: payload as object });
const storedDesc = async (id: number) =>
  (await s.ctx.db.selectFrom('pages').select('desc').where('id', '=', id).executeTakeFirstOrThrow())
    .desc;

async function makeApp(name: string): Promise<number> {
  const res = await s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    payload: { name },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
}

let appId: number;
let otherAppId: number;
beforeAll(async () => {
  appId = await makeApp('Festival');
  otherAppId = await makeApp('Greetings');
});

const pageOf = async (app: number, title: string) =>
  (await rows(`?masterAppId=${app}&limit=100`)).find((p) => p.title === title)!;

describe('standard pages', () => {
  it('a new master app has its three standard pages, empty, joined to the app', async () => {
    const id = await makeApp('Brand new');
    const res = await list(`?masterAppId=${id}`);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.total).toBe(3);
    expect(body.result.map((p: PageRow) => p.title).sort()).toEqual([...STANDARD_PAGES].sort());
    for (const page of body.result as PageRow[]) {
      expect(page).toEqual({
        id: expect.any(Number),
        version: 1,
        title: page.title,
        desc: '',
        masterApp: { id, name: 'Brand new' },
        updatedAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      });
    }
  });

  it('pages come newest first, then by id descending', async () => {
    const ids = (await rows(`?masterAppId=${otherAppId}`)).map((p) => p.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));
    const all = (await rows('?limit=100')).map((p) => p.id);
    expect(all.slice(0, 3)).toEqual((await rows('?limit=3')).map((p) => p.id));
  });
});

describe('list', () => {
  it('filters by keyword (title, ignoring case) and master app, counting every match', async () => {
    const privacy = await rows('?keyword=PRIVACY&limit=100');
    expect(privacy.length).toBeGreaterThanOrEqual(2);
    for (const p of privacy) expect(p.title).toBe('Privacy Policy');

    const mine = await rows(`?keyword=privacy&masterAppId=${appId}`);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.masterApp).toEqual({ id: appId, name: 'Festival' });

    expect(await rows('?keyword=%25')).toEqual([]);
    expect(await rows(`?masterAppId=999999`)).toEqual([]);

    const page = (await list(`?masterAppId=${appId}&limit=2&offset=2`)).json();
    expect(page.result).toHaveLength(1);
    expect(page.total).toBe(3);
  });

  it('searches the title only, not the text', async () => {
    const about = await pageOf(appId, 'About Us');
    await patch(about.id, { desc: '<p>zebra crossing</p>' });
    expect(await rows('?keyword=zebra')).toEqual([]);
  });

  it.each([
    ['?limit=101', 'limit'],
    ['?offset=-1', 'offset'],
    ['?masterAppId=abc', 'masterAppId'],
    ['?masterAppId=0', 'masterAppId'],
    ['?status=ACTIVE', 'status'],
    ['?colour=red', 'colour'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });
});

describe('detail', () => {
  it('answers one page as the list shows it', async () => {
    const terms = await pageOf(appId, 'Terms and Conditions');
    const res = await detail(terms.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(terms);
  });

  it('answers 404 for a missing page and 400 for a malformed id', async () => {
    const res = await detail(999_999);
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.pageNotFound);
    expect((await detail('x1')).statusCode).toBe(400);
  });
});

describe('update', () => {
  it('changes the title, the text, or both', async () => {
    const page = await pageOf(otherAppId, 'About Us');
    const title = await patch(page.id, { title: 'About the app' });
    expect(title.statusCode, title.body).toBe(200);
    expect(title.json()).toEqual({
      message: MESSAGES.pageUpdated,
      result: {
        ...page,
        version: page.version + 1,
        title: 'About the app',
        updatedAt: expect.any(String),
      },
    });

    const desc = '<h1>About</h1><p>We make <strong>posters</strong>.</p>';
    const text = await patch(page.id, { desc });
    expect(text.json().result).toMatchObject({ title: 'About the app', desc });

    const both = await s.api({
      method: 'PATCH',
      url: `/pages/${page.id}`,
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ title: 'About', desc: '<p>Short</p>' }).toString(),
    });
    expect(both.statusCode, both.body).toBe(200);
    expect(both.json().result).toMatchObject({ title: 'About', desc: '<p>Short</p>' });
    expect((await detail(page.id)).json()).toEqual(both.json().result);
  });

  it('allows an empty text, and a text that is empty once sanitised', async () => {
    const page = await pageOf(otherAppId, 'Privacy Policy');
    await patch(page.id, { desc: '<p>Some text</p>' });
    const empty = await patch(page.id, { desc: '' });
    expect(empty.statusCode, empty.body).toBe(200);
    expect(empty.json().result.desc).toBe('');
    const script = await patch(page.id, { desc: '<script>alert(1)</script>' });
    expect(script.statusCode, script.body).toBe(200);
    expect(script.json().result.desc).toBe('');
    expect(await storedDesc(page.id)).toBe('');
  });

  it.each([
    ['no field (every field is named)', {}, 'title'],
    ['only an empty title (empty means absent)', { title: '' }, 'desc'],
    ['a title of 201 characters', { title: 'x'.repeat(201) }, 'title'],
    ['a desc over 100000 characters', { desc: 'x'.repeat(100_001) }, 'desc'],
    ['a desc that is not text', { desc: ['<p>x</p>'] }, 'desc'],
    ['a master app (pages stay with their app)', { masterAppId: 1 }, 'masterAppId'],
    ['an unknown field', { colour: 'red' }, 'colour'],
  ])('refuses %s (400 naming it), changing nothing', async (_name, payload, field) => {
    const page = await pageOf(appId, 'Privacy Policy');
    const res = await patch(page.id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res)).toContain(field);
    expect((await detail(page.id)).json()).toEqual(page);
  });

  it('reads an empty title as absent, keeping it', async () => {
    const page = await pageOf(appId, 'About Us');
    const res = await patch(page.id, { title: '', desc: '<p>Who we are</p>' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({ title: 'About Us', desc: '<p>Who we are</p>' });
  });

  it('answers 404 for a missing page', async () => {
    const res = await patch(999_999, { title: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.pageNotFound);
  });

  it('offers no call to create or delete a page', async () => {
    const page = await pageOf(appId, 'About Us');
    const create = await s.api({
      method: 'POST',
      url: '/pages',
      token: s.adminToken,
      payload: { title: 'x' },
    });
    expect(create.statusCode).toBe(404);
    // A page's path takes reading and editing only.
    const del = await s.api({ method: 'DELETE', url: `/pages/${page.id}`, token: s.adminToken });
    expect(del.statusCode).toBe(405);
    expect(del.headers.allow).toBe('GET, HEAD, PATCH');
    expect((await detail(page.id)).statusCode).toBe(200);
  });
});

describe('stored XSS', () => {
  const SAFE =
    '<h2>Privacy</h2><ol><li>We keep <em>nothing</em>.</li></ol>' +
    '<p style="text-align:center"><a target="_blank" rel="noopener noreferrer nofollow" href="mailto:privacy@example.com">Write to us</a></p>' +
    '<p><img src="/media/banners/ab/abcdef.webp" alt="logo" /></p>';
  const ATTACKS = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">js</a>',
    '<svg onload=alert(1)></svg>',
    '<iframe src="https://evil.example/frame"></iframe>',
    '<a href="JaVaScRiPt:alert(2)">mixed</a>',
    '<p style="background:url(javascript:alert(3))">bg</p>',
    '<img src="https://evil.example/x.png">',
  ];
  const FORBIDDEN = [
    /<script/i,
    /onerror/i,
    /onload/i,
    /javascript:/i,
    /<svg/i,
    /<iframe/i,
    /evil\.example/i,
    /alert\(/i,
    /background/i,
  ];

  it.each(ATTACKS)('%s never survives, while the formatting does exactly', async (attack) => {
    const page = await pageOf(appId, 'Terms and Conditions');
    const res = await patch(page.id, { desc: `${SAFE}${attack}` });
    expect(res.statusCode, res.body).toBe(200);
    for (const html of [
      res.json().result.desc,
      await storedDesc(page.id),
      (await detail(page.id)).json().desc,
      (await rows(`?masterAppId=${appId}&keyword=terms`))[0]!.desc,
    ]) {
      for (const bad of FORBIDDEN) expect(html).not.toMatch(bad);
      expect(html.startsWith(SAFE)).toBe(true);
    }
  });

  it('keeps the safe subset exactly', async () => {
    const page = await pageOf(appId, 'Terms and Conditions');
    const res = await patch(page.id, { desc: SAFE });
    expect(res.json().result.desc).toBe(SAFE);
    expect(await storedDesc(page.id)).toBe(SAFE);
  });
});

describe('permissions', () => {
  it('needs the pages menu: 403 without, success with', async () => {
    const page = await pageOf(appId, 'About Us');
    const none = await s.staff({ blogs: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    for (const res of [
      await list('', none.token),
      await detail(page.id, none.token),
      await patch(page.id, { title: 'x' }, none.token),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.accessDenied);
    }

    const viewer = await s.staff({ pages: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
    expect((await detail(page.id, viewer.token)).statusCode).toBe(200);
    expect((await patch(page.id, { title: 'x' }, viewer.token)).statusCode).toBe(403);

    const editor = await s.staff({ pages: ['UPDATE'] });
    const res = await patch(page.id, { title: 'About us (edited)' }, editor.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.title).toBe('About us (edited)');
    expect((await list('', editor.token)).statusCode).toBe(403);
  });
});
