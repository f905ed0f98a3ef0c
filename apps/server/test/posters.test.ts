import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Poster } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const MAX_IMAGE_BYTES = 300_000;
const s = await startServer({ MAX_IMAGE_BYTES: String(MAX_IMAGE_BYTES) });
afterAll(() => s.close());

const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });

let apps: number[];
let categoryId: number;
let otherCategoryId: number;
let dayId: number;
beforeAll(async () => {
  const make = async (url: string, payload: object) => {
    const res = await admin({ method: 'POST', url, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as number;
  };
  apps = [
    await make('/master-app', { name: 'Posters One' }),
    await make('/master-app', { name: 'Posters Two' }),
  ];
  categoryId = await make('/category', { name: 'Diwali Wishes' });
  otherCategoryId = await make('/category', { name: 'Morning Quotes' });
  dayId = await make('/special-day', { name: 'Holi Festival', month: 3, day: 14 });
});

const FIELDS = { position: 'LEFT', topDefNum: '1', selfDefNum: '2', bottomDefNum: '3' };

async function post(
  url: string,
  fields: Record<string, string>,
  files: Record<string, { name: string; data: Buffer; type?: string }>,
  token = s.adminToken,
) {
  return s.api({ method: 'POST', url, token, ...(await multipart(fields, files)) });
}

// Files are stored by content: each poster gets a picture of its own size, so no two tests share
// a file unless they mean to.
let size = 40;
const png = async (w?: number, h?: number) => ({
  name: 'poster.png',
  data: await images.png(w ?? size++, h),
  type: 'image/png',
});

/** Creates posters for every app; answers their ids. */
async function forAllApps(fields: Record<string, string> = {}, category = categoryId) {
  const res = await post(`/poster/${category}`, { ...FIELDS, ...fields }, { file: await png() });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.ids as number[];
}

async function forOneApp(fields: Record<string, string> = {}, category = categoryId) {
  const res = await post(
    `/poster/only-cat/${category}`,
    { ...FIELDS, masterAppId: String(apps[0]), ...fields },
    { file: await png() },
  );
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as { id: number; poster: string };
}

const list = async (query: string) => {
  const res = await admin({ method: 'GET', url: `/poster/list?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: Poster[]; total: number }>();
};

describe('create', () => {
  it('for all apps: one row per master app, sharing one stored image and thumbnail', async () => {
    const filesBefore = s.storedFiles().length;
    const res = await post(
      `/poster/${categoryId}`,
      { ...FIELDS, date: '2026-11-01', specialDayId: String(dayId) },
      { file: await png(90, 160), thumbFile: { ...(await png(30, 40)), name: 'thumb.png' } },
    );
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body.message).toBe(MESSAGES.posterCreatedForAll);
    const appCount = await s.rowCount('masterApps');
    expect(body.result.count).toBe(appCount);
    expect(body.result.ids).toHaveLength(appCount);
    // Image and thumbnail, each with its own small preview: four files for all the rows.
    expect(s.storedFiles().length - filesBefore).toBe(4);

    const { result } = await list(`limit=100&specialDayId=${dayId}`);
    const rows = result.filter((r) => body.result.ids.includes(r.id));
    expect(rows).toHaveLength(appCount);
    expect(new Set(rows.map((r) => r.masterAppId)).size).toBe(appCount);
    expect(new Set(rows.map((r) => r.poster)).size).toBe(1);
    expect(rows[0]).toMatchObject({
      categoryId,
      specialDayId: dayId,
      topDefNum: 1,
      selfDefNum: 2,
      bottomDefNum: 3,
      date: '2026-11-01',
      downloadCount: 0,
      status: 'ACTIVE',
      position: 'LEFT',
      category: { id: categoryId, name: 'Diwali Wishes' },
      specialDay: { id: dayId, name: 'Holi Festival', day: 14, month: 3 },
      account: { id: expect.any(Number) },
    });
    expect(rows[0]!.poster).toMatch(/^\/media\/posters\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    expect(rows[0]!.videoThumb).toMatch(/^\/media\/posters\//);
    const file = await s.app.inject({ method: 'GET', url: rows[0]!.poster });
    expect(file.statusCode).toBe(200);
    expect(file.headers['content-type']).toBe('image/webp');
  });

  it('for one app: the row, with the uploading account, no special day and no date', async () => {
    const res = await post(
      `/poster/only-cat/${categoryId}`,
      { ...FIELDS, position: 'RIGHT', masterAppId: String(apps[1]), date: '' },
      { file: await png() },
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.posterCreated,
      result: {
        masterAppId: apps[1],
        masterApp: { id: apps[1], name: 'Posters Two' },
        position: 'RIGHT',
        date: null,
        specialDay: null,
        specialDayId: null,
        videoThumb: null,
      },
    });
  });

  it('refuses a missing category, special day or master app with a 404 naming it; stores nothing', async () => {
    const files = s.storedFiles().length;
    const rows = await s.rowCount('posters');
    const cases: Array<[string, Record<string, string>, string]> = [
      [`/poster/999999`, {}, 'categoryId'],
      [`/poster/${categoryId}`, { specialDayId: '999999' }, 'specialDayId'],
      [`/poster/only-cat/${categoryId}`, { masterAppId: '999999' }, 'masterAppId'],
    ];
    for (const [url, fields, field] of cases) {
      const res = await post(url, { ...FIELDS, ...fields }, { file: await png() });
      expect(res.statusCode, `${url} ${res.body}`).toBe(404);
      expect(res.json().details[0].path).toBe(field);
    }
    expect(s.storedFiles().length).toBe(files);
    expect(await s.rowCount('posters')).toBe(rows);
  });

  it('refuses bad fields with a 400 naming each, and changes nothing', async () => {
    const rows = await s.rowCount('posters');
    const cases: Array<[Record<string, string>, string]> = [
      [{ topDefNum: '0' }, 'topDefNum'],
      [{ selfDefNum: '1000' }, 'selfDefNum'],
      [{ bottomDefNum: 'abc' }, 'bottomDefNum'],
      [{ topDefNum: '1.5' }, 'topDefNum'],
      [{ date: '2026-02-30' }, 'date'],
      [{ position: 'UP' }, 'position'],
      [{ specialDayId: '0' }, 'specialDayId'],
      [{ specialDayId: '-1' }, 'specialDayId'],
      [{ colour: 'red' }, 'colour'],
    ];
    for (const [fields, field] of cases) {
      const res = await post(
        `/poster/${categoryId}`,
        { ...FIELDS, ...fields },
        {
          file: await png(),
        },
      );
      expect(res.statusCode, JSON.stringify(fields)).toBe(400);
      expect(JSON.stringify(res.json().details), JSON.stringify(fields)).toContain(field);
    }
    const noFile = await post(`/poster/${categoryId}`, FIELDS, {});
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().details[0].path).toBe('file');
    for (const path of ['0', '-1', 'abc', '01']) {
      const res = await post(`/poster/${path}`, FIELDS, { file: await png() });
      expect(res.statusCode, path).toBe(400);
    }
    expect(await s.rowCount('posters')).toBe(rows);
  });

  it('refuses files that are not images by their content, and one byte over the limit; stores nothing', async () => {
    const files = s.storedFiles().length;
    const svg = Buffer.from(
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
    );
    const html = Buffer.from('<!doctype html><html><body>hello there, friends</body></html>');
    const full = await images.png();
    const cases: Array<[{ name: string; data: Buffer; type: string }, number]> = [
      [{ name: 'x.svg', data: svg, type: 'image/svg+xml' }, 415],
      [{ name: 'x.png', data: html, type: 'image/png' }, 415],
      [
        { name: 'x.png', data: full.subarray(0, Math.floor(full.length / 2)), type: 'image/png' },
        415,
      ],
      [{ name: 'big.png', data: Buffer.alloc(MAX_IMAGE_BYTES + 1, 1), type: 'image/png' }, 413],
    ];
    for (const [file, status] of cases) {
      const res = await post(`/poster/${categoryId}`, FIELDS, { file });
      expect(res.statusCode, `${file.name} ${res.body}`).toBe(status);
    }
    const thumb = await post(`/poster/${categoryId}`, FIELDS, {
      file: await png(),
      thumbFile: { name: 't.svg', data: svg, type: 'image/svg+xml' },
    });
    expect(thumb.statusCode).toBe(415);
    expect(thumb.json().details[0].path).toBe('thumbFile');
    expect(s.storedFiles().length).toBe(files);
  });
});

describe('list', () => {
  let morning: number[];
  beforeAll(async () => {
    morning = await forAllApps({ date: '2026-12-25' }, otherCategoryId);
  });

  it('filters by category, special day, master app and status, newest first, with the total', async () => {
    const all = await list('limit=100');
    expect(all.total).toBe(await s.rowCount('posters'));
    const ids = all.result.map((r) => r.id);
    expect(ids).toEqual([...ids].sort((a, b) => b - a));

    const byCategory = await list(`categoryId=${otherCategoryId}&limit=100`);
    expect(byCategory.result.map((r) => r.id).sort()).toEqual([...morning].sort());
    expect(byCategory.total).toBe(morning.length);

    const oneApp = await list(`categoryId=${otherCategoryId}&masterAppId=${apps[0]}`);
    expect(oneApp.total).toBe(1);
    expect(oneApp.result[0]!.masterApp).toEqual({ id: apps[0], name: 'Posters One' });

    const byDay = await list(`specialDayId=${dayId}&limit=100`);
    expect(byDay.result.every((r) => r.specialDayId === dayId)).toBe(true);
    expect(byDay.total).toBe(byDay.result.length);

    const none = await list(`status=SUSPENDED&categoryId=${otherCategoryId}`);
    expect(none).toEqual({ result: [], total: 0, nextCursor: null });
  });

  it('searches the names of the category and the special day (short keywords too)', async () => {
    for (const keyword of ['morning', 'MORN', 'qu']) {
      const found = await list(`keyword=${keyword}&limit=100`);
      expect(found.result.length, keyword).toBeGreaterThan(0);
      expect(
        found.result.every((r) => r.categoryId === otherCategoryId),
        keyword,
      ).toBe(true);
      expect(found.total, keyword).toBe(found.result.length);
    }
    const holi = await list('keyword=holi&limit=100');
    expect(holi.result.length).toBeGreaterThan(0);
    expect(holi.result.every((r) => r.specialDay?.name === 'Holi Festival')).toBe(true);
    expect((await list('keyword=nothing-like-this')).total).toBe(0);
  });

  it('counts a poster whose category and special day both match once, whatever the filters', async () => {
    const res = await admin({
      method: 'POST',
      url: '/category',
      payload: { name: 'Holi Colours' },
    });
    expect(res.statusCode, res.body).toBe(200);
    const holiCategory = res.json().result.id as number;
    const both = await forAllApps({ specialDayId: String(dayId) }, holiCategory);
    const categoryOnly = (await forOneApp({}, holiCategory)).id;
    for (const query of [
      'keyword=holi',
      'keyword=HOLI&status=ACTIVE',
      `keyword=holi&masterAppId=${apps[0]}`,
      `keyword=holi&masterAppId=${apps[1]}&status=ACTIVE`,
      `keyword=holi&categoryId=${holiCategory}`,
      `keyword=holi&specialDayId=${dayId}&masterAppId=${apps[0]}`,
      'keyword=colours',
      'keyword=festival',
    ]) {
      const page = await list(`${query}&limit=100`);
      expect(new Set(page.result.map((r) => r.id)).size, query).toBe(page.result.length);
      expect(page.total, query).toBe(page.result.length);
    }
    const holi = (await list('keyword=holi&limit=100')).result.map((r) => r.id);
    expect(holi).toEqual(expect.arrayContaining([...both, categoryOnly]));
    expect((await list(`keyword=colours&limit=100`)).total).toBe(3);
    expect((await list(`keyword=holi&status=DEACTIVE`)).total).toBe(0);
  });

  it('pages a keyword matching most posters (walked newest first) like one matching few (sorted)', async () => {
    const res = await admin({ method: 'POST', url: '/category', payload: { name: 'Everywhere' } });
    expect(res.statusCode, res.body).toBe(200);
    const everywhere = res.json().result.id as number;
    // Interleaved with posters that do not match, so the newest rows are not all matches.
    for (let i = 0; i < 8; i++) {
      await forAllApps({}, everywhere);
      await forOneApp({}, categoryId);
    }
    const all = (await list('limit=100')).result;
    for (const keyword of ['everywhere', 'morning']) {
      const expected = all
        .filter((r) => r.category.name.toLowerCase().includes(keyword))
        .map((r) => r.id);
      expect(expected.length, keyword).toBeGreaterThan(0);
      for (const offset of [0, 5, 20]) {
        const page = await list(`keyword=${keyword}&limit=5&offset=${offset}`);
        expect(page.total, `${keyword} ${offset}`).toBe(expected.length);
        expect(
          page.result.map((r) => r.id),
          `${keyword} ${offset}`,
        ).toEqual(expected.slice(offset, offset + 5));
      }
    }
  });

  it('sorts by the fields it allows and refuses others', async () => {
    const byDate = await list('sort=-date&limit=100');
    const dates = byDate.result.map((r) => r.date).filter((d) => d !== null);
    expect(dates).toEqual([...dates].sort().reverse());
    for (const sort of ['downloadCount', '-status', 'createdAt']) {
      expect((await list(`sort=${sort}`)).result.length, sort).toBeGreaterThan(0);
    }
    for (const query of [
      'sort=poster',
      'limit=101',
      'limit=0',
      'offset=-1',
      'categoryId=0',
      'status=GONE',
      'colour=red',
    ]) {
      const res = await admin({ method: 'GET', url: `/poster/list?${query}` });
      expect(res.statusCode, query).toBe(400);
    }
  });
});

describe('changes to one poster', () => {
  it('default numbers, date (empty clears it), position and status, each with its message', async () => {
    const { id } = await forOneApp({ date: '2026-01-01' });
    const change = async (method: 'PATCH' | 'PUT', url: string, payload: object) => {
      const res = await admin({ method, url, payload });
      expect(res.statusCode, res.body).toBe(200);
      return res.json();
    };
    expect(
      await change('PATCH', `/poster/def-num-update/${id}`, {
        topDefNum: 7,
        selfDefNum: '8',
        bottomDefNum: 999,
      }),
    ).toMatchObject({
      message: MESSAGES.defNumsUpdated,
      result: { topDefNum: 7, selfDefNum: 8, bottomDefNum: 999 },
    });
    expect(
      await change('PATCH', `/poster/date-update/${id}`, { date: '2027-03-04' }),
    ).toMatchObject({
      message: MESSAGES.dateUpdated,
      result: { date: '2027-03-04' },
    });
    expect(await change('PATCH', `/poster/date-update/${id}`, { date: '' })).toMatchObject({
      result: { date: null },
    });
    expect(await change('PUT', `/poster/position/${id}`, { position: 'RIGHT' })).toMatchObject({
      message: MESSAGES.positionUpdated,
      result: { position: 'RIGHT' },
    });
    expect(await change('PUT', `/poster/status/${id}`, { status: 'DEACTIVE' })).toMatchObject({
      message: MESSAGES.statusUpdated,
      result: { status: 'DEACTIVE' },
    });
  });

  it('refuses bad values and unknown posters, changing nothing', async () => {
    const { id } = await forOneApp();
    const bad: Array<['PATCH' | 'PUT', string, object]> = [
      ['PATCH', `/poster/def-num-update/${id}`, { topDefNum: 0, selfDefNum: 1, bottomDefNum: 1 }],
      ['PATCH', `/poster/def-num-update/${id}`, { topDefNum: 1, selfDefNum: 1 }],
      ['PATCH', `/poster/date-update/${id}`, { date: '2026-13-01' }],
      ['PATCH', `/poster/date-update/${id}`, {}],
      ['PUT', `/poster/position/${id}`, { position: 'left' }],
      ['PUT', `/poster/status/${id}`, { status: 'GONE' }],
      ['PUT', `/poster/status/0`, { status: 'ACTIVE' }],
    ];
    for (const [method, url, payload] of bad) {
      const res = await admin({ method, url, payload });
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
    }
    const missing = await admin({
      method: 'PUT',
      url: '/poster/status/999999',
      payload: { status: 'ACTIVE' },
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toBe(MESSAGES.posterNotFound);
    const [row] = (await list(`limit=100`)).result.filter((r) => r.id === id);
    expect(row).toMatchObject({ topDefNum: 1, position: 'LEFT', status: 'ACTIVE' });
  });

  it('replacing one row’s image keeps the shared file for the other apps’ rows', async () => {
    const ids = await forAllApps();
    const [first, second] = ids;
    const shared = (await list('limit=100')).result.find((r) => r.id === first)!.poster;
    const res = await s.api({
      method: 'PUT',
      url: `/poster/update/${first}`,
      token: s.adminToken,
      ...(await multipart({}, { file: await png(120, 60) })),
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(MESSAGES.posterUpdated);
    expect(res.json().result.poster).not.toBe(shared);
    const rows = (await list('limit=100')).result;
    expect(rows.find((r) => r.id === second)!.poster).toBe(shared);
    expect((await s.app.inject({ method: 'GET', url: shared })).statusCode).toBe(200);

    const thumb = await s.api({
      method: 'PUT',
      url: `/poster/video-thumb/${second}`,
      token: s.adminToken,
      ...(await multipart({}, { thumbFile: await png(20, 20) })),
    });
    expect(thumb.statusCode, thumb.body).toBe(200);
    expect(thumb.json()).toMatchObject({ message: MESSAGES.thumbUpdated });
    expect(thumb.json().result.videoThumb).toMatch(/^\/media\/posters\//);
  });

  it('deleting removes the shared file only with the last row that uses it', async () => {
    const ids = await forAllApps({}, otherCategoryId);
    const url = (await list('limit=100')).result.find((r) => r.id === ids[0])!.poster;
    for (const [i, id] of ids.entries()) {
      const res = await admin({ method: 'DELETE', url: `/poster/remove/${id}` });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json()).toEqual({ message: MESSAGES.posterDeleted, result: { id } });
      // Deleted rows wait in the trash with their files; emptied, the files go.
      await s.emptyTrash();
      const last = i === ids.length - 1;
      expect((await s.app.inject({ method: 'GET', url })).statusCode, `after ${i + 1}`).toBe(
        last ? 404 : 200,
      );
    }
    expect((await admin({ method: 'DELETE', url: `/poster/remove/${ids[0]}` })).statusCode).toBe(
      404,
    );
  });
});

describe('bulk calls, all or nothing', () => {
  it('changes the status of many posters, JSON or a repeated form key', async () => {
    const ids = await forAllApps();
    const res = await admin({
      method: 'PUT',
      url: '/poster/bulk-status',
      payload: { ids, status: 'SUSPENDED' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.statusUpdated,
      result: { ids, count: ids.length },
    });
    const form = await s.api({
      method: 'PUT',
      url: '/poster/bulk-status',
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `${ids.map((id) => `ids=${id}`).join('&')}&status=PENDING`,
    });
    expect(form.statusCode, form.body).toBe(200);
    const rows = (await list('limit=100&status=PENDING')).result.map((r) => r.id);
    for (const id of ids) expect(rows).toContain(id);
  });

  it('a missing id is a 404 naming it, and nothing changes; bad lists are 400s', async () => {
    const ids = await forAllApps();
    const res = await admin({
      method: 'PUT',
      url: '/poster/bulk-status',
      payload: { ids: [...ids, 999999], status: 'DELETED' },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toContain('999999');
    expect(res.json().details[0].path).toBe('ids');
    const rows = (await list('limit=100')).result.filter((r) => ids.includes(r.id));
    expect(rows.every((r) => r.status === 'ACTIVE')).toBe(true);

    const del = await admin({
      method: 'DELETE',
      url: '/poster/bulkDelete',
      payload: { ids: [ids[0], 999998] },
    });
    expect(del.statusCode).toBe(404);
    expect(del.json().message).toContain('999998');
    expect((await list('limit=100')).result.some((r) => r.id === ids[0])).toBe(true);

    const bad: object[] = [
      { ids: [], status: 'ACTIVE' },
      { ids: [ids[0], ids[0]], status: 'ACTIVE' },
      { ids: Array.from({ length: 501 }, (_, i) => i + 1), status: 'ACTIVE' },
      { ids: [0], status: 'ACTIVE' },
      { ids: ['x'], status: 'ACTIVE' },
      { ids: [ids[0]], status: 'GONE' },
      { ids: [ids[0]] },
    ];
    for (const payload of bad) {
      const r = await admin({ method: 'PUT', url: '/poster/bulk-status', payload });
      expect(r.statusCode, JSON.stringify(payload).slice(0, 80)).toBe(400);
    }
  });

  it('deletes many, and their files once no row uses them', async () => {
    const ids = await forAllApps();
    const url = (await list('limit=100')).result.find((r) => r.id === ids[0])!.poster;
    const res = await admin({ method: 'DELETE', url: '/poster/bulkDelete', payload: { ids } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.posterDeleted,
      result: { ids, count: ids.length },
    });
    expect((await list('limit=100')).result.some((r) => ids.includes(r.id))).toBe(false);
    // Deleted rows wait in the trash with their files; emptied, the files go.
    await s.emptyTrash();
    expect((await s.app.inject({ method: 'GET', url })).statusCode).toBe(404);
  });
});

describe('who may', () => {
  it('staff need the poster grants: 403 without, the list and a status change with them', async () => {
    const [id] = await forAllApps();
    const without = await s.staff();
    const denied = await s.api({ method: 'GET', url: '/poster/list', token: without.token });
    expect(denied.statusCode).toBe(403);
    const change = {
      method: 'PUT' as const,
      url: `/poster/status/${id}`,
      payload: { status: 'PENDING' },
    };
    expect((await s.api({ ...change, token: without.token })).statusCode).toBe(403);

    const allowed = await s.staff({ poster: ['VIEW', 'UPDATE'] });
    expect(
      (await s.api({ method: 'GET', url: '/poster/list', token: allowed.token })).statusCode,
    ).toBe(200);
    expect((await s.api({ ...change, token: allowed.token })).statusCode).toBe(200);
    const remove = await s.api({
      method: 'DELETE',
      url: `/poster/remove/${id}`,
      token: allowed.token,
    });
    expect(remove.statusCode).toBe(403);
  });

  it('staff who may add posters can pick categories and special days without those menus', async () => {
    const poster = await s.staff({ poster: ['VIEW', 'CREATE'] });
    const get = (url: string, token?: string) => s.api({ method: 'GET', url, token });
    const categories = await get('/category/options', poster.token);
    expect(categories.statusCode, categories.body).toBe(200);
    const names = categories.json<{ result: Array<{ name: string }> }>().result.map((c) => c.name);
    expect(names).toEqual([...names].sort((a, b) => a.localeCompare(b, 'en')));
    expect(names).toEqual(expect.arrayContaining(['Diwali Wishes', 'Morning Quotes']));
    expect(categories.json().result[0]).toEqual({
      id: expect.any(Number),
      name: expect.any(String),
      status: expect.any(String),
    });
    const morning = await get('/category/options?keyword=morn', poster.token);
    expect(morning.json()).toEqual({
      result: [{ id: otherCategoryId, name: 'Morning Quotes', status: 'ACTIVE' }],
      total: 1,
    });
    const days = await get('/special-day/options?keyword=holi', poster.token);
    expect(days.statusCode, days.body).toBe(200);
    expect(days.json().result).toEqual([
      { id: dayId, name: 'Holi Festival', day: 14, month: 3, status: 'ACTIVE' },
    ]);
    expect((await get('/category/list', poster.token)).statusCode).toBe(403);
    expect((await get('/category/options')).statusCode).toBe(401);
    expect((await get('/special-day/options?limit=5', poster.token)).statusCode).toBe(400);
  });

  it('a category with posters cannot be deleted', async () => {
    await forOneApp();
    const res = await admin({ method: 'DELETE', url: `/category/remove/${categoryId}` });
    expect(res.statusCode).toBe(409);
  });
});
