/**
 * MEDIA_STORE=s3 against a real (local) S3 server: s3rver (startS3) keeps the bucket in a
 * temporary folder and answers the S3 API the AWS SDK speaks, so stored objects, their public
 * URLs and their removal are checked end to end.
 */
import { createHash } from 'node:crypto';
import {
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
} from '@aws-sdk/client-s3';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { multipart, startS3, startServer } from './harness.ts';
import { sweepMedia } from '../src/media/housekeeping.ts';
import { images } from './images.ts';
import { videos } from '../src/seed/video-files.ts';
import { PART_BYTES } from '../src/media/s3-store.ts';

const BUCKET = 'media-test';
const s3 = await startS3(BUCKET);
const { endpoint, env: s3Env } = s3;
const s = await startServer(s3Env);

/** The test's own view of the bucket. */
const client = new S3Client({
  region: 'us-east-1',
  endpoint,
  forcePathStyle: true,
  credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' },
});

afterAll(async () => {
  try {
    await s.close();
  } finally {
    client.destroy();
    await s3.close();
  }
});

/** Every object key in the bucket, sorted. */
async function objects(): Promise<string[]> {
  const keys: string[] = [];
  let token: string | undefined;
  do {
    const page = await client.send(
      new ListObjectsV2Command({ Bucket: BUCKET, ContinuationToken: token }),
    );
    for (const o of page.Contents ?? []) if (o.Key) keys.push(o.Key);
    token = page.IsTruncated ? page.NextContinuationToken : undefined;
  } while (token);
  return keys.sort();
}

const head = async (url: string) => (await fetch(url, { method: 'HEAD' })).status;
const thumbOf = (url: string) => url.replace(/\.webp$/, '.thumb.webp');
const keyOf = (url: string) => url.slice(`${endpoint}/${BUCKET}/`.length);
const escaped = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

type File = { name: string; data: Buffer; type?: string };
let appId: number;
beforeAll(async () => {
  const res = await s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    payload: { name: 'Festival' },
  });
  appId = res.json().result.id as number;
});

async function createBanner(file: File, app: number = appId) {
  const body = await multipart({}, { file });
  return s.api({ method: 'POST', url: `/banner/${app}`, token: s.adminToken, ...body });
}
const png = async (w: number, h: number): Promise<File> => ({
  name: 'b.png',
  data: await images.png(w, h),
  type: 'image/png',
});

