import fs from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const s = await startServer();
afterAll(() => s.close());

const { storedFiles, mediaFile: fileOf } = s;
const blogCount = async () =>
  Number(
    (
      await s.ctx.db
        .selectFrom('blogs')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );
const storedDesc = async (id: number) =>
  (await s.ctx.db.selectFrom('blogs').select('desc').where('id', '=', id).executeTakeFirstOrThrow())
    .desc;
const paths = (res: { json(): { details?: Array<{ path: string }> } }) =>
  (res.json().details ?? []).map((d) => d.path);

const BASE = {
  title: 'Diwali greetings',
  author: 'Asha Rao',
  shortDesc: 'Ten ideas for festive posters',
  desc: '<p>Hello <strong>world</strong></p>',
};

type Fields = Record<string, string>;
type File = { name: string; data: Buffer; type?: string };

function createJson(payload: Record<string, unknown>, token = s.adminToken) {
  return s.api({ method: 'POST', url: '/blogs', token, payload });
}
async function createMultipart(fields: Fields, files: Record<string, File> = {}) {
  const body = await multipart(fields, files);
  return s.api({ method: 'POST', url: '/blogs', token: s.adminToken, ...body });
}
async function created(payload: Record<string, unknown> = {}) {
  const res = await createJson({ ...BASE, ...payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result;
}
async function createdWithImage(data: Buffer, fields: Fields = {}) {
  const res = await createMultipart(
    { ...BASE, ...fields },
    { image: { name: 'b.png', data, type: 'image/png' } },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result;
}
const detail = (id: number | string, token = s.adminToken) =>
  s.api({ method: 'GET', url: `/blogs/${id}`, token });
const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/blogs/all${query}`, token });
const patch = (id: number | string, payload: unknown, token = s.adminToken) =>
  s.api({ method: 'PATCH', url: `/blogs/${id}`, token, payload: payload as object });
async function putImage(id: number | string, files: Record<string, File>, token = s.adminToken) {
  const body = await multipart({}, files);
  return s.api({ method: 'PUT', url: `/blogs/image/${id}`, token, ...body });
}

describe('create', () => {
  it('creates from JSON with the defaults: ACTIVE, not popular, no date, no image', async () => {
    const res = await createJson(BASE);
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe(MESSAGES.blogCreated);
    expect(body.result).toEqual({
      id: expect.any(Number),
      version: 1,
      ...BASE,
      popular: false,
      image: null,
      date: null,
      status: 'ACTIVE',
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T.*Z$/),
      updatedAt: expect.any(String),
    });
  });

  it('creates from a form with every field, coercing popular and keeping the date', async () => {
    const res = await s.api({
      method: 'POST',
      url: '/blogs',
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        ...BASE,
        date: '2024-11-01',
        status: 'DEACTIVE',
        popular: 'true',
      }).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({
      date: '2024-11-01',
      status: 'DEACTIVE',
      popular: true,
    });
  });

  it('reads empty optional form values as absent', async () => {
    const res = await createMultipart({ ...BASE, date: '', status: '', popular: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({ date: null, status: 'ACTIVE', popular: false });
  });

  it('stores the optional multipart image as WebP under blogs/', async () => {
    const res = await createMultipart(
      { ...BASE, popular: '1' },
      { image: { name: 'cover.jpg', data: await images.jpeg(), type: 'image/jpeg' } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const blog = res.json().result;
    expect(blog.popular).toBe(true);
    expect(blog.image).toMatch(/^\/media\/blogs\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    expect(fs.existsSync(fileOf(blog.image))).toBe(true);
    const served = await s.app.inject({ method: 'GET', url: blog.image });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/webp');
  });

  const long = (n: number) => 'x'.repeat(n);
  it.each([
    ['no title', { title: undefined }, 'title'],
    ['an empty title', { title: '  ' }, 'title'],
    ['a title of 201 characters', { title: long(201) }, 'title'],
    ['no author', { author: undefined }, 'author'],
    ['an author of 101 characters', { author: long(101) }, 'author'],
    ['no shortDesc', { shortDesc: undefined }, 'shortDesc'],
    ['a shortDesc of 501 characters', { shortDesc: long(501) }, 'shortDesc'],
    ['no desc', { desc: undefined }, 'desc'],
    ['an empty desc', { desc: '' }, 'desc'],
    ['a desc over 100000 characters', { desc: `<p>${long(100_000)}</p>` }, 'desc'],
    ['a desc that is an empty paragraph', { desc: '<p></p>' }, 'desc'],
    ['a desc that is only white space', { desc: '<p>&nbsp; </p><p><br></p>' }, 'desc'],
    ['a desc that is only a script', { desc: '<script>alert(1)</script>' }, 'desc'],
    [
      'a desc that is only a foreign image',
      { desc: '<img src="https://evil.example/x.png">' },
      'desc',
    ],
    ['a date that does not exist', { date: '2024-02-30' }, 'date'],
    ['a date in another format', { date: '01/11/2024' }, 'date'],
    ['an unknown status', { status: 'GONE' }, 'status'],
    ['a popular that is not a boolean', { popular: 'maybe' }, 'popular'],
    ['a desc that is not text', { desc: 42 }, 'desc'],
    ['an unknown field', { colour: 'red' }, 'colour'],
    ['an id', { id: 5 }, 'id'],
  ])('refuses %s (400 naming it), storing nothing', async (_name, change, field) => {
    const rows = await blogCount();
    const res = await createJson({ ...BASE, ...change });
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res)).toContain(field);
    expect(await blogCount()).toBe(rows);
  });

  it('accepts a desc of exactly 100000 characters', async () => {
    const desc = `<p>${'y'.repeat(100_000 - 7)}</p>`;
    expect(desc).toHaveLength(100_000);
    const res = await createJson({ ...BASE, desc });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.desc).toBe(desc);
  });

  it('answers a desc that shows nothing with "Required"', async () => {
    const res = await createJson({ ...BASE, desc: '<p> </p>' });
    expect(res.json().details).toEqual([{ path: 'desc', message: 'Required' }]);
  });

  it.each([
    [
      'an SVG as the image',
      {
        image: {
          name: 'x.svg',
          data: Buffer.from(
            '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
          ),
          type: 'image/svg+xml',
        },
      },
      415,
      'image',
    ],
    [
      'a text file as the image',
      {
        image: {
          name: 'x.png',
          data: Buffer.from('hello, this is not an image'),
          type: 'image/png',
        },
      },
      415,
      'image',
    ],
    [
      'a file under another name',
      { cover: { name: 'x.png', data: Buffer.alloc(0), type: 'image/png' } },
      400,
      'cover',
    ],
  ])('refuses %s, storing nothing', async (_name, files, status, field) => {
    const before = storedFiles();
    const rows = await blogCount();
    const res = await createMultipart(BASE, files);
    expect(res.statusCode, res.body).toBe(status);
    expect(paths(res)).toContain(field);
    expect(await blogCount()).toBe(rows);
    expect(storedFiles()).toEqual(before);
  });

  it('stores no image when the fields are refused', async () => {
    const before = storedFiles();
    const res = await createMultipart(
      { ...BASE, desc: '<p></p>' },
      { image: { name: 'b.png', data: await images.png(61, 17), type: 'image/png' } },
    );
    expect(res.statusCode).toBe(400);
    expect(storedFiles()).toEqual(before);
  });
});

describe('detail', () => {
  it('answers the whole blog, as the list shows it', async () => {
    const blog = await createdWithImage(await images.png(12, 34), {
      date: '2025-01-15',
      popular: 'true',
      desc: '<h2>Heading</h2><ul><li>one</li></ul>',
    });
    const res = await detail(blog.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual(blog);
    expect(res.json()).toMatchObject({
      date: '2025-01-15',
      popular: true,
      desc: '<h2>Heading</h2><ul><li>one</li></ul>',
    });
    const row = (await list('?keyword=Diwali&limit=100'))
      .json()
      .result.find((r: { id: number }) => r.id === blog.id);
    expect(row).toEqual(blog);
  });

  it('answers 404 for a missing blog and 400 for a malformed id', async () => {
    const missing = await detail(999_999);
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(MESSAGES.blogNotFound);
    expect((await detail('abc')).statusCode).toBe(400);
    expect((await detail(0)).statusCode).toBe(400);
  });
});

describe('list', () => {
  it('searches title, author and shortDesc ignoring case, filters by status, newest first', async () => {
    const a = await created({ title: 'Holi colours', author: 'Meera', shortDesc: 'Spring' });
    const b = await created({ title: 'Spring', author: 'HOLIDAY desk', shortDesc: 'x' });
    const c = await created({ title: 'Other', author: 'Ravi', shortDesc: 'A holi special' });
    const d = await created({ title: 'Unrelated', author: 'Nobody', shortDesc: 'nothing' });
    await s.api({
      method: 'PUT',
      url: `/blogs/status/${b.id}`,
      token: s.adminToken,
      payload: { status: 'DEACTIVE' },
    });
    const ids = async (q: string) => (await list(q)).json().result.map((r: { id: number }) => r.id);
    expect(await ids('?keyword=hOLi')).toEqual([c.id, b.id, a.id]);
    expect(await ids('?keyword=holi&status=ACTIVE')).toEqual([c.id, a.id]);
    expect(await ids('?keyword=holi&status=DEACTIVE')).toEqual([b.id]);
    expect(await ids('?keyword=unrelated')).toEqual([d.id]);
    expect(await ids('?keyword=%25')).toEqual([]);
    expect(await ids('?keyword=_')).toEqual([]);

    const page = (await list('?keyword=holi&limit=1&offset=1')).json();
    expect(page.result.map((r: { id: number }) => r.id)).toEqual([b.id]);
    expect(page.total).toBe(3);

    const all = (await list('?limit=100')).json();
    expect(all.total).toBe(await blogCount());
    expect(all.result[0].id).toBe(d.id);
  });

  it('answers popular as a boolean on both databases', async () => {
    const p = await created({ title: 'Popular one', popular: true });
    const row = (await list('?keyword=Popular%20one')).json().result[0];
    expect(row.id).toBe(p.id);
    expect(row.popular).toBe(true);
  });

  it.each([
    ['?limit=101', 'limit'],
    ['?limit=0', 'limit'],
    ['?offset=-1', 'offset'],
    ['?status=GONE', 'status'],
    ['?masterAppId=1', 'masterAppId'],
    ['?colour=red', 'colour'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });
});

describe('update', () => {
  it('changes any of title, author, shortDesc, desc and date, keeping the rest', async () => {
    const blog = await created({ date: '2024-01-01' });
    const title = await patch(blog.id, { title: 'New title' });
    expect(title.statusCode, title.body).toBe(200);
    expect(title.json().message).toBe(MESSAGES.blogUpdated);
    expect(title.json().result).toMatchObject({ ...BASE, title: 'New title', date: '2024-01-01' });

    const many = await patch(blog.id, {
      author: 'B. Writer',
      shortDesc: 'Shorter',
      desc: '<h3>New</h3><p>text</p>',
      date: '2025-12-31',
    });
    expect(many.statusCode, many.body).toBe(200);
    expect(many.json().result).toMatchObject({
      title: 'New title',
      author: 'B. Writer',
      shortDesc: 'Shorter',
      desc: '<h3>New</h3><p>text</p>',
      date: '2025-12-31',
      status: 'ACTIVE',
      popular: false,
    });
    expect((await detail(blog.id)).json()).toEqual(many.json().result);
  });

  it('clears the date when it is sent empty (form) or null (JSON)', async () => {
    const one = await created({ date: '2024-05-05' });
    const form = await s.api({
      method: 'PATCH',
      url: `/blogs/${one.id}`,
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'date=',
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(form.json().result.date).toBeNull();
    const two = await created({ date: '2024-05-05' });
    const json = await patch(two.id, { date: null });
    expect(json.statusCode, json.body).toBe(200);
    expect(json.json().result.date).toBeNull();
  });

  it.each([
    ['no field (every field is named)', {}, 'title'],
    ['only empty fields (empty means absent)', { title: '', shortDesc: ' ' }, 'author'],
    ['an empty title', { title: '' }, 'title'],
    ['an empty author', { author: ' ' }, 'author'],
    ['an empty shortDesc', { shortDesc: '' }, 'shortDesc'],
    ['a title of 201 characters', { title: 'x'.repeat(201) }, 'title'],
    ['an empty desc', { desc: '' }, 'desc'],
    ['a desc that shows nothing', { desc: '<p><br></p>' }, 'desc'],
    ['a desc over 100000 characters', { desc: 'x'.repeat(100_001) }, 'desc'],
    ['a bad date', { date: '2024-13-01' }, 'date'],
    ['popular (its own call)', { popular: true }, 'popular'],
    ['status (its own call)', { status: 'ACTIVE' }, 'status'],
    ['image (its own call)', { image: '/media/blogs/aa/x.webp' }, 'image'],
    ['an unknown field', { colour: 'red' }, 'colour'],
  ])('refuses %s (400 naming it), changing nothing', async (_name, payload, field) => {
    const blog = await created();
    const res = await patch(blog.id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res)).toContain(field);
    expect((await detail(blog.id)).json()).toEqual(blog);
  });

  it('reads an empty text field as absent, changing only what is given', async () => {
    const blog = await created();
    const res = await patch(blog.id, { title: '', author: 'New Author', desc: '' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({
      title: blog.title,
      author: 'New Author',
      desc: blog.desc,
    });
  });

  it('answers 404 for a missing blog', async () => {
    const res = await patch(999_999, { title: 'x' });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.blogNotFound);
  });
});

describe('status and popular', () => {
  it('changes the status', async () => {
    const blog = await created();
    const res = await s.api({
      method: 'PUT',
      url: `/blogs/status/${blog.id}`,
      token: s.adminToken,
      payload: { status: 'PENDING' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.statusUpdated,
      result: { id: blog.id, status: 'PENDING' },
    });
    const bad = await s.api({
      method: 'PUT',
      url: `/blogs/status/${blog.id}`,
      token: s.adminToken,
      payload: { status: 'NOPE' },
    });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['status']);
  });

  it('marks popular and back, from JSON and from a form', async () => {
    const blog = await created();
    const on = await s.api({
      method: 'PUT',
      url: `/blogs/popular/${blog.id}`,
      token: s.adminToken,
      payload: { popular: true },
    });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({
      message: MESSAGES.successfullyUpdated,
      result: { id: blog.id, popular: true },
    });
    const off = await s.api({
      method: 'PUT',
      url: `/blogs/popular/${blog.id}`,
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'popular=false',
    });
    expect(off.json().result.popular).toBe(false);
    expect((await detail(blog.id)).json().popular).toBe(false);
  });

  it.each([
    [{}, 'popular'],
    [{ popular: 'often' }, 'popular'],
    [{ popular: true, title: 'x' }, 'title'],
  ])('refuses popular body %j naming %s', async (payload, field) => {
    const blog = await created();
    const res = await s.api({
      method: 'PUT',
      url: `/blogs/popular/${blog.id}`,
      token: s.adminToken,
      payload,
    });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });

  it.each([
    ['/blogs/status/999999', { status: 'ACTIVE' }],
    ['/blogs/popular/999999', { popular: true }],
  ])('PUT %s answers 404', async (url, payload) => {
    const res = await s.api({ method: 'PUT', url, token: s.adminToken, payload });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.blogNotFound);
  });
});

describe('image', () => {
  it('sets an image on a blog without one, replaces it removing the old file', async () => {
    const blog = await created();
    const first = await putImage(blog.id, {
      image: { name: 'a.png', data: await images.png(81, 19), type: 'image/png' },
    });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.json().message).toBe(MESSAGES.imageUpdated);
    const oldUrl: string = first.json().result.image;
    expect(oldUrl).toMatch(/^\/media\/blogs\//);
    expect(fs.existsSync(fileOf(oldUrl))).toBe(true);

    const second = await putImage(blog.id, {
      image: { name: 'b.png', data: await images.png(82, 19), type: 'image/png' },
    });
    expect(second.statusCode, second.body).toBe(200);
    const newUrl: string = second.json().result.image;
    expect(newUrl).not.toBe(oldUrl);
    expect(fs.existsSync(fileOf(newUrl))).toBe(true);
    expect(fs.existsSync(fileOf(oldUrl))).toBe(false);
    expect(fs.existsSync(fileOf(oldUrl).replace(/\.webp$/, '.thumb.webp'))).toBe(false);
    expect((await detail(blog.id)).json().image).toBe(newUrl);
  });

  it('keeps the old file when another blog still uses it', async () => {
    const data = await images.png(83, 19);
    const one = await createdWithImage(data);
    const two = await createdWithImage(data);
    expect(one.image).toBe(two.image);
    const res = await putImage(one.id, {
      image: { name: 'c.png', data: await images.png(84, 19), type: 'image/png' },
    });
    expect(res.statusCode).toBe(200);
    expect(fs.existsSync(fileOf(two.image))).toBe(true);
  });

  it('needs the file field `image`', async () => {
    const blog = await created();
    const none = await putImage(blog.id, {});
    expect(none.statusCode).toBe(400);
    expect(paths(none)).toEqual(['image']);
    const other = await putImage(blog.id, {
      file: { name: 'a.png', data: await images.png(), type: 'image/png' },
    });
    expect(other.statusCode).toBe(400);
    expect(paths(other)).toContain('file');
  });

  it('refuses a file that is not an image, keeping the current one', async () => {
    const blog = await createdWithImage(await images.png(85, 19));
    const before = storedFiles();
    const res = await putImage(blog.id, {
      image: {
        name: 'x.gif',
        data: Buffer.from('GIF89a but not really an image'),
        type: 'image/gif',
      },
    });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
    expect(paths(res)).toContain('image');
    expect(storedFiles()).toEqual(before);
    expect((await detail(blog.id)).json().image).toBe(blog.image);
  });

  it('answers 404 for a missing blog, storing nothing', async () => {
    const before = storedFiles();
    const res = await putImage(999_999, {
      image: { name: 'a.png', data: await images.png(86, 19), type: 'image/png' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.blogNotFound);
    expect(storedFiles()).toEqual(before);
  });
});

describe('delete', () => {
  it('deletes the blog and its image file; a second delete answers 404', async () => {
    const blog = await createdWithImage(await images.png(87, 19));
    const file = fileOf(blog.image);
    expect(fs.existsSync(file)).toBe(true);
    const res = await s.api({
      method: 'DELETE',
      url: `/blogs/remove/${blog.id}`,
      token: s.adminToken,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.blogDeleted, result: { id: blog.id } });
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    expect(fs.existsSync(file)).toBe(false);
    expect(fs.existsSync(file.replace(/\.webp$/, '.thumb.webp'))).toBe(false);
    expect((await detail(blog.id)).statusCode).toBe(404);
    const again = await s.api({
      method: 'DELETE',
      url: `/blogs/remove/${blog.id}`,
      token: s.adminToken,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(MESSAGES.blogNotFound);
  });

  it('keeps a file another blog still uses, and deletes a blog without an image', async () => {
    const data = await images.png(88, 19);
    const one = await createdWithImage(data);
    const two = await createdWithImage(data);
    const file = fileOf(one.image);
    await s.api({ method: 'DELETE', url: `/blogs/remove/${one.id}`, token: s.adminToken });
    expect(fs.existsSync(file)).toBe(true);
    await s.api({ method: 'DELETE', url: `/blogs/remove/${two.id}`, token: s.adminToken });
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    expect(fs.existsSync(file)).toBe(false);

    const plain = await created();
    const res = await s.api({
      method: 'DELETE',
      url: `/blogs/remove/${plain.id}`,
      token: s.adminToken,
    });
    expect(res.statusCode).toBe(200);
  });
});

describe('stored XSS', () => {
  const ATTACKS = [
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '<a href="javascript:alert(1)">js link</a>',
    '<svg onload=alert(1)></svg>',
    '<iframe src="https://evil.example/frame"></iframe>',
    '<a href="JaVaScRiPt:alert(2)">mixed case</a>',
    '<p style="background:url(javascript:alert(3))">styled</p>',
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
    /style=/i,
    /alert\(/i,
  ];
  const SAFE =
    '<h2>Heading</h2><ul><li>one</li><li>two</li></ul><ol><li>first</li></ol>' +
    '<p><strong>bold</strong> and <em>italic</em> and ' +
    '<a target="_blank" rel="noopener noreferrer nofollow" href="https://example.com/page">a link</a></p>' +
    '<p><img src="/media/blogs/ab/abcdef0123.webp" alt="ours" /></p>';

  const expectClean = (html: string) => {
    for (const bad of FORBIDDEN) expect(html).not.toMatch(bad);
  };

  it.each(ATTACKS)('%s never survives a create, in the row or any answer', async (attack) => {
    const res = await createJson({ ...BASE, desc: `${SAFE}${attack}<p>end</p>` });
    expect(res.statusCode, res.body).toBe(200);
    const blog = res.json().result;
    for (const html of [
      blog.desc,
      await storedDesc(blog.id),
      (await detail(blog.id)).json().desc,
      (await list('?limit=1')).json().result[0].desc,
    ]) {
      expectClean(html);
      expect(html.startsWith(SAFE)).toBe(true);
      expect(html.endsWith('<p>end</p>')).toBe(true);
    }
  });

  it('strips every attack at once on update, keeping the formatting exactly', async () => {
    const blog = await created();
    const res = await patch(blog.id, { desc: `${ATTACKS.join('')}${SAFE}` });
    expect(res.statusCode, res.body).toBe(200);
    expectClean(res.json().result.desc);
    expectClean(await storedDesc(blog.id));
    expect(res.json().result.desc.endsWith(SAFE)).toBe(true);
  });

  it('keeps normal formatting exactly', async () => {
    const blog = await created({ desc: SAFE });
    expect(blog.desc).toBe(SAFE);
    expect(await storedDesc(blog.id)).toBe(SAFE);
  });

  it('sanitises multipart and form-encoded bodies too', async () => {
    const res = await createMultipart({ ...BASE, desc: `<p>x</p>${ATTACKS.join('')}` });
    expect(res.statusCode, res.body).toBe(200);
    expectClean(await storedDesc(res.json().result.id));
  });

  it('keeps markup in the plain-text fields as text (escaped by whoever renders it)', async () => {
    const blog = await created({ title: '<b>bold</b> title' });
    expect(blog.title).toBe('<b>bold</b> title');
    // JSON answers carry it as a string, never as markup the API itself renders.
    const res = await detail(blog.id);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
  });
});

describe('permissions', () => {
  it('needs the blogs menu: 403 without, success with', async () => {
    const blog = await created();
    const none = await s.staff({ pages: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    for (const res of [
      await list('', none.token),
      await detail(blog.id, none.token),
      await createJson(BASE, none.token),
      await patch(blog.id, { title: 'x' }, none.token),
      await s.api({ method: 'DELETE', url: `/blogs/remove/${blog.id}`, token: none.token }),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.accessDenied);
    }

    const viewer = await s.staff({ blogs: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
    expect((await detail(blog.id, viewer.token)).statusCode).toBe(200);
    expect((await createJson(BASE, viewer.token)).statusCode).toBe(403);
    expect((await patch(blog.id, { title: 'x' }, viewer.token)).statusCode).toBe(403);
    const image = await putImage(
      blog.id,
      { image: { name: 'a.png', data: await images.png(), type: 'image/png' } },
      viewer.token,
    );
    expect(image.statusCode).toBe(403);

    const writer = await s.staff({ blogs: ['CREATE', 'UPDATE', 'DELETE'] });
    expect((await createJson(BASE, writer.token)).statusCode).toBe(200);
    expect((await patch(blog.id, { title: 'By staff' }, writer.token)).statusCode).toBe(200);
    const popular = await s.api({
      method: 'PUT',
      url: `/blogs/popular/${blog.id}`,
      token: writer.token,
      payload: { popular: true },
    });
    expect(popular.statusCode).toBe(200);
    const del = await s.api({
      method: 'DELETE',
      url: `/blogs/remove/${blog.id}`,
      token: writer.token,
    });
    expect(del.statusCode).toBe(200);
    expect((await list('', writer.token)).statusCode).toBe(403);
  });
});
