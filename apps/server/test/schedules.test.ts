/**
 * Schedules and time zones (API.md, "Planning festivals"): a master app's zone; liveFrom and
 * liveUntil on posters, videos and banners; the `live` lists and their exact totals with every
 * other filter and a keyword; a window opening at an app's local midnight; bad input; the apps
 * API showing live rows only.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import {
  APP_API_BASE,
  APP_PATHS,
  MESSAGES,
  zonedDayRange,
  type Banner,
  type Poster,
  type Video,
} from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';
import { videos } from '../src/seed/video-files.ts';

const logLines: Array<Record<string, unknown>> = [];
const s = await startServer({ LOG_LEVEL: 'info' }, { logLines });
afterAll(() => s.close());

const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });
const HOUR = 3_600_000;
const at = (offsetMs: number) => new Date(Date.now() + offsetMs).toISOString();

let apps: number[];
let keys: string[];
let diwali: number;
let morning: number;
beforeAll(async () => {
  const make = async (url: string, payload: object) => {
    const res = await admin({ method: 'POST', url, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as number;
  };
  apps = [
    await make('/master-app', { name: 'Kolkata App', timeZone: 'Asia/Kolkata' }),
    await make('/master-app', { name: 'Default App' }),
  ];
  keys = [];
  for (const id of apps) {
    const res = await admin({ method: 'GET', url: `/master-app/${id}/app-key` });
    keys.push(res.json().result.key);
  }
  diwali = await make('/category', { name: 'Diwali Wishes' });
  morning = await make('/category', { name: 'Morning Quotes' });
});

/** Signs `phoneNumber` in to the app of `key` with the code the log sender wrote. */
async function signIn(key: string, phoneNumber: string) {
  const call = (url: string, payload: object) =>
    s.app.inject({
      method: 'POST',
      url: `${APP_API_BASE}${url}`,
      headers: { 'x-app-key': key },
      payload,
    });
  expect((await call(APP_PATHS.otpRequest, { phoneNumber })).statusCode).toBe(202);
  const code = logLines.findLast(
    (l) => (l.otp as { phoneNumber?: string } | undefined)?.phoneNumber === phoneNumber,
  )!.otp as { code: string };
  const res = await call(APP_PATHS.otpVerify, { phoneNumber, code: code.code });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ accessToken: string }>();
}

let size = 40;
/** Creates a poster for one app (a picture of its own size, so no two share a file). */
async function poster(fields: Record<string, string>, category = diwali) {
  const form = await multipart(
    { position: 'LEFT', topDefNum: '1', selfDefNum: '2', bottomDefNum: '3', ...fields },
    { file: { name: 'p.png', data: await images.png(size++, 60), type: 'image/png' } },
  );
  return admin({ method: 'POST', url: `/poster/only-cat/${category}`, ...form });
}
async function posterOf(fields: Record<string, string>, app = apps[0]!, category = diwali) {
  const res = await poster({ ...fields, masterAppId: String(app) }, category);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: Poster }>().result;
}