describe('banners with MEDIA_STORE=s3', () => {
  it('stores the WebP image and its thumbnail in the bucket and answers their public URL', async () => {
    const before = await objects();
    const res = await createBanner({
      name: 'b.jpg',
      data: await images.jpeg(),
      type: 'image/jpeg',
    });
    expect(res.statusCode, res.body).toBe(200);
    const url = res.json().result.image as string;
    expect(url).toMatch(
      new RegExp(`^${escaped(endpoint)}/${BUCKET}/banners/[0-9a-f]{2}/[0-9a-f]{64}\\.webp$`),
    );

    const file = await fetch(url);
    expect(file.status).toBe(200);
    expect(file.headers.get('content-type')).toBe('image/webp');
    expect(file.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const bytes = Buffer.from(await file.arrayBuffer());
    expect(bytes.subarray(0, 4).toString('latin1')).toBe('RIFF');
    expect(bytes.subarray(8, 12).toString('latin1')).toBe('WEBP');
    expect(bytes.includes(Buffer.from('secret-exif'))).toBe(false);

    const thumb = await fetch(thumbOf(url));
    expect(thumb.status).toBe(200);
    expect(thumb.headers.get('content-type')).toBe('image/webp');

    expect((await objects()).filter((k) => !before.includes(k))).toEqual(
      [keyOf(url), keyOf(thumbOf(url))].sort(),
    );

    // The list answers the same URL.
    const list = await s.api({ method: 'GET', url: '/banner/list', token: s.adminToken });
    expect(list.json().result[0].image).toBe(url);
  });

  it('removes the old objects when the image is replaced, and the rest on delete', async () => {
    const made = await createBanner(await png(41, 23));
    expect(made.statusCode, made.body).toBe(200);
    const banner = made.json().result as { id: number; image: string };
    expect(await head(banner.image)).toBe(200);
    expect(await head(thumbOf(banner.image))).toBe(200);

    const body = await multipart({}, { file: await png(42, 23) });
    const replaced = await s.api({
      method: 'PUT',
      url: `/banner/update/${banner.id}`,
      token: s.adminToken,
      ...body,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    const image = replaced.json().result.image as string;
    expect(image).not.toBe(banner.image);
    expect(await head(image)).toBe(200);
    expect(await head(thumbOf(image))).toBe(200);
    expect(await head(banner.image)).toBe(404);
    expect(await head(thumbOf(banner.image))).toBe(404);

    const removed = await s.api({
      method: 'DELETE',
      url: `/banner/remove/${banner.id}`,
      token: s.adminToken,
    });
    expect(removed.json().message).toBe(MESSAGES.bannerDeleted);
    // In the trash the objects stay; emptied, they go.
    expect(await head(image)).toBe(200);
    await s.emptyTrash();
    expect(await head(image)).toBe(404);
    expect(await head(thumbOf(image))).toBe(404);
    expect(await objects()).not.toContain(keyOf(image));
  });

  it('stores no object for a refused upload', async () => {
    const before = await objects();
    const svg = '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>';
    const bad = await createBanner({
      name: 'x.svg',
      data: Buffer.from(svg),
      type: 'image/svg+xml',
    });
    expect(bad.statusCode).toBe(415);
    const jpeg = await images.jpeg();
    const truncated = await createBanner({
      name: 'x.jpg',
      data: jpeg.subarray(0, Math.floor(jpeg.length / 2)),
      type: 'image/jpeg',
    });
    expect(truncated.statusCode).toBe(415);
    const noApp = await createBanner(await png(43, 23), 999_999);
    expect(noApp.statusCode).toBe(404);
    expect(await objects()).toEqual(before);
  });
});

describe('settings and notifications with MEDIA_STORE=s3', () => {
  it('stores logos in the bucket and removes them when replaced or deleted', async () => {
    const body = await multipart({ title: 'Festival' }, { logo: await png(44, 23) });
    const made = await s.api({
      method: 'POST',
      url: `/settings/${appId}`,
      token: s.adminToken,
      ...body,
    });
    expect(made.statusCode, made.body).toBe(200);
    const logo = made.json().result.logo as string;
    expect(logo.startsWith(`${endpoint}/${BUCKET}/settings/`)).toBe(true);
    expect(await head(logo)).toBe(200);

    const again = await multipart({}, { logo: await png(45, 23) });
    const replaced = await s.api({
      method: 'PUT',
      url: `/settings/update/${made.json().result.id}`,
      token: s.adminToken,
      ...again,
    });
    expect(replaced.statusCode, replaced.body).toBe(200);
    expect(await head(replaced.json().result.logo)).toBe(200);
    expect(await head(logo)).toBe(404);
    expect(await head(thumbOf(logo))).toBe(404);

    const note = await multipart(
      { title: 'T', desc: 'D', type: 'info', masterAppId: String(appId) },
      { logo: await png(46, 23) },
    );
    const created = await s.api({
      method: 'POST',
      url: '/notifications/single',
      token: s.adminToken,
      ...note,
    });
    expect(created.statusCode, created.body).toBe(200);
    const noteLogo = created.json().result.logo as string;
    expect(await head(noteLogo)).toBe(200);
    await s.api({
      method: 'DELETE',
      url: `/notifications/remove/${created.json().result.id}`,
      token: s.adminToken,
    });
    await s.emptyTrash();
    expect(await head(noteLogo)).toBe(404);
  });
});

describe('videos with MEDIA_STORE=s3', () => {
  const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');
  async function createVideo(data: Buffer) {
    const body = await multipart(
      {
        position: 'LEFT',
        topDefNum: '1',
        selfDefNum: '1',
        bottomDefNum: '1',
        masterAppId: `${appId}`,
      },
      { file: { name: 'clip.mp4', data, type: 'video/mp4' } },
    );
    const res = await s.api({ method: 'POST', url: '/video', token: s.adminToken, ...body });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result as {
      id: number;
      videoUrl: string;
      iframeLink: string;
      library_id: string;
    };
  }

  it('streams the file to the bucket in parts, plays it from there, and removes it with its last row', async () => {
    // Larger than one part, so the multipart upload has two.
    const data = videos.mp4(PART_BYTES + 150_000);
    const hash = sha256(data);
    const send = vi.spyOn(S3Client.prototype, 'send');
    let first;
    let sent: string[];
    try {
      first = await createVideo(data);
      sent = send.mock.calls.map(([command]) => command.constructor.name);
    } finally {
      send.mockRestore();
    }
    // A multipart upload of two parts, never the whole file in one request.
    expect(sent).toEqual([
      'CreateMultipartUploadCommand',
      'UploadPartCommand',
      'UploadPartCommand',
      'CompleteMultipartUploadCommand',
    ]);
    const second = await createVideo(data);
    expect(first.library_id).toBe('s3');
    expect(first.videoUrl).toBe(`${endpoint}/${BUCKET}/videos/${hash.slice(0, 2)}/${hash}.mp4`);
    expect(second.videoUrl).toBe(first.videoUrl);
    const key = keyOf(first.videoUrl);
    expect(await objects()).toContain(key);
    const head = await client.send(new HeadObjectCommand({ Bucket: BUCKET, Key: key }));
    expect(head.ContentLength).toBe(data.length);
    expect(head.ContentType).toBe('video/mp4');
    const file = await fetch(first.videoUrl);
    expect(file.status).toBe(200);
    expect(sha256(Buffer.from(await file.arrayBuffer()))).toBe(hash);

    // The embed page plays it from the bucket, which its policy allows.
    const page = await s.app.inject({ method: 'GET', url: first.iframeLink });
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain(`src="${first.videoUrl}"`);
    expect(page.headers['content-security-policy']).toContain(`media-src 'self' ${endpoint};`);
    const api = await s.api({ method: 'GET', url: '/health' });
    expect(api.headers['content-security-policy']).toContain(`media-src 'self' blob: ${endpoint};`);

    const remove = (id: number) =>
      s.api({ method: 'DELETE', url: `/video/remove/${id}`, token: s.adminToken });
    expect((await remove(first.id)).statusCode).toBe(200);
    expect(await objects()).toContain(key);
    expect((await remove(second.id)).statusCode).toBe(200);
    expect(await objects()).toContain(key);
    await s.emptyTrash();
    expect(await objects()).not.toContain(key);
    expect((await s.app.inject({ method: 'GET', url: first.iframeLink })).statusCode).toBe(404);
  });

  it('stores no object for a refused video', async () => {
    const before = await objects();
    const body = await multipart(
      {
        position: 'LEFT',
        topDefNum: '1',
        selfDefNum: '1',
        bottomDefNum: '1',
        masterAppId: `${appId}`,
      },
      { file: { name: 'clip.mp4', data: await images.png(), type: 'video/mp4' } },
    );
    const res = await s.api({ method: 'POST', url: '/video', token: s.adminToken, ...body });
    expect(res.statusCode).toBe(415);
    expect(await objects()).toEqual(before);
  });
});

describe('the media sweep with MEDIA_STORE=s3', () => {
  it('removes objects no row names (and their thumbnails), and keeps the ones in use', async () => {
    const made = await createBanner(await png(30, 17));
    expect(made.statusCode, made.body).toBe(200);
    const used = keyOf(made.json().result.image as string);
    const orphan = `banners/ee/${'e'.repeat(64)}.webp`;
    for (const key of [orphan, thumbOf(orphan)]) {
      await client.send(new PutObjectCommand({ Bucket: BUCKET, Key: key, Body: 'x' }));
    }
    // An hour's wait in a test: every object is old enough for a sweep that takes age 0.
    const result = await sweepMedia(s.ctx.media, 0);
    expect(result.removed.sort()).toEqual([orphan, thumbOf(orphan)].sort());
    const left = await objects();
    expect(left).toContain(used);
    expect(left).toContain(thumbOf(used));
    expect(left).not.toContain(orphan);
  });
});

describe('a poster preview with MEDIA_STORE=s3', () => {
  it('reads the images from the bucket and keeps the composed picture there', async () => {
    const admin = s.adminToken;
    const category = await s.api({
      method: 'POST',
      url: '/category',
      token: admin,
      payload: { name: 'S3 Preview' },
    });
    const poster = await s.api({
      method: 'POST',
      url: `/poster/only-cat/${category.json().result.id}`,
      token: admin,
      ...(await multipart(
        {
          position: 'LEFT',
          topDefNum: '1',
          selfDefNum: '1',
          bottomDefNum: '1',
          masterAppId: String(appId),
        },
        { file: await png(80, 120) },
      )),
    });
    expect(poster.statusCode, poster.body).toBe(200);
    const user = await s.api({
      method: 'POST',
      url: '/auth/user/register',
      token: admin,
      payload: { name: 'S3 User', phoneNumber: '9123456789', masterAppId: appId },
    });
    const userId = user.json().result.id as number;
    const top = await s.api({
      method: 'POST',
      url: `/top/${userId}`,
      token: admin,
      ...(await multipart({ defNum: '1' }, { file: await png(40, 10) })),
    });
    expect(top.statusCode, top.body).toBe(200);
    expect(top.json().result.image).toMatch(new RegExp(`^${escaped(endpoint)}/`));

    const url = `/poster/preview/${poster.json().result.id}/${userId}`;
    const first = await s.api({ method: 'GET', url, token: admin });
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['x-preview-cache']).toBe('miss');
    expect(first.headers['x-preview-missing']).toBe('self,bottom');
    expect((await objects()).some((k) => k.startsWith('previews/'))).toBe(true);
    const again = await s.api({ method: 'GET', url, token: admin });
    expect(again.headers['x-preview-cache']).toBe('hit');
    expect(again.rawPayload.equals(first.rawPayload)).toBe(true);
    expect(await s.ctx.media.store.get(`previews/00/${'0'.repeat(64)}.webp`)).toBeUndefined();
  });
});

describe('the server with MEDIA_STORE=s3', () => {
  it('serves no /media route', async () => {
    const made = await createBanner(await png(47, 23));
    const key = keyOf(made.json().result.image as string);
    const res = await s.app.inject({ method: 'GET', url: `/media/${key}` });
    expect(res.statusCode).toBe(404);
    expect(s.app.hasRoute({ method: 'GET', url: '/media/*' })).toBe(false);
  });

  it('lets the browser load images from the bucket’s origin (CSP img-src)', async () => {
    const res = await s.api({ method: 'GET', url: '/health' });
    const csp = res.headers['content-security-policy'] as string;
    const imgSrc = csp.split(';').find((d) => d.trim().startsWith('img-src'));
    expect(imgSrc?.trim()).toBe(`img-src 'self' data: blob: ${endpoint}`);
  });

  it('uses the origin of S3_PUBLIC_URL when set', async () => {
    const cdn = await startServer({ ...s3Env, S3_PUBLIC_URL: 'https://cdn.example.com/media/' });
    try {
      const res = await cdn.api({ method: 'GET', url: '/health' });
      expect(res.headers['content-security-policy']).toContain(
        "img-src 'self' data: blob: https://cdn.example.com;",
      );
      const made = await multipart({}, { file: await png(48, 23) });
      const app = await cdn.api({
        method: 'POST',
        url: '/master-app',
        token: cdn.adminToken,
        payload: { name: 'CDN' },
      });
      const banner = await cdn.api({
        method: 'POST',
        url: `/banner/${app.json().result.id}`,
        token: cdn.adminToken,
        ...made,
      });
      expect(banner.statusCode, banner.body).toBe(200);
      const image = banner.json().result.image as string;
      expect(image).toMatch(/^https:\/\/cdn\.example\.com\/media\/banners\/[0-9a-f]{2}\/.*\.webp$/);
      // Stored in the bucket all the same.
      expect(await objects()).toContain(image.slice('https://cdn.example.com/media/'.length));
    } finally {
      await cdn.close();
    }
  });

  it('answers with local media when MEDIA_STORE is not set (CSP unchanged)', async () => {
    const local = await startServer();
    try {
      const res = await local.api({ method: 'GET', url: '/health' });
      expect(res.headers['content-security-policy']).toContain("img-src 'self' data: blob:;");
    } finally {
      await local.close();
    }
  });
});
