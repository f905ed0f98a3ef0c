import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const MAX_IMAGE_BYTES = 300_000;
const s = await startServer({ MAX_IMAGE_BYTES: String(MAX_IMAGE_BYTES) });
afterAll(() => s.close());

const { storedFiles, mediaFile: fileOf } = s;
const bannerCount = () => s.rowCount('banners');

let appId: number;
let otherAppId: number;
beforeAll(async () => {
  const make = async (name: string) =>
    (
      await s.api({ method: 'POST', url: '/master-app', token: s.adminToken, payload: { name } })
    ).json().result.id as number;
  appId = await make('Festival');
  otherAppId = await make('Greetings');
});

async function createBanner(
  fields: Record<string, string>,
  file: { name: string; data: Buffer; type?: string } | undefined,
  options: { app?: number | string; token?: string } = {},
) {
  const body = await multipart(fields, file ? { file } : {});
  return s.api({
    method: 'POST',
    url: `/banner/${options.app ?? appId}`,
    token: options.token ?? s.adminToken,
    ...body,
  });
}

async function created(fields: Record<string, string> = {}, data?: Buffer) {
  const res = await createBanner(fields, {
    name: 'banner.jpg',
    data: data ?? (await images.jpeg()),
    type: 'image/jpeg',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result;
}

const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/banner/list${query}`, token });

describe('create', () => {
  it('stores the image re-encoded as WebP without metadata, with a thumbnail', async () => {
    const res = await createBanner(
      { link: 'https://example.com/sale', linkType: 'EXTERNAL' },
      { name: 'sale.jpg', data: await images.jpeg(), type: 'image/jpeg' },
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe(MESSAGES.bannerCreated);
    expect(body.result).toMatchObject({
      status: 'ACTIVE',
      link: 'https://example.com/sale',
      linkType: 'EXTERNAL',
      masterApp: { id: appId, name: 'Festival' },
    });
    expect(body.result.image).toMatch(/^\/media\/banners\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);

    const file = await s.app.inject({ method: 'GET', url: body.result.image });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers.etag).toBeTruthy();
    expect(file.rawPayload.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(file.rawPayload.includes(Buffer.from('secret-exif'))).toBe(false);

    const thumb = await s.app.inject({
      method: 'GET',
      url: body.result.image.replace(/\.webp$/, '.thumb.webp'),
    });
    expect(thumb.statusCode).toBe(200);

    const range = await s.app.inject({
      method: 'GET',
      url: body.result.image,
      headers: { range: 'bytes=0-9' },
    });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload).toHaveLength(10);
  });

  it.each([
    ['png', 'image/png'],
    ['webp', 'image/webp'],
    ['gif', 'image/gif'],
  ] as const)('accepts a %s image', async (kind, type) => {
    const res = await createBanner({}, { name: `x.${kind}`, data: await images[kind](), type });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.linkType).toBe('DEFAULT');
  });

  it('appends the new banner at the top of the list', async () => {
    const banner = await created({ link: 'https://example.com/top', linkType: 'EXTERNAL' });
    const res = await list();
    expect(res.json().result[0].id).toBe(banner.id);
  });

  const png = async () => ({ name: 'a.png', data: await images.png(), type: 'image/png' });
  it.each([
    ['no file', {}, undefined, 400, 'file'],
    ['an unknown link type', { linkType: 'SIDEWAYS' }, png, 400, 'linkType'],
    [
      'an EXTERNAL link that is not a URL',
      { linkType: 'EXTERNAL', link: 'javascript:alert(1)' },
      png,
      400,
      'link',
    ],
    ['an EXTERNAL link without a link', { linkType: 'EXTERNAL' }, png, 400, 'link'],
    ['an unknown field', { colour: 'red' }, png, 400, 'colour'],
  ] as const)('refuses %s, storing nothing', async (_name, fields, file, status, field) => {
    const before = storedFiles();
    const rows = await bannerCount();
    const res = await createBanner({ ...fields }, file ? await file() : undefined);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
    expect(await bannerCount()).toBe(rows);
    expect(storedFiles()).toEqual(before);
  });

  it.each([
    ['a missing master app', 999_999, 404, MESSAGES.appNotFound],
    ['a non-numeric master app id', 'abc', 400, undefined],
    ['a negative master app id', -1, 400, undefined],
  ] as const)('answers %s with %i', async (_name, app, status, message) => {
    const before = storedFiles();
    const res = await createBanner({}, await png(), { app });
    expect(res.statusCode, res.body).toBe(status);
    if (message) expect(res.json().message).toBe(message);
    expect(storedFiles()).toEqual(before);
  });
});

describe('uploads that are refused with nothing stored', () => {
  async function refused(
    file: { name: string; data: Buffer; type?: string },
    status: number,
    message: RegExp,
  ) {
    const before = storedFiles();
    const rows = await bannerCount();
    const res = await createBanner({}, file);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().message).toMatch(message);
    expect(await bannerCount()).toBe(rows);
    expect(storedFiles()).toEqual(before);
  }

  it('an SVG carrying a script (415)', async () => {
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    await refused(
      { name: 'x.svg', data: Buffer.from(svg), type: 'image/svg+xml' },
      415,
      /^file: Only JPEG, PNG, WebP or GIF/,
    );
  });

  it('an HTML file named .png and declared image/png (415)', async () => {
    const html = '<!doctype html><html><body><script>alert(1)</script></body></html>';
    await refused(
      { name: 'x.png', data: Buffer.from(html), type: 'image/png' },
      415,
      /^file: Only JPEG/,
    );
  });

  it('a truncated JPEG (415)', async () => {
    const jpeg = await images.jpeg();
    await refused(
      { name: 'x.jpg', data: jpeg.subarray(0, Math.floor(jpeg.length / 2)), type: 'image/jpeg' },
      415,
      /^file: The image could not be read/,
    );
  });

  it('a file one byte over the limit (413)', async () => {
    const jpeg = await images.jpeg();
    const data = Buffer.concat([jpeg, Buffer.alloc(MAX_IMAGE_BYTES + 1 - jpeg.length)]);
    await refused(
      { name: 'big.jpg', data, type: 'image/jpeg' },
      413,
      /^file: The file is too large/,
    );
  });

  it('a 20000×20000 PNG, a decompression bomb (413)', async () => {
    // A valid PNG header announcing 20000×20000 pixels over a tiny compressed body.
    const chunk = (type: string, data: Buffer) => {
      const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
      const len = Buffer.alloc(4);
      len.writeUInt32BE(data.length);
      const crc = Buffer.alloc(4);
      crc.writeUInt32BE(zlib.crc32(body));
      return Buffer.concat([len, body, crc]);
    };
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(20_000, 0);
    ihdr.writeUInt32BE(20_000, 4);
    ihdr.writeUInt8(8, 8); // bit depth
    ihdr.writeUInt8(0, 9); // greyscale
    const row = Buffer.alloc(20_001);
    const idat = zlib.deflateSync(Buffer.concat(Array.from({ length: 50 }, () => row)));
    const data = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', idat),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    expect(data.length).toBeLessThan(MAX_IMAGE_BYTES);
    await refused(
      { name: 'bomb.png', data, type: 'image/png' },
      413,
      /^file: The image is too large: 20000×20000/,
    );
  });

  it('a file name with ../ is ignored: the key is the server’s', async () => {
    const before = storedFiles();
    const res = await createBanner(
      {},
      { name: '../../../etc/evil.png', data: await images.png(33, 33), type: 'image/png' },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result.image).toMatch(/^\/media\/banners\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    const added = storedFiles().filter((f) => !before.includes(f));
    expect(added).toHaveLength(2);
    for (const f of added)
      expect(f).toMatch(/^banners\/[0-9a-f]{2}\/[0-9a-f]{64}(\.thumb)?\.webp$/);
    expect(fs.existsSync(path.join(s.config.dataDir, '..', 'etc', 'evil.png'))).toBe(false);
  });

  it('a file in a route that takes none (400)', async () => {
    const body = await multipart({ linkType: 'DEFAULT' }, { file: await png() });
    const banner = await created();
    const res = await s.api({
      method: 'PUT',
      url: `/banner/linktype/${banner.id}`,
      token: s.adminToken,
      ...body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('file: Files are not accepted here');
  });

  async function png() {
    return { name: 'a.png', data: await images.png(), type: 'image/png' };
  }
});

describe('media serving', () => {
  it('answers 404 for a missing file and for a path escaping the media root', async () => {
    for (const url of [
      '/media/banners/00/nothing.webp',
      '/media/../master-admin.sqlite',
      '/media/%2e%2e/master-admin.sqlite',
      '/media/..%2fjwt-secret',
    ]) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(404);
      expect(res.body).not.toContain('SQLite');
    }
  });
});

describe('list', () => {
  it('filters by keyword (link), status, link type and master app, and counts every match', async () => {
    const a = await created({ link: 'https://shop.example/Diwali-offer', linkType: 'EXTERNAL' });
    const b = await created({ link: '/in-app/diwali', linkType: 'INTERNAL' });
    const c = await createBanner(
      {},
      { name: 'x.png', data: await images.png(40, 40), type: 'image/png' },
      { app: otherAppId },
    );
    expect(c.statusCode).toBe(200);
    await s.api({
      method: 'PUT',
      url: `/banner/status/${b.id}`,
      token: s.adminToken,
      payload: { status: 'DEACTIVE' },
    });

    const ids = async (q: string) => (await list(q)).json().result.map((r: { id: number }) => r.id);
    expect(await ids('?keyword=DIWALI')).toEqual([b.id, a.id]);
    expect(await ids('?keyword=diwali&status=DEACTIVE')).toEqual([b.id]);
    expect(await ids('?keyword=diwali&linkType=EXTERNAL')).toEqual([a.id]);
    expect(await ids(`?masterAppId=${otherAppId}`)).toEqual([c.json().result.id]);
    expect(await ids('?keyword=%25')).toEqual([]);

    const page = (await list('?limit=1&offset=1&keyword=diwali')).json();
    expect(page.result.map((r: { id: number }) => r.id)).toEqual([a.id]);
    expect(page.total).toBe(2);
  });

  it.each([
    ['?limit=1000', 'limit'],
    ['?offset=-1', 'offset'],
    ['?status=GONE', 'status'],
    ['?linkType=x', 'linkType'],
    ['?masterAppId=abc', 'masterAppId'],
    ['?colour=red', 'colour'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
  });
});

describe('changes', () => {
  it('changes link and link type, status and image, and deletes', async () => {
    const banner = await created();
    const link = await s.api({
      method: 'PUT',
      url: `/banner/linktype/${banner.id}`,
      token: s.adminToken,
      payload: 'link=https%3A%2F%2Fexample.org&linkType=EXTERNAL',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(link.statusCode, link.body).toBe(200);
    expect(link.json()).toMatchObject({
      message: MESSAGES.bannerUpdated,
      result: { id: banner.id, link: 'https://example.org', linkType: 'EXTERNAL' },
    });

    const bad = await s.api({
      method: 'PUT',
      url: `/banner/linktype/${banner.id}`,
      token: s.adminToken,
      payload: { link: 'ftp://x', linkType: 'EXTERNAL' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('link');

    const status = await s.api({
      method: 'PUT',
      url: `/banner/status/${banner.id}`,
      token: s.adminToken,
      payload: { status: 'DEACTIVE' },
    });
    expect(status.json()).toMatchObject({
      message: MESSAGES.statusUpdated,
      result: { status: 'DEACTIVE' },
    });

    const oldFile = fileOf(banner.image);
    expect(fs.existsSync(oldFile)).toBe(true);
    const body = await multipart(
      {},
      { file: { name: 'n.png', data: await images.png(70, 20), type: 'image/png' } },
    );
    const image = await s.api({
      method: 'PUT',
      url: `/banner/update/${banner.id}`,
      token: s.adminToken,
      ...body,
    });
    expect(image.statusCode, image.body).toBe(200);
    expect(image.json().message).toBe(MESSAGES.bannerUpdated);
    expect(image.json().result.image).not.toBe(banner.image);
    // The old file is gone once no row uses it (the JPEG fixture is used by other banners here,
    // so check with one only this banner used).
    const newFile = fileOf(image.json().result.image);
    expect(fs.existsSync(newFile)).toBe(true);

    const removed = await s.api({
      method: 'DELETE',
      url: `/banner/remove/${banner.id}`,
      token: s.adminToken,
    });
    expect(removed.json()).toEqual({ message: MESSAGES.bannerDeleted, result: { id: banner.id } });
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    expect(fs.existsSync(newFile)).toBe(false);
    expect(fs.existsSync(newFile.replace(/\.webp$/, '.thumb.webp'))).toBe(false);
    const again = await s.api({
      method: 'DELETE',
      url: `/banner/remove/${banner.id}`,
      token: s.adminToken,
    });
    expect(again.statusCode).toBe(404);
  });

  it('keeps a file another banner still uses', async () => {
    const data = await images.png(51, 51);
    const one = await created({}, data);
    const two = await created({}, data);
    expect(one.image).toBe(two.image);
    const file = fileOf(one.image);
    await s.api({ method: 'DELETE', url: `/banner/remove/${one.id}`, token: s.adminToken });
    expect(fs.existsSync(file)).toBe(true);
    await s.api({ method: 'DELETE', url: `/banner/remove/${two.id}`, token: s.adminToken });
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    expect(fs.existsSync(file)).toBe(false);
  });

  it('keeps a file a blog body shows, until the blog no longer shows it', async () => {
    const banner = await created({}, await images.png(52, 52));
    const blog = await s.api({
      method: 'POST',
      url: '/blogs',
      token: s.adminToken,
      payload: {
        title: 'With a picture',
        author: 'Staff',
        shortDesc: 'Shows a banner image',
        desc: `<p>Look:</p><img src="${banner.image}" alt="banner">`,
      },
    });
    expect(blog.statusCode, blog.body).toBe(200);
    expect(blog.json().result.desc).toContain(banner.image);
    const file = fileOf(banner.image);
    await s.api({ method: 'DELETE', url: `/banner/remove/${banner.id}`, token: s.adminToken });
    expect(fs.existsSync(file)).toBe(true);
  });

  it.each([
    ['PUT', '/banner/linktype/999999', { linkType: 'DEFAULT' }],
    ['PUT', '/banner/status/999999', { status: 'ACTIVE' }],
    ['DELETE', '/banner/remove/999999', undefined],
  ] as const)('%s %s answers 404 for a missing banner', async (method, url, payload) => {
    const res = await s.api({ method, url, token: s.adminToken, payload });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.bannerNotFound);
  });

  it('answers 404 when replacing the image of a missing banner, storing nothing', async () => {
    const before = storedFiles();
    const body = await multipart(
      {},
      { file: { name: 'n.png', data: await images.png(71, 21), type: 'image/png' } },
    );
    const res = await s.api({
      method: 'PUT',
      url: '/banner/update/999999',
      token: s.adminToken,
      ...body,
    });
    expect(res.statusCode).toBe(404);
    expect(storedFiles()).toEqual(before);
  });
});

describe('permissions', () => {
  it('needs the banner menu: 403 without, success with', async () => {
    const none = await s.staff({ dashboard: ['VIEW'] });
    expect((await list('', none.token)).statusCode).toBe(403);
    const res = await createBanner(
      {},
      { name: 'a.png', data: await images.png(), type: 'image/png' },
      { token: none.token },
    );
    expect(res.statusCode).toBe(403);
    expect(res.json().message).toBe(MESSAGES.accessDenied);

    const viewer = await s.staff({ banner: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
    const banner = await created();
    const del = await s.api({
      method: 'DELETE',
      url: `/banner/remove/${banner.id}`,
      token: viewer.token,
    });
    expect(del.statusCode).toBe(403);

    const editor = await s.staff({ banner: ['CREATE', 'DELETE'] });
    const made = await createBanner(
      {},
      { name: 'a.png', data: await images.png(), type: 'image/png' },
      { token: editor.token },
    );
    expect(made.statusCode).toBe(200);
    expect(
      (await s.api({ method: 'DELETE', url: `/banner/remove/${banner.id}`, token: editor.token }))
        .statusCode,
    ).toBe(200);
  });
});