const list = async (area: string, query: string) => {
  const res = await admin({ method: 'GET', url: `/${area}/list?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: Array<{ id: number }>; total: number; nextCursor: string | null }>();
};
const idsOf = (page: { result: Array<{ id: number }> }) => page.result.map((r) => r.id).sort();

describe('time zones', () => {
  it('an app shows the zone it follows: its own, or the server default (UTC)', async () => {
    const res = await admin({ method: 'GET', url: '/master-app/list?keyword=App' });
    const rows = res.json().result as Array<{ id: number; timeZone: string }>;
    expect(rows.find((r) => r.id === apps[0])).toMatchObject({
      timeZone: 'Asia/Kolkata',
      timeZoneIsDefault: false,
    });
    expect(rows.find((r) => r.id === apps[1])).toMatchObject({
      timeZone: 'UTC',
      timeZoneIsDefault: true,
    });
  });

  it('refuses a zone that is not one, naming timeZone, and changes nothing', async () => {
    const res = await admin({
      method: 'PATCH',
      url: `/master-app/update/${apps[1]}`,
      payload: { name: 'Default App', timeZone: 'Mars/Olympus' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ path: 'timeZone' })]);
    const row = await s.ctx.db
      .selectFrom('masterApps')
      .select('timeZone')
      .where('id', '=', apps[1]!)
      .executeTakeFirstOrThrow();
    expect(row.timeZone).toBeNull();
  });

  it('sets a zone, leaves it when left out, and goes back to the default with null', async () => {
    const url = `/master-app/update/${apps[1]}`;
    const set = await admin({
      method: 'PATCH',
      url,
      payload: { name: 'Default App', timeZone: 'America/New_York' },
    });
    expect(set.json().result).toMatchObject({ timeZone: 'America/New_York' });
    const kept = await admin({ method: 'PATCH', url, payload: { name: 'Default App' } });
    expect(kept.json().result).toMatchObject({ timeZone: 'America/New_York' });
    const back = await admin({
      method: 'PATCH',
      url,
      payload: { name: 'Default App', timeZone: null },
    });
    expect(back.json().result).toMatchObject({ timeZone: 'UTC', timeZoneIsDefault: true });
  });
});

describe('bad schedules', () => {
  it('refuses liveUntil before liveFrom, naming liveUntil, and creates nothing', async () => {
    const before = await s.rowCount('posters');
    const res = await poster({
      masterAppId: String(apps[0]),
      liveFrom: '2026-11-05T00:00:00+05:30',
      liveUntil: '2026-11-04T00:00:00+05:30',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ path: 'liveUntil' })]);
    expect(await s.rowCount('posters')).toBe(before);
  });

  it('refuses what is not a date-time (or has no offset), naming the field', async () => {
    for (const liveFrom of ['next Diwali', '2026-11-05T00:00', '2026-02-30T00:00:00Z']) {
      const res = await poster({ masterAppId: String(apps[0]), liveFrom });
      expect(res.statusCode, liveFrom).toBe(400);
      expect(res.json().details).toEqual([expect.objectContaining({ path: 'liveFrom' })]);
    }
  });

  it('the schedule call refuses an inverted window and a bad live filter', async () => {
    const p = await posterOf({});
    const res = await admin({
      method: 'PUT',
      url: `/poster/schedule/${p.id}`,
      payload: { liveFrom: at(2 * HOUR), liveUntil: at(HOUR) },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details).toEqual([expect.objectContaining({ path: 'liveUntil' })]);
    const bad = await admin({ method: 'GET', url: '/poster/list?live=soon' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ path: 'live' })]);
    await admin({ method: 'DELETE', url: `/poster/remove/${p.id}` });
  });
});

describe('live lists', () => {
  // App 0: Diwali posters live (window around now), open (no window), scheduled, expired, and an
  // DEACTIVE one inside its window; a Morning poster scheduled. App 1: one live, one expired.
  const made: Record<string, number> = {};
  beforeAll(async () => {
    const windows = {
      live: { liveFrom: at(-HOUR), liveUntil: at(HOUR) },
      open: {},
      scheduled: { liveFrom: at(24 * HOUR) },
      expired: { liveFrom: at(-48 * HOUR), liveUntil: at(-HOUR) },
      inactive: { liveFrom: at(-HOUR) },
    };
    for (const [name, window] of Object.entries(windows)) {
      made[name] = (await posterOf(window)).id;
    }
    const off = await admin({
      method: 'PUT',
      url: `/poster/status/${made.inactive}`,
      payload: { status: 'DEACTIVE' },
    });
    expect(off.statusCode, off.body).toBe(200);
    made.morningScheduled = (await posterOf({ liveFrom: at(HOUR) }, apps[0], morning)).id;
    made.otherLive = (await posterOf({ liveUntil: at(HOUR) }, apps[1])).id;
    made.otherExpired = (await posterOf({ liveUntil: at(-HOUR) }, apps[1])).id;
  });

  it('answers show the window as UTC instants', async () => {
    const p = await posterOf({ liveFrom: '2026-11-05T00:00:00+05:30' }, apps[1], morning);
    expect(p.liveFrom).toBe('2026-11-04T18:30:00.000Z');
    expect(p.liveUntil).toBeNull();
    await admin({ method: 'DELETE', url: `/poster/remove/${p.id}` });
  });

  it('now: ACTIVE and inside the window, counted exactly', async () => {
    const page = await list('poster', 'live=now');
    expect(idsOf(page)).toEqual([made.live, made.open, made.otherLive].sort());
    expect(page.total).toBe(3);
  });

  it('scheduled and expired: the window alone, whatever the status', async () => {
    const scheduled = await list('poster', 'live=scheduled');
    expect(idsOf(scheduled)).toEqual([made.scheduled, made.morningScheduled].sort());
    expect(scheduled.total).toBe(2);
    const expired = await list('poster', 'live=expired');
    expect(idsOf(expired)).toEqual([made.expired, made.otherExpired].sort());
    expect(expired.total).toBe(2);
  });

  it('combines with the app, status and category filters and a keyword, totals exact', async () => {
    const cases: Array<[string, number[]]> = [
      [`live=now&masterAppId=${apps[0]}`, [made.live!, made.open!]],
      [`live=now&masterAppId=${apps[1]}`, [made.otherLive!]],
      [`live=now&status=DEACTIVE`, []],
      [`live=now&status=ACTIVE&categoryId=${diwali}`, [made.live!, made.open!, made.otherLive!]],
      [`live=scheduled&categoryId=${morning}`, [made.morningScheduled!]],
      [
        `live=scheduled&status=ACTIVE&masterAppId=${apps[0]}`,
        [made.scheduled!, made.morningScheduled!],
      ],
      [`live=expired&masterAppId=${apps[1]}`, [made.otherExpired!]],
      ['live=now&keyword=Diwali', [made.live!, made.open!, made.otherLive!]],
      ['live=now&keyword=Morning', []],
      ['live=scheduled&keyword=Morn', [made.morningScheduled!]],
      [`live=expired&keyword=wishes&masterAppId=${apps[0]}`, [made.expired!]],
      // A short keyword scans (no trigram index): the same rows.
      ['live=scheduled&keyword=Mo', [made.morningScheduled!]],
    ];
    for (const [query, ids] of cases) {
      const page = await list('poster', `${query}&limit=100`);
      expect(idsOf(page), query).toEqual([...ids].sort());
      expect(page.total, query).toBe(ids.length);
    }
  });

  it('pages by cursor within the filter', async () => {
    const first = await list('poster', 'live=now&limit=2');
    expect(first.total).toBe(3);
    const second = await list('poster', `live=now&limit=2&cursor=${first.nextCursor}`);
    expect([...idsOf(first), ...idsOf(second)].sort()).toEqual(
      [made.live, made.open, made.otherLive].sort(),
    );
  });

  it('the CSV export follows the filter', async () => {
    const res = await admin({ method: 'GET', url: '/poster/list/export?live=expired' });
    expect(res.statusCode, res.body).toBe(200);
    const lines = res.body.trim().split('\r\n');
    expect(lines[0]).toContain('Live until');
    expect(lines).toHaveLength(3);
  });

  it('a schedule change moves a row between the lists at once', async () => {
    const res = await admin({
      method: 'PUT',
      url: `/poster/schedule/${made.scheduled}`,
      payload: { liveFrom: at(-HOUR) },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(MESSAGES.scheduleUpdated);
    expect((await list('poster', 'live=now')).total).toBe(4);
    expect((await list('poster', 'live=scheduled')).total).toBe(1);
    const back = await admin({
      method: 'PUT',
      url: `/poster/schedule/${made.scheduled}`,
      payload: { liveFrom: at(24 * HOUR), liveUntil: '' },
    });
    expect(back.json().result).toMatchObject({ liveUntil: null });
    expect((await list('poster', 'live=now')).total).toBe(3);
  });

  it('the apps API shows live posters only, and a poster that is not live is a 404', async () => {
    const feed = await s.app.inject({
      url: `${APP_API_BASE}${APP_PATHS.posters}`,
      headers: { 'x-app-key': keys[0]! },
    });
    expect(feed.statusCode, feed.body).toBe(200);
    const ids = (feed.json().result as Array<{ id: number }>).map((p) => p.id).sort();
    expect(ids).toEqual([made.live, made.open].sort());
    const home = await s.app.inject({
      url: `${APP_API_BASE}${APP_PATHS.home}`,
      headers: { 'x-app-key': keys[0]! },
    });
    // Diwali: live and open (the scheduled, expired and inactive ones are not counted).
    expect(home.json().categories).toEqual([expect.objectContaining({ id: diwali, posters: 2 })]);
    const { accessToken } = await signIn(keys[0]!, '+919800000001');
    const download = (id: number) =>
      s.app.inject({
        method: 'POST',
        url: `${APP_API_BASE}${APP_PATHS.download(id)}`,
        headers: { 'x-app-key': keys[0]!, authorization: `Bearer ${accessToken}` },
      });
    expect((await download(made.live!)).statusCode).toBe(200);
    for (const id of [made.scheduled!, made.expired!, made.inactive!]) {
      const res = await download(id);
      expect(res.statusCode, String(id)).toBe(404);
      expect(res.json().message).toBe(MESSAGES.posterNotFound);
    }
  });
});

describe('banners and videos', () => {
  it('banners: created with a window, listed by live, hidden from the apps API outside it', async () => {
    const create = async (fields: Record<string, string>) => {
      const form = await multipart(fields, {
        file: { name: 'b.png', data: await images.png(size++, 30), type: 'image/png' },
      });
      const res = await admin({ method: 'POST', url: `/banner/${apps[1]}`, ...form });
      expect(res.statusCode, res.body).toBe(200);
      return res.json<{ result: Banner }>().result;
    };
    const live = await create({ liveUntil: at(HOUR) });
    const later = await create({ liveFrom: at(HOUR) });
    expect(later.liveFrom).not.toBeNull();
    const now = await list('banner', `live=now&masterAppId=${apps[1]}`);
    expect(idsOf(now)).toEqual([live.id]);
    expect(now.total).toBe(1);
    expect((await list('banner', 'live=scheduled')).total).toBe(1);
    const home = await s.app.inject({
      url: `${APP_API_BASE}${APP_PATHS.home}`,
      headers: { 'x-app-key': keys[1]! },
    });
    expect((home.json().banners as Array<{ id: number }>).map((b) => b.id)).toEqual([live.id]);
    const bad = await admin({
      method: 'PUT',
      url: `/banner/schedule/${later.id}`,
      payload: { liveFrom: 'tomorrow' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details).toEqual([expect.objectContaining({ path: 'liveFrom' })]);
  });

  it('videos: created with a window, the schedule call, the live lists', async () => {
    const form = await multipart(
      {
        masterAppId: String(apps[0]),
        position: 'LEFT',
        topDefNum: '1',
        selfDefNum: '1',
        bottomDefNum: '1',
        liveFrom: at(HOUR),
      },
      { file: { name: 'clip.mp4', data: videos.mp4(3000), type: 'video/mp4' } },
    );
    const res = await admin({ method: 'POST', url: '/video', ...form });
    expect(res.statusCode, res.body).toBe(200);
    const video = res.json<{ result: Video }>().result;
    expect((await list('video', 'live=scheduled')).total).toBe(1);
    expect((await list('video', 'live=now')).total).toBe(0);
    const moved = await admin({
      method: 'PUT',
      url: `/video/schedule/${video.id}`,
      payload: { liveFrom: null, liveUntil: at(HOUR) },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const now = await list('video', `live=now&masterAppId=${apps[0]}`);
    expect(idsOf(now)).toEqual([video.id]);
    expect(now.total).toBe(1);
  });
});

describe('a window at a time zone’s midnight', () => {
  afterEach(() => vi.useRealTimers());

  it('a poster of an Asia/Kolkata app live from local midnight: not at 18:29Z the day before, live at 18:30Z', async () => {
    // A day a few days back, so the session (started now) is valid at either moment.
    const day = new Date(Date.now() - 5 * 24 * HOUR).toISOString().slice(0, 10);
    const { start } = zonedDayRange(day, 'Asia/Kolkata');
    const before = new Date(Date.parse(start) - 60_000);
    expect(start.slice(11)).toBe('18:30:00.000Z');
    const p = await posterOf({ liveFrom: `${day}T00:00:00+05:30` }, apps[0], morning);
    expect(p.liveFrom).toBe(start);
    const liveIds = async () =>
      idsOf(await list('poster', `live=now&masterAppId=${apps[0]}&categoryId=${morning}`));

    vi.useFakeTimers({ toFake: ['Date'] });
    vi.setSystemTime(before);
    expect(await liveIds()).not.toContain(p.id);
    expect(idsOf(await list('poster', `live=scheduled&categoryId=${morning}`))).toContain(p.id);
    vi.setSystemTime(new Date(start));
    expect(await liveIds()).toContain(p.id);
    expect(idsOf(await list('poster', `live=scheduled&categoryId=${morning}`))).not.toContain(p.id);
  });
});
