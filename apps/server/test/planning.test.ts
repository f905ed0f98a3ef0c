import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type Coverage } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const s = await startServer();
afterAll(() => s.close());

const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });
const { db } = s.ctx;

let appA: number; // UTC
let appB: number; // Asia/Kolkata, UTC+05:30
let categoryId: number;
let holi: number;
let size = 40;

async function make(url: string, payload: object): Promise<number> {
  const res = await admin({ method: 'POST', url, payload });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
}

/** A poster made through the create call, for one app. */
async function upload(app: number, specialDayId: number): Promise<number> {
  const res = await admin({
    method: 'POST',
    url: `/poster/only-cat/${categoryId}`,
    ...(await multipart(
      {
        masterAppId: String(app),
        specialDayId: String(specialDayId),
        position: 'LEFT',
        topDefNum: '1',
        selfDefNum: '1',
        bottomDefNum: '1',
      },
      { file: { name: 'p.png', data: await images.png(size++), type: 'image/png' } },
    )),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
}

/** Sets a poster's (or video's) window directly: the schedule fields are another change's. */
const schedule = (
  table: 'posters' | 'videos',
  id: number,
  from: string | null,
  until: string | null,
) => db.updateTable(table).set({ liveFrom: from, liveUntil: until }).where('id', '=', id).execute();

async function insertVideo(app: number, date: string, status: 'ACTIVE' | 'DEACTIVE' = 'ACTIVE') {
  const at = new Date().toISOString();
  return (
    await db
      .insertInto('videos')
      .values({
        masterAppId: app,
        accountId: s.adminId,
        video: `videos/aa/${Math.random()}.mp4`,
        topDefNum: 1,
        selfDefNum: 1,
        bottomDefNum: 1,
        position: 'LEFT',
        date,
        status,
        createdAt: at,
        updatedAt: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
  ).id;
}

const coverage = async (query: string, token = s.adminToken) => {
  const res = await s.api({ method: 'GET', url: `/planning/coverage?${query}`, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<Coverage>();
};

/** `date`'s cell for `app`: posters and videos. */
const cell = (c: Coverage, date: string, app: number) => {
  const day = c.days.find((d) => d.date === date);
  const a = day?.apps.find((x) => x.masterAppId === app);
  return a ? { posters: a.posters, videos: a.videos } : undefined;
};
const namesOn = (c: Coverage, date: string) =>
  c.days.find((d) => d.date === date)?.specialDays.map((d) => d.name);

beforeAll(async () => {
  appA = await make('/master-app', { name: 'Plan A' });
  appB = await make('/master-app', { name: 'Plan B' });
  await db
    .updateTable('masterApps')
    .set({ timeZone: 'Asia/Kolkata' })
    .where('id', '=', appB)
    .execute();
  categoryId = await make('/category', { name: 'Festival Wishes' });
  holi = await make('/special-day', { name: 'Holi', month: 3, day: 14 });
});

describe('coverage', () => {
  it('lists every day with its special days, and per app the live posters: gaps are zeros', async () => {
    const poster = await upload(appA, holi);
    await upload(appA, holi);
    const c = await coverage('from=2031-03-13&days=3');
    expect(c.days.map((d) => d.date)).toEqual(['2031-03-13', '2031-03-14', '2031-03-15']);
    expect(namesOn(c, '2031-03-13')).toEqual([]);
    expect(namesOn(c, '2031-03-14')).toEqual(['Holi']);
    expect(c.days[1]!.apps.map((a) => a.name)).toEqual(['Plan A', 'Plan B']);
    expect(cell(c, '2031-03-14', appA)).toEqual({ posters: 2, videos: 0 });
    // Plan B has none for Holi: a gap.
    expect(cell(c, '2031-03-14', appB)).toEqual({ posters: 0, videos: 0 });
    expect(cell(c, '2031-03-13', appA)).toEqual({ posters: 0, videos: 0 });

    // Deactivated: not live.
    await admin({
      method: 'PUT',
      url: `/poster/status/${poster}`,
      payload: { status: 'DEACTIVE' },
    });
    expect(cell(await coverage('from=2031-03-14&days=1'), '2031-03-14', appA)).toEqual({
      posters: 1,
      videos: 0,
    });
    await admin({ method: 'PUT', url: `/poster/status/${poster}`, payload: { status: 'ACTIVE' } });
  });

  it('counts a scheduled poster only when its window overlaps the day in the app time zone', async () => {
    const ended = await upload(appB, holi);
    const late = await upload(appB, holi);
    const boundary = await upload(appB, holi);
    // Ended before Holi began in Kolkata (2031-03-13T18:30Z).
    await schedule('posters', ended, '2031-03-01T00:00:00.000Z', '2031-03-13T18:00:00.000Z');
    // Starts after Holi ended in Kolkata (2031-03-14T18:30Z).
    await schedule('posters', late, '2031-03-14T19:00:00.000Z', null);
    // Until 20:00 UTC on the 13th: 01:30 on the 14th in Kolkata, so live on Holi there.
    await schedule('posters', boundary, null, '2031-03-13T20:00:00.000Z');
    expect(cell(await coverage('from=2031-03-14&days=1'), '2031-03-14', appB)?.posters).toBe(1);

    // The same window in a UTC app misses the day.
    await db.updateTable('posters').set({ masterAppId: appA }).where('id', '=', boundary).execute();
    const c = await coverage('from=2031-03-14&days=1');
    expect(cell(c, '2031-03-14', appA)?.posters).toBe(2);
    expect(cell(c, '2031-03-14', appB)?.posters).toBe(0);
  });

  it('follows a special day moved to another date', async () => {
    const res = await admin({ method: 'PATCH', url: `/special-day/${holi}`, payload: { day: 16 } });
    expect(res.statusCode, res.body).toBe(200);
    const c = await coverage('from=2031-03-13&days=5');
    expect(namesOn(c, '2031-03-14')).toEqual([]);
    expect(namesOn(c, '2031-03-16')).toEqual(['Holi']);
    expect(cell(c, '2031-03-16', appA)?.posters).toBe(2);
    expect(cell(c, '2031-03-14', appA)?.posters).toBe(0);
    await admin({ method: 'PATCH', url: `/special-day/${holi}`, payload: { day: 14 } });
  });

  it('reads a special day with a year in that year only, and leaves deactivated ones out', async () => {
    const once = await make('/special-day', { name: 'Once', month: 4, day: 2 });
    await db.updateTable('specialDays').set({ year: 2031 }).where('id', '=', once).execute();
    const off = await make('/special-day', { name: 'Off', month: 4, day: 2 });
    await admin({
      method: 'PUT',
      url: `/special-day/status/${off}`,
      payload: { status: 'DEACTIVE' },
    });
    expect(namesOn(await coverage('from=2031-04-01&days=3'), '2031-04-02')).toEqual(['Once']);
    expect(namesOn(await coverage('from=2032-04-01&days=3'), '2032-04-02')).toEqual([]);
  });

  it('counts the videos dated on the day and live then', async () => {
    await insertVideo(appA, '2031-05-05');
    const scheduled = await insertVideo(appA, '2031-05-05');
    await insertVideo(appA, '2031-05-05', 'DEACTIVE');
    await insertVideo(appB, '2031-05-06');
    await schedule('videos', scheduled, '2031-05-06T00:00:00.000Z', null);
    const c = await coverage('from=2031-05-05&days=2');
    expect(cell(c, '2031-05-05', appA)).toEqual({ posters: 0, videos: 1 });
    expect(cell(c, '2031-05-06', appB)).toEqual({ posters: 0, videos: 1 });
    expect(cell(c, '2031-05-06', appA)).toEqual({ posters: 0, videos: 0 });
  });

  it('answers one app when masterAppId names it, 404 when it has no row', async () => {
    const c = await coverage(`from=2031-03-14&days=1&masterAppId=${appB}`);
    expect(c.days[0]!.apps.map((a) => a.masterAppId)).toEqual([appB]);
    const res = await admin({
      method: 'GET',
      url: '/planning/coverage?from=2031-03-14&days=1&masterAppId=999999',
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.appNotFound);
  });

  it('spans 90 days across a year end', async () => {
    const c = await coverage('from=2031-12-01&days=90');
    expect(c.days).toHaveLength(90);
    expect(c.days.at(-1)!.date).toBe('2032-02-28');
  });

  it.each([
    ['from=2031-02-30&days=3', 'from'],
    ['days=3', 'from'],
    ['from=2031-03-01&days=0', 'days'],
    ['from=2031-03-01&days=91', 'days'],
    ['from=2031-03-01', 'days'],
    ['from=2031-03-01&days=2&masterAppId=x', 'masterAppId'],
    ['from=2031-03-01&days=2&app=1', 'app'],
  ])('refuses %s with a 400 naming %s', async (query, field) => {
    const res = await admin({ method: 'GET', url: `/planning/coverage?${query}` });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
  });

  it('is open to whoever may view special days', async () => {
    const viewer = await s.staff({ specialDay: ['VIEW'] });
    const other = await s.staff({ poster: ['VIEW', 'CREATE'] });
    expect(
      (
        await s.api({
          method: 'GET',
          url: '/planning/coverage?from=2031-03-14&days=1',
          token: viewer.token,
        })
      ).statusCode,
    ).toBe(200);
    const refused = await s.api({
      method: 'GET',
      url: '/planning/coverage?from=2031-03-14&days=1',
      token: other.token,
    });
    expect(refused.statusCode).toBe(403);
    expect(
      (await s.api({ method: 'GET', url: '/planning/coverage?from=2031-03-14&days=1' })).statusCode,
    ).toBe(401);
  });
});

describe('the OpenAPI document', () => {
  it('describes the coverage call, its query and its answer', async () => {
    const doc = (await s.app.inject({ url: '/api/docs/json' })).json();
    const op = doc.paths['/api/v1/planning/coverage']?.get;
    expect(op).toBeDefined();
    const params = Object.fromEntries(
      (op.parameters as Array<{ name: string; required?: boolean }>).map((p) => [
        p.name,
        p.required ?? false,
      ]),
    );
    expect(params).toEqual({ from: true, days: true, masterAppId: false });
    const answer = op.responses['200'].content['application/json'].schema;
    expect(Object.keys(answer.properties)).toEqual(['days']);
    expect(Object.keys(answer.properties.days.items.properties)).toEqual([
      'date',
      'specialDays',
      'apps',
    ]);
  });
});
