/**
 * Videos (API.md, Videos; issue #8): uploads checked by content and size and stored once per
 * content, the list with its filters, keyword and sorts, every change call, the all-or-nothing
 * bulk calls, files removed with the last row using them, the embed page and who may do what.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Video } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';
import { videos } from '../src/seed/video-files.ts';

const MAX_VIDEO_BYTES = 200_000;
const s = await startServer({ MAX_VIDEO_BYTES: String(MAX_VIDEO_BYTES) });
afterAll(() => s.close());

const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });

let apps: number[];
beforeAll(async () => {
  apps = [];
  for (const name of ['Festival Reels', 'Morning Clips']) {
    const res = await admin({ method: 'POST', url: '/master-app', payload: { name } });
    expect(res.statusCode, res.body).toBe(200);
    apps.push(res.json().result.id as number);
  }
});

const FIELDS = { position: 'LEFT', topDefNum: '1', selfDefNum: '2', bottomDefNum: '3' };
type File = { name: string; data: Buffer; type?: string };
const mp4 = (data = videos.mp4()): File => ({ name: 'clip.mp4', data, type: 'video/mp4' });

async function post(fields: Record<string, string>, files: Record<string, File>, token?: string) {
  return s.api({
    method: 'POST',
    url: '/video',
    token: token ?? s.adminToken,
    ...(await multipart(fields, files)),
  });
}

/** Uploads a video to `app` (the first by default); answers its row. */
async function create(fields: Record<string, string> = {}, file: File = mp4()): Promise<Video> {
  const res = await post({ ...FIELDS, masterAppId: String(apps[0]), ...fields }, { file });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as Video;
}

const list = async (query: string) => {
  const res = await admin({ method: 'GET', url: `/video/list?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: Video[]; total: number }>();
};

const get = (url: string, headers: Record<string, string> = {}) =>
  s.app.inject({ method: 'GET', url, headers });

const sha256 = (data: Buffer) => createHash('sha256').update(data).digest('hex');

/**
 * Files left in the upload folder: every temporary file goes once its response is sent (polled:
 * the response reaches the test before the server has finished with it).
 */
const tempFiles = () => {
  const root = path.join(s.config.dataDir, 'tmp', 'uploads');
  return (fs.readdirSync(root, { recursive: true }) as string[]).filter((f) =>
    fs.statSync(path.join(root, f)).isFile(),
  );
};

const directive = (csp: string, name: string) =>
  csp
    .split(';')
    .map((d) => d.trim())
    .find((d) => d.startsWith(`${name} `));

describe('create', () => {
  it('stores the file under its content hash and answers the row, the new id as videoId', async () => {
    const data = videos.mp4(5000);
    const hash = sha256(data);
    const before = s.storedFiles();
    const res = await post(
      { ...FIELDS, date: '2026-11-01', masterAppId: String(apps[1]) },
      { file: mp4(data) },
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; videoId: number; result: Video }>();
    expect(body.message).toBe(MESSAGES.videoCreated);
    expect(body.videoId).toBe(body.result.id);
    expect(body.result).toEqual({
      id: body.videoId,
      version: 1,
      masterAppId: apps[1],
      video_id: hash,
      library_id: 'local',
      iframeLink: `/embed/video/${hash}`,
      videoUrl: `/media/videos/${hash.slice(0, 2)}/${hash}.mp4`,
      position: 'LEFT',
      date: '2026-11-01',
      downloadCount: 0,
      topDefNum: 1,
      selfDefNum: 2,
      bottomDefNum: 3,
      status: 'ACTIVE',
      liveFrom: null,
      liveUntil: null,
      createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      updatedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT.*Z$/),
      masterApp: { id: apps[1], name: 'Morning Clips' },
    });
    expect(s.storedFiles().filter((f) => !before.includes(f))).toEqual([
      path.join('videos', hash.slice(0, 2), `${hash}.mp4`),
    ]);
    // The uploader is recorded.
    const row = await s.ctx.db
      .selectFrom('videos')
      .select(['accountId', 'video'])
      .where('id', '=', body.videoId)
      .executeTakeFirstOrThrow();
    expect(row.video).toBe(`videos/${hash.slice(0, 2)}/${hash}.mp4`);
    const adminRow = await s.ctx.db
      .selectFrom('accounts')
      .select('id')
      .where('role', '=', 'SUPER_ADMIN')
      .executeTakeFirstOrThrow();
    expect(row.accountId).toBe(adminRow.id);
    await expect.poll(tempFiles).toEqual([]);

    // The file is served as uploaded, with its type, long-cached, for other origins too.
    const file = await get(body.result.videoUrl);
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('video/mp4');
    expect(file.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(file.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(file.headers['accept-ranges']).toBe('bytes');
    expect(file.rawPayload.equals(data)).toBe(true);

    // Players seek with range requests.
    const range = await get(body.result.videoUrl, { range: 'bytes=0-99' });
    expect(range.statusCode).toBe(206);
    expect(range.rawPayload.length).toBe(100);
    expect(range.headers['content-length']).toBe('100');
    expect(range.headers['content-range']).toBe(`bytes 0-99/${data.length}`);
    expect(range.rawPayload.equals(data.subarray(0, 100))).toBe(true);
    const tail = await get(body.result.videoUrl, { range: 'bytes=4990-' });
    expect(tail.statusCode).toBe(206);
    expect(tail.headers['content-range']).toBe(`bytes 4990-4999/${data.length}`);
  });

  it('the iframe link plays it: a minimal page whose <video> plays videoUrl', async () => {
    const video = await create();
    const page = await get(video.iframeLink);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain(
      `<video controls playsinline preload="metadata" src="${video.videoUrl}"></video>`,
    );
    expect(page.body).not.toMatch(/<script/i);
    expect(page.body).not.toMatch(/ style=/i);
    const csp = page.headers['content-security-policy'] as string;
    expect(directive(csp, 'default-src')).toBe("default-src 'none'");
    expect(directive(csp, 'media-src')).toBe("media-src 'self'");
    expect(directive(csp, 'frame-ancestors')).toBe("frame-ancestors 'self'");
    expect(directive(csp, 'script-src')).toBeUndefined();
    // The page's one <style> is allowed by its hash, and nothing else is.
    const style = /<style>([^<]*)<\/style>/.exec(page.body)![1]!;
    const hash = createHash('sha256').update(style).digest('base64');
    expect(directive(csp, 'style-src')).toBe(`style-src 'sha256-${hash}'`);
    expect(page.headers['x-content-type-options']).toBe('nosniff');

    // Everything else keeps the strict headers.
    const api = await admin({ method: 'GET', url: '/video/list' });
    const strict = api.headers['content-security-policy'] as string;
    expect(directive(strict, 'frame-ancestors')).toBe("frame-ancestors 'none'");
    expect(directive(strict, 'media-src')).toBe("media-src 'self' blob:");
  });

  it('may be framed by the domains the master apps’ settings name, and by no one else', async () => {
    const video = await create();
    const body = await multipart(
      {
        title: 'Reels',
        user_domain: 'https://user.example.com/app',
        admin_domain: 'admin.example.com',
        mobile_domain: 'm.example.com:8443',
      },
      { logo: { name: 'logo.png', data: await images.png(), type: 'image/png' } },
    );
    const settings = await admin({ method: 'POST', url: `/settings/${apps[0]}`, ...body });
    expect(settings.statusCode, settings.body).toBe(200);
    try {
      const page = await get(video.iframeLink);
      const csp = page.headers['content-security-policy'] as string;
      expect(directive(csp, 'frame-ancestors')).toBe(
        "frame-ancestors 'self' https://user.example.com m.example.com:8443",
      );
    } finally {
      await s.ctx.db.deleteFrom('settings').where('id', '=', settings.json().result.id).execute();
    }
  });

  it('takes WebM and QuickTime too, each stored with its own extension and type', async () => {
    for (const [data, ext, type] of [
      [videos.webm(), 'webm', 'video/webm'],
      [videos.mov(), 'mov', 'video/quicktime'],
    ] as const) {
      const video = await create({}, { name: `clip.${ext}`, data, type });
      expect(video.videoUrl).toBe(
        `/media/videos/${video.video_id.slice(0, 2)}/${sha256(data)}.${ext}`,
      );
      const file = await get(video.videoUrl);
      expect(file.statusCode).toBe(200);
      expect(file.headers['content-type']).toBe(type);
      expect((await get(video.iframeLink)).statusCode).toBe(200);
    }
  });

  it('refuses files that are not videos by their content; stores nothing, writes no row', async () => {
    const files = s.storedFiles();
    const rows = await s.rowCount('videos');
    const avif = Buffer.concat([
      Buffer.from('\0\0\0\x1cftypavif\0\0\0\0avifmif1', 'latin1'),
      Buffer.alloc(100),
    ]);
    const cases: Array<[File, number]> = [
      [{ name: 'poster.mp4', data: await images.png(), type: 'video/mp4' }, 415],
      [
        {
          name: 'clip.mp4',
          data: Buffer.from('<!doctype html><html><body>not a video, friends</body></html>'),
          type: 'video/mp4',
        },
        415,
      ],
      [{ name: 'photo.mp4', data: avif, type: 'video/mp4' }, 415],
      // "ftyp" in the wrong place.
      [
        {
          name: 'x.mp4',
          data: Buffer.from('ftypmp42 and then some more bytes'),
          type: 'video/mp4',
        },
        415,
      ],
      [{ name: 'tiny.webm', data: Buffer.from([0x1a, 0x45]), type: 'video/webm' }, 415],
      [{ name: 'empty.mp4', data: Buffer.alloc(0), type: 'video/mp4' }, 400],
    ];
    for (const [file, status] of cases) {
      const res = await post({ ...FIELDS, masterAppId: String(apps[0]) }, { file });
      expect(res.statusCode, `${file.name} ${res.body}`).toBe(status);
      expect(res.json().details[0].path).toBe('file');
      if (status === 415) {
        expect(res.json().message).toBe('file: Only MP4, WebM or QuickTime videos are accepted');
      }
    }
    expect(s.storedFiles()).toEqual(files);
    expect(await s.rowCount('videos')).toBe(rows);
    await expect.poll(tempFiles).toEqual([]);
  });

  it('refuses a file one byte over MAX_VIDEO_BYTES with a 413, storing nothing; the limit itself passes', async () => {
    const files = s.storedFiles();
    const rows = await s.rowCount('videos');
    const res = await post(
      { ...FIELDS, masterAppId: String(apps[0]) },
      { file: mp4(videos.mp4(MAX_VIDEO_BYTES + 1)) },
    );
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().details[0].path).toBe('file');
    expect(s.storedFiles()).toEqual(files);
    expect(await s.rowCount('videos')).toBe(rows);
    await expect.poll(tempFiles).toEqual([]);

    const atLimit = await create({}, mp4(videos.mp4(MAX_VIDEO_BYTES)));
    const file = await get(atLimit.videoUrl);
    expect(file.rawPayload.length).toBe(MAX_VIDEO_BYTES);
  });

  it('refuses bad fields with a 400 naming each, and changes nothing', async () => {
    const files = s.storedFiles();
    const rows = await s.rowCount('videos');
    const cases: Array<[Record<string, string>, string]> = [
      [{ topDefNum: '0' }, 'topDefNum'],
      [{ selfDefNum: '1000' }, 'selfDefNum'],
      [{ bottomDefNum: 'abc' }, 'bottomDefNum'],
      [{ topDefNum: '1.5' }, 'topDefNum'],
      [{ date: '2026-02-30' }, 'date'],
      [{ position: 'UP' }, 'position'],
      [{ masterAppId: '0' }, 'masterAppId'],
      [{ masterAppId: '-1' }, 'masterAppId'],
      [{ masterAppId: '' }, 'masterAppId'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [fields, field] of cases) {
      const res = await post(
        { ...FIELDS, masterAppId: String(apps[0]), ...fields },
        { file: mp4() },
      );
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(JSON.stringify(res.json().details), JSON.stringify(fields)).toContain(field);
    }
    const noFile = await post({ ...FIELDS, masterAppId: String(apps[0]) }, {});
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().details[0].path).toBe('file');
    const otherField = await post(
      { ...FIELDS, masterAppId: String(apps[0]) },
      { file: mp4(), thumbFile: mp4() },
    );
    expect(otherField.statusCode).toBe(400);
    expect(otherField.json().details[0].path).toBe('thumbFile');
    const json = await admin({
      method: 'POST',
      url: '/video',
      payload: { ...FIELDS, masterAppId: apps[0] },
    });
    expect(json.statusCode).toBe(400);
    expect(json.json().details[0].path).toBe('file');
    expect(s.storedFiles()).toEqual(files);
    expect(await s.rowCount('videos')).toBe(rows);
  });

  it('refuses a master app that does not exist with a 404 naming masterAppId; stores nothing', async () => {
    const files = s.storedFiles();
    const rows = await s.rowCount('videos');
    const res = await post({ ...FIELDS, masterAppId: '999999' }, { file: mp4() });
    expect(res.statusCode, res.body).toBe(404);
    expect(res.json().message).toBe(MESSAGES.appNotFound);
    expect(res.json().details[0].path).toBe('masterAppId');
    expect(s.storedFiles()).toEqual(files);
    expect(await s.rowCount('videos')).toBe(rows);
  });
});

describe('list', () => {
  let second: Video[];
  beforeAll(async () => {
    second = [];
    for (const date of ['2026-12-25', '2025-01-01', '']) {
      second.push(await create({ masterAppId: String(apps[1]), date }));
    }
    await admin({
      method: 'PUT',
      url: `/video/status/${second[0]!.id}`,
      payload: { status: 'PENDING' },
    });
  });

  it('filters by master app and status, newest first, with the total', async () => {
    const all = await list('limit=100');
    expect(all.total).toBe(await s.rowCount('videos'));
    const ids = all.result.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const byApp = await list(`masterAppId=${apps[1]}&limit=100`);
    expect(byApp.result.every((r) => r.masterAppId === apps[1])).toBe(true);
    expect(byApp.total).toBe(byApp.result.length);
    for (const v of second) expect(byApp.result.map((r) => r.id)).toContain(v.id);

    const pending = await list(`masterAppId=${apps[1]}&status=PENDING`);
    expect(pending).toMatchObject({ total: 1, result: [{ id: second[0]!.id, status: 'PENDING' }] });
    const active = await list('status=ACTIVE&limit=100');
    expect(active.result.every((r) => r.status === 'ACTIVE')).toBe(true);
    expect(active.total).toBe(all.total - 1);
    expect(await list('status=SUSPENDED')).toEqual({ result: [], total: 0, nextCursor: null });

    const page = await list(`masterAppId=${apps[1]}&limit=2&offset=1`);
    expect(page.total).toBe(byApp.total);
    expect(page.result.map((r) => r.id)).toEqual(byApp.result.slice(1, 3).map((r) => r.id));
  });

  it('searches the master app’s name (short keywords too)', async () => {
    for (const keyword of ['morning', 'CLIPS', 'mo']) {
      const found = await list(`keyword=${keyword}&limit=100`);
      expect(found.result.length, keyword).toBeGreaterThan(0);
      expect(
        found.result.every((r) => r.masterApp.name === 'Morning Clips'),
        keyword,
      ).toBe(true);
      expect(found.total, keyword).toBe(found.result.length);
    }
    const festival = await list(`keyword=festival&status=ACTIVE&limit=100`);
    expect(festival.result.every((r) => r.masterAppId === apps[0])).toBe(true);
    expect(festival.total).toBe(festival.result.length);
    expect((await list('keyword=nothing-like-this')).total).toBe(0);
  });

  it('sorts by the fields it allows and refuses others', async () => {
    const byDate = await list('sort=-date&limit=100');
    const dates = byDate.result.map((r) => r.date).filter((d) => d !== null);
    expect(dates).toEqual([...dates].sort().reverse());
    expect(dates).toContain('2026-12-25');
    const ascending = await list(`sort=date&limit=100&masterAppId=${apps[1]}`);
    const ascDates = ascending.result.map((r) => r.date).filter((d) => d !== null);
    expect(ascDates).toEqual([...ascDates].sort());
    const byStatus = await list('sort=status&limit=100');
    const statuses = byStatus.result.map((r) => r.status);
    expect(statuses).toEqual([...statuses].sort());
    for (const sort of ['downloadCount', '-downloadCount', 'createdAt', '-createdAt']) {
      expect((await list(`sort=${sort}`)).result.length, sort).toBeGreaterThan(0);
    }
    for (const query of [
      'sort=video',
      'sort=masterApp',
      'limit=101',
      'limit=0',
      'offset=-1',
      'masterAppId=0',
      'masterAppId=-1',
      'status=GONE',
      'categoryId=1',
    ]) {
      const res = await admin({ method: 'GET', url: `/video/list?${query}` });
      expect(res.statusCode, query).toBe(400);
    }
  });
});

describe('changes to one video', () => {
  const change = async (method: 'PATCH' | 'PUT', url: string, payload: object) => {
    const res = await admin({ method, url, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json();
  };

  it('default numbers, date (empty clears it), position and status, each with its message', async () => {
    const { id } = await create({ date: '2026-01-01' });
    expect(
      await change('PATCH', `/video/def-num-update/${id}`, {
        topDefNum: 7,
        selfDefNum: '8',
        bottomDefNum: 999,
      }),
    ).toMatchObject({
      message: MESSAGES.defNumsUpdated,
      result: { id, topDefNum: 7, selfDefNum: 8, bottomDefNum: 999 },
    });
    expect(await change('PATCH', `/video/date-update/${id}`, { date: '2027-03-04' })).toMatchObject(
      {
        message: MESSAGES.dateUpdated,
        result: { date: '2027-03-04' },
      },
    );
    expect(await change('PATCH', `/video/date-update/${id}`, { date: '' })).toMatchObject({
      message: MESSAGES.dateUpdated,
      result: { date: null },
    });
    expect(await change('PUT', `/video/position/${id}`, { position: 'RIGHT' })).toMatchObject({
      message: MESSAGES.positionUpdated,
      result: { position: 'RIGHT' },
    });
    const status = await change('PUT', `/video/status/${id}`, { status: 'DEACTIVE' });
    expect(status).toMatchObject({
      message: MESSAGES.statusUpdated,
      result: { status: 'DEACTIVE' },
    });
    // A form body works as well as JSON.
    const form = await s.api({
      method: 'PUT',
      url: `/video/status/${id}`,
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'status=ACTIVE',
    });
    expect(form.statusCode, form.body).toBe(200);
    const [row] = (await list('limit=100')).result.filter((r) => r.id === id);
    expect(row).toMatchObject({
      topDefNum: 7,
      selfDefNum: 8,
      bottomDefNum: 999,
      date: null,
      position: 'RIGHT',
      status: 'ACTIVE',
    });
  });

  it('refuses bad values and unknown videos, changing nothing', async () => {
    const { id } = await create();
    const bad: Array<['PATCH' | 'PUT' | 'DELETE', string, object | undefined]> = [
      ['PATCH', `/video/def-num-update/${id}`, { topDefNum: 0, selfDefNum: 1, bottomDefNum: 1 }],
      ['PATCH', `/video/def-num-update/${id}`, { topDefNum: 1, selfDefNum: 1 }],
      ['PATCH', `/video/def-num-update/${id}`, { topDefNum: 1, selfDefNum: 1, bottomDefNum: 1000 }],
      ['PATCH', `/video/date-update/${id}`, { date: '2026-02-30' }],
      ['PATCH', `/video/date-update/${id}`, {}],
      ['PUT', `/video/position/${id}`, { position: 'UP' }],
      ['PUT', `/video/position/${id}`, { position: 'left' }],
      ['PUT', `/video/status/${id}`, { status: 'GONE' }],
      ['PUT', `/video/status/${id}`, { status: 'ACTIVE', colour: 'red' }],
      ['PUT', `/video/status/0`, { status: 'ACTIVE' }],
      ['PUT', `/video/status/abc`, { status: 'ACTIVE' }],
      ['DELETE', `/video/remove/-1`, undefined],
    ];
    for (const [method, url, payload] of bad) {
      const res = await admin({ method, url, payload });
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
    }
    const missing: Array<['PATCH' | 'PUT' | 'DELETE', string, object | undefined]> = [
      ['PATCH', '/video/def-num-update/999999', { topDefNum: 1, selfDefNum: 1, bottomDefNum: 1 }],
      ['PATCH', '/video/date-update/999999', { date: '' }],
      ['PUT', '/video/position/999999', { position: 'LEFT' }],
      ['PUT', '/video/status/999999', { status: 'ACTIVE' }],
      ['DELETE', '/video/remove/999999', undefined],
    ];
    for (const [method, url, payload] of missing) {
      const res = await admin({ method, url, payload });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().message).toBe(MESSAGES.videoNotFound);
    }
    const [row] = (await list('limit=100')).result.filter((r) => r.id === id);
    expect(row).toMatchObject({ topDefNum: 1, position: 'LEFT', status: 'ACTIVE', date: null });
  });
});

describe('files', () => {
  it('two uploads of the same bytes share one file, removed only with the last row; the embed page then 404s', async () => {
    const data = videos.mp4(3000);
    const before = s.storedFiles().length;
    const first = await create({}, mp4(data));
    const second = await create({ masterAppId: String(apps[1]) }, mp4(data));
    expect(second.id).not.toBe(first.id);
    expect(second.video_id).toBe(first.video_id);
    expect(second.videoUrl).toBe(first.videoUrl);
    expect(s.storedFiles().length - before).toBe(1);

    const removed = await admin({ method: 'DELETE', url: `/video/remove/${first.id}` });
    expect(removed.statusCode, removed.body).toBe(200);
    expect(removed.json()).toEqual({ message: MESSAGES.videoDeleted, result: { id: first.id } });
    expect((await get(first.videoUrl)).statusCode).toBe(200);
    expect((await get(first.iframeLink)).statusCode).toBe(200);

    const last = await admin({ method: 'DELETE', url: `/video/remove/${second.id}` });
    expect(last.statusCode, last.body).toBe(200);
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    expect((await get(first.videoUrl)).statusCode).toBe(404);
    const embed = await get(first.iframeLink);
    expect(embed.statusCode).toBe(404);
    expect(embed.json()).toMatchObject({ statusCode: 404, message: MESSAGES.videoNotFound });
    expect(s.storedFiles().length).toBe(before);
    expect((await admin({ method: 'DELETE', url: `/video/remove/${first.id}` })).statusCode).toBe(
      404,
    );
  });

  it('the embed page is a 404 for anything but the hash of a stored video', async () => {
    const video = await create();
    for (const id of [
      'abc',
      video.video_id.toUpperCase(),
      video.video_id.slice(1),
      `${video.video_id}0`,
      `${video.video_id}.mp4`,
      'f'.repeat(64),
      '..%2f..%2fetc%2fpasswd',
    ]) {
      const res = await get(`/embed/video/${id}`);
      expect(res.statusCode, id).toBe(404);
    }
    expect((await get(`/embed/video/${video.video_id}`)).statusCode).toBe(200);
  });
});

describe('bulk calls, all or nothing', () => {
  it('changes the status of many videos, JSON or a repeated form key', async () => {
    const ids = [(await create()).id, (await create()).id, (await create()).id];
    const res = await admin({
      method: 'PUT',
      url: '/video/bulk-status',
      payload: { ids, status: 'SUSPENDED' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.statusUpdated, result: { ids, count: 3 } });
    const suspended = (await list('limit=100&status=SUSPENDED')).result.map((r) => r.id);
    expect(suspended.sort()).toEqual([...ids].sort());
    const form = await s.api({
      method: 'PUT',
      url: '/video/bulk-status',
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${ids.map((id) => `ids=${id}`).join('&')}&status=ACTIVE`,
    });
    expect(form.statusCode, form.body).toBe(200);
    expect((await list('status=SUSPENDED')).total).toBe(0);
  });

  it('a missing id is a 404 naming it, and nothing changes; bad lists are 400s', async () => {
    const ids = [(await create()).id, (await create()).id];
    const res = await admin({
      method: 'PUT',
      url: '/video/bulk-status',
      payload: { ids: [...ids, 999999], status: 'DELETED' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe('No video with id 999999');
    expect(res.json().details[0].path).toBe('ids');
    const rows = (await list('limit=100')).result.filter((r) => ids.includes(r.id));
    expect(rows.map((r) => r.status)).toEqual(['ACTIVE', 'ACTIVE']);

    const files = s.storedFiles();
    const del = await admin({
      method: 'DELETE',
      url: '/video/remove-all-app',
      payload: { ids: [ids[0], 999998] },
    });
    expect(del.statusCode).toBe(404);
    expect(del.json().message).toContain('999998');
    expect(del.json().details[0].path).toBe('ids');
    expect((await list('limit=100')).result.filter((r) => ids.includes(r.id))).toHaveLength(2);
    expect(s.storedFiles()).toEqual(files);

    const many = Array.from({ length: 501 }, (_, i) => i + 1);
    const bad: object[] = [
      { ids: [] },
      { ids: [ids[0], ids[0]] },
      { ids: many },
      { ids: [0] },
      { ids: ['x'] },
      {},
    ];
    for (const payload of bad) {
      for (const [method, url, body] of [
        ['PUT', '/video/bulk-status', { ...payload, status: 'ACTIVE' }],
        ['DELETE', '/video/remove-all-app', payload],
      ] as const) {
        const r = await admin({ method, url, payload: body });
        expect(r.statusCode, `${url} ${JSON.stringify(body).slice(0, 80)}`).toBe(400);
        expect(r.json().details[0].path).toMatch(/^ids\b/);
      }
    }
    const noStatus = await admin({ method: 'PUT', url: '/video/bulk-status', payload: { ids } });
    expect(noStatus.statusCode).toBe(400);
    expect((await list('limit=100')).result.filter((r) => ids.includes(r.id))).toHaveLength(2);
  });

  it('deletes many, and their files once no row uses them', async () => {
    const shared = videos.webm(2000);
    const a = await create({}, { name: 'a.webm', data: shared, type: 'video/webm' });
    const b = await create({}, { name: 'b.webm', data: shared, type: 'video/webm' });
    const kept = await create({}, { name: 'c.webm', data: shared, type: 'video/webm' });
    const own = await create();
    const ids = [a.id, b.id, own.id];
    const res = await admin({ method: 'DELETE', url: '/video/remove-all-app', payload: { ids } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.videoDeleted, result: { ids, count: 3 } });
    expect((await list('limit=100')).result.some((r) => ids.includes(r.id))).toBe(false);
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    // One row still uses the shared file; the other file went with its only row.
    expect((await get(a.videoUrl)).statusCode).toBe(200);
    expect((await get(own.videoUrl)).statusCode).toBe(404);
    expect((await get(own.iframeLink)).statusCode).toBe(404);
    await admin({ method: 'DELETE', url: `/video/remove/${kept.id}` });
    await s.emptyTrash();
    expect((await get(a.videoUrl)).statusCode).toBe(404);
  });
});

describe('who may', () => {
  it('staff need the video grants: 403 without, each call with its own grant', async () => {
    const { id } = await create();
    const without = await s.staff({ poster: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    const calls = {
      view: { method: 'GET' as const, url: '/video/list' },
      update: {
        method: 'PUT' as const,
        url: `/video/status/${id}`,
        payload: { status: 'PENDING' },
      },
      remove: { method: 'DELETE' as const, url: `/video/remove/${id}` },
    };
    for (const call of Object.values(calls)) {
      expect((await s.api({ ...call, token: without.token })).statusCode, call.url).toBe(403);
    }
    const files = s.storedFiles();
    const denied = await post(
      { ...FIELDS, masterAppId: String(apps[0]) },
      { file: mp4() },
      without.token,
    );
    expect(denied.statusCode).toBe(403);
    expect(s.storedFiles()).toEqual(files);

    const allowed = await s.staff({ video: ['VIEW', 'CREATE', 'UPDATE'] });
    expect((await s.api({ ...calls.view, token: allowed.token })).statusCode).toBe(200);
    expect((await s.api({ ...calls.update, token: allowed.token })).statusCode).toBe(200);
    const made = await post(
      { ...FIELDS, masterAppId: String(apps[0]) },
      { file: mp4() },
      allowed.token,
    );
    expect(made.statusCode, made.body).toBe(200);
    expect((await s.api({ ...calls.remove, token: allowed.token })).statusCode).toBe(403);
    const remover = await s.staff({ video: ['DELETE'] });
    expect((await s.api({ ...calls.remove, token: remover.token })).statusCode).toBe(200);
  });

  it('the embed page needs no sign-in', async () => {
    const video = await create();
    const page = await s.app.inject({ method: 'GET', url: video.iframeLink });
    expect(page.statusCode).toBe(200);
    expect((await s.api({ method: 'GET', url: '/video/list' })).statusCode).toBe(401);
  });
});

describe('the API document', () => {
  it('says what the video field takes', async () => {
    const doc = (await s.app.inject({ url: '/api/docs/json' })).json();
    const content = doc.paths['/api/v1/video'].post.requestBody.content;
    expect(Object.keys(content)).toEqual(['multipart/form-data']);
    const schema = content['multipart/form-data'].schema;
    expect(schema.required).toEqual(expect.arrayContaining(['file', 'masterAppId', 'position']));
    expect(schema.properties.file).toMatchObject({
      type: 'string',
      format: 'binary',
      minLength: 1,
    });
    expect(schema.properties.file.description).toBe(
      'A video: MP4, WebM or QuickTime, checked by content; not empty, at most 0.2 MB',
    );
    expect(doc.paths['/embed/video/{videoId}']).toBeUndefined();
  });
});
