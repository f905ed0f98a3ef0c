/**
 * The apps API (API.md "Apps API"): a scripted day of an end user through the real server, then
 * what the back-office shows of it; sign-in's limits and refusals; refresh-token rotation and
 * reuse; the content calls' caching; and every call's scoping to the app its key names.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { APP_API_BASE, APP_PATHS, MESSAGES, type TokenPair } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { loadConfig } from '../src/config.ts';
import { images } from './images.ts';

const logLines: Array<Record<string, unknown>> = [];
const s = await startServer({ LOG_LEVEL: 'info' }, { logLines });
afterAll(() => s.close());

const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });

type AppCall = {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  url: string;
  key?: string | undefined;
  token?: string;
  payload?: unknown;
  headers?: Record<string, string>;
  ip?: string;
};
/** A call of the apps API with an app key (and an access token when given). */
const call = ({ method = 'GET', url, key, token, payload, headers = {}, ip }: AppCall) =>
  s.app.inject({
    method,
    url: `${APP_API_BASE}${url}`,
    ...(ip ? { remoteAddress: ip } : {}),
    headers: {
      ...(key ? { 'x-app-key': key } : {}),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...headers,
    },
    ...(payload === undefined ? {} : { payload: payload as string }),
  });

/** The last one-time code the log sender wrote for `phoneNumber`. */
function codeFor(phoneNumber: string): string {
  for (let i = logLines.length - 1; i >= 0; i--) {
    const otp = logLines[i]!.otp as { phoneNumber: string; code: string } | undefined;
    if (otp?.phoneNumber === phoneNumber) return otp.code;
  }
  throw new Error(`no code was sent to ${phoneNumber}`);
}

/** As if the codes sent to `phoneNumber` were sent `seconds` earlier. */
async function ageCodes(phoneNumber: string, seconds: number) {
  const codes = await s.ctx.db
    .selectFrom('otpCodes')
    .select(['id', 'createdAt'])
    .where('phoneNumber', '=', phoneNumber)
    .execute();
  for (const c of codes) {
    const at = new Date(Date.parse(c.createdAt) - seconds * 1000).toISOString();
    await s.ctx.db.updateTable('otpCodes').set({ createdAt: at }).where('id', '=', c.id).execute();
  }
}

let ipCount = 0;
const freshIp = () => `10.9.${Math.floor(++ipCount / 250)}.${(ipCount % 250) + 1}`;

/** Signs `phoneNumber` in to the app of `key`: asks for a code, reads it from the log, verifies. */
async function signIn(
  key: string,
  phoneNumber: string,
  device = { name: 'Pixel 8', platform: 'android' },
) {
  const ip = freshIp();
  const asked = await call({
    method: 'POST',
    url: APP_PATHS.otpRequest,
    key,
    payload: { phoneNumber },
    ip,
  });
  expect(asked.statusCode, asked.body).toBe(202);
  const res = await call({
    method: 'POST',
    url: APP_PATHS.otpVerify,
    key,
    ip,
    payload: { phoneNumber, code: codeFor(phoneNumber), device },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<TokenPair>();
}

let apps: { id: number; key: string }[];
let categoryId: number;
let dayId: number;
/** Each app's poster (made for both apps at once). */
let posters: number[];
beforeAll(async () => {
  const make = async (url: string, payload: object) => {
    const res = await admin({ method: 'POST', url, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as number;
  };
  const ids = [
    await make('/master-app', { name: 'Festival One' }),
    await make('/master-app', { name: 'Festival Two' }),
  ];
  apps = [];
  for (const id of ids) {
    const res = await admin({ method: 'GET', url: `/master-app/${id}/app-key` });
    expect(res.statusCode, res.body).toBe(200);
    apps.push({ id, key: res.json().result.key });
  }
  categoryId = await make('/category', { name: 'Diwali Wishes' });
  const today = new Date();
  dayId = await make('/special-day', {
    name: 'Launch Day',
    month: today.getUTCMonth() + 1,
    day: today.getUTCDate(),
  });
  const form = await multipart(
    {
      position: 'LEFT',
      topDefNum: '1',
      selfDefNum: '1',
      bottomDefNum: '1',
      specialDayId: String(dayId),
    },
    { file: { name: 'poster.png', data: await images.png(400, 600), type: 'image/png' } },
  );
  const res = await admin({ method: 'POST', url: `/poster/${categoryId}`, ...form });
  expect(res.statusCode, res.body).toBe(200);
  const made = res.json().result.ids as number[];
  const rows = await s.ctx.db
    .selectFrom('posters')
    .select(['id', 'masterAppId'])
    .where('id', 'in', made)
    .execute();
  posters = ids.map((id) => rows.find((r) => r.masterAppId === id)!.id);
});

describe('a day of an end user', () => {
  it('signs up by phone, uploads a self image, reads home and a feed, renders, downloads, likes, reads a notification, refreshes and signs out; the back-office sees each', async () => {
    const [a] = apps;
    const phone = '+919800000001';
    // A broadcast to the app's users, sent before the user signs up.
    const note = await admin({
      method: 'POST',
      url: '/notifications/single',
      ...(await multipart({
        title: 'Diwali is here',
        desc: 'New posters',
        type: 'festival',
        masterAppId: String(a!.id),
      })),
    });
    expect(note.statusCode, note.body).toBe(200);
    const noteId = note.json().result.id as number;

    const first = await signIn(a!.key, phone);
    expect(first.user).toMatchObject({ phoneNumber: phone, masterAppId: a!.id, name: null });
    expect(first.expiresIn).toBe(900);
    const userId = first.user.id;
    let token = first.accessToken;

    // The user, created ACTIVE in the app; REGISTER and LOGIN recorded with the device.
    const shown = await admin({ method: 'GET', url: `/account/user/${userId}` });
    expect(shown.statusCode, shown.body).toBe(200);
    expect(shown.json()).toMatchObject({ status: 'ACTIVE', phoneNumber: phone });

    const profile = await call({
      method: 'PATCH',
      url: APP_PATHS.me,
      key: a!.key,
      token,
      payload: { name: 'Asha Rao' },
    });
    expect(profile.statusCode, profile.body).toBe(200);
    expect(profile.json().name).toBe('Asha Rao');

    const selfForm = await multipart(
      { position: 'RIGHT' },
      { file: { name: 'me.png', data: await images.png(120, 160), type: 'image/png' } },
    );
    const upload = await call({
      method: 'PUT',
      url: APP_PATHS.myImage('self', 1),
      key: a!.key,
      token,
      ...selfForm,
      payload: selfForm.payload,
    });
    expect(upload.statusCode, upload.body).toBe(200);
    expect(upload.json()).toMatchObject({ kind: 'self', defNum: 1, position: 'RIGHT' });

    const home = await call({ url: APP_PATHS.home, key: a!.key });
    expect(home.statusCode, home.body).toBe(200);
    expect(home.json().app).toMatchObject({ id: a!.id, name: 'Festival One' });
    expect(home.json().categories).toContainEqual({
      id: categoryId,
      name: 'Diwali Wishes',
      posters: 1,
    });
    expect(home.json().specialDays.map((d: { id: number }) => d.id)).toContain(dayId);

    const feed = await call({ url: `${APP_PATHS.posters}?categoryId=${categoryId}`, key: a!.key });
    expect(feed.statusCode, feed.body).toBe(200);
    expect(feed.json().result.map((p: { id: number }) => p.id)).toEqual([posters[0]]);

    const render = await call({ url: APP_PATHS.render(posters[0]!), key: a!.key, token });
    expect(render.statusCode).toBe(200);
    expect(render.headers['content-type']).toBe('image/webp');
    expect(render.headers['x-preview-missing']).toBe('top,bottom');
    expect((await sharp(render.rawPayload).metadata()).width).toBe(400);

    const download = await call({
      method: 'POST',
      url: APP_PATHS.download(posters[0]!),
      key: a!.key,
      token,
      headers: { 'idempotency-key': 'download-1' },
    });
    expect(download.statusCode, download.body).toBe(200);
    expect(download.json()).toMatchObject({ downloadCount: 1 });
    expect(download.json().url).toMatch(/^\/media\/previews\/.+\.webp$/);
    // A retried download (same key) counts once.
    const retried = await call({
      method: 'POST',
      url: APP_PATHS.download(posters[0]!),
      key: a!.key,
      token,
      headers: { 'idempotency-key': 'download-1' },
    });
    expect(retried.headers['idempotent-replayed']).toBe('true');

    expect(
      (await call({ method: 'PUT', url: APP_PATHS.like(posters[0]!), key: a!.key, token })).json(),
    ).toMatchObject({ liked: true });
    expect(
      (
        await call({
          method: 'POST',
          url: APP_PATHS.share(posters[0]!),
          key: a!.key,
          token,
          payload: { to: 'whatsapp' },
        })
      ).statusCode,
    ).toBe(200);

    const inbox = await call({ url: APP_PATHS.myNotifications, key: a!.key, token });
    expect(inbox.json().result).toEqual([
      expect.objectContaining({ id: noteId, read: false, personal: false }),
    ]);
    expect(
      (await call({ method: 'PUT', url: APP_PATHS.notificationRead(noteId), key: a!.key, token }))
        .statusCode,
    ).toBe(200);
    expect(
      (await call({ url: APP_PATHS.myNotifications, key: a!.key, token })).json().result[0].read,
    ).toBe(true);

    // Refresh: a new pair; the old refresh token, sent again, ends the session.
    const refreshed = await call({
      method: 'POST',
      url: APP_PATHS.refresh,
      key: a!.key,
      payload: { refreshToken: first.refreshToken },
    });
    expect(refreshed.statusCode, refreshed.body).toBe(200);
    token = refreshed.json().accessToken;
    expect((await call({ url: APP_PATHS.me, key: a!.key, token })).statusCode).toBe(200);

    const out = await call({ method: 'POST', url: APP_PATHS.logout, key: a!.key, token });
    expect(out.statusCode, out.body).toBe(200);
    const after = await call({ url: APP_PATHS.me, key: a!.key, token });
    expect(after.statusCode).toBe(401);
    expect(after.json().message).toBe(MESSAGES.sessionExpired);
    expect(
      (
        await call({
          method: 'POST',
          url: APP_PATHS.refresh,
          key: a!.key,
          payload: { refreshToken: refreshed.json().refreshToken },
        })
      ).statusCode,
    ).toBe(401);

    // What the back-office shows: login history with the device, activities, the download, the read.
    const history = await admin({ method: 'GET', url: `/login-history/all/${userId}` });
    expect(
      history.json().result.map((h: { status: string; device: string }) => [h.status, h.device]),
    ).toEqual([
      ['OUT', 'Pixel 8 (android)'],
      ['IN', 'Pixel 8 (android)'],
    ]);
    const activities = await admin({ method: 'GET', url: `/account/user/${userId}/activities` });
    expect(activities.statusCode, activities.body).toBe(200);
    expect(activities.json().result.map((r: { activity: string }) => r.activity)).toEqual([
      'SHARED',
      'LIKE',
      'LOGIN',
      'REGISTER',
    ]);
    const poster = await admin({ method: 'GET', url: `/poster/list?masterAppId=${a!.id}` });
    expect(poster.json().result[0]).toMatchObject({ id: posters[0], downloadCount: 1 });
    const category = await s.ctx.db
      .selectFrom('categories')
      .select('downloadCount')
      .where('id', '=', categoryId)
      .executeTakeFirstOrThrow();
    expect(category.downloadCount).toBe(1);
    const trend = await s.ctx.db
      .selectFrom('trendCounts')
      .select('n')
      .where('metric', '=', 'downloads')
      .where('masterAppId', '=', a!.id)
      .executeTakeFirst();
    expect(Number(trend?.n)).toBe(1);
    const notifications = await admin({
      method: 'GET',
      url: `/notifications/admin?masterAppId=${a!.id}`,
    });
    expect(notifications.json().result[0]).toMatchObject({ id: noteId, readCount: 1 });
    const sessions = await admin({ method: 'GET', url: `/account/user/${userId}/sessions` });
    expect(sessions.json().result).toEqual([]);

    // Signing in again (after the resend wait) is a LOGIN, not a new user.
    await ageCodes(phone, 60);
    const again = await signIn(a!.key, phone, { name: 'iPhone', platform: 'ios' });
    expect(again.user.id).toBe(userId);
    const live = await admin({ method: 'GET', url: `/account/user/${userId}/sessions` });
    expect(live.json().result).toEqual([
      expect.objectContaining({ device: 'iPhone (ios)', method: 'otp' }),
    ]);
  });
});

describe('the app key', () => {
  it('is needed on every call: missing or unknown → 401 with a sentence; a rotated one works a day', async () => {
    const missing = await call({ url: APP_PATHS.home });
    expect(missing.statusCode).toBe(401);
    expect(missing.json().message).toBe(MESSAGES.appKeyMissing);
    const unknown = await call({ url: APP_PATHS.home, key: 'mak_not-a-key' });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json().message).toBe(MESSAGES.appKeyUnknown);
    for (const odd of ['x'.repeat(65), 'a b', 'ключ']) {
      expect((await call({ url: APP_PATHS.home, headers: { 'x-app-key': odd } })).statusCode).toBe(
        401,
      );
    }

    const app = await admin({
      method: 'POST',
      url: '/master-app',
      payload: { name: 'Rotating App' },
    });
    const id = app.json().result.id as number;
    const old = (await admin({ method: 'GET', url: `/master-app/${id}/app-key` })).json().result
      .key as string;
    const rotated = await admin({ method: 'POST', url: `/master-app/${id}/app-key` });
    expect(rotated.statusCode, rotated.body).toBe(200);
    const { key, previous } = rotated.json().result;
    expect(key).not.toBe(old);
    expect(previous.key).toBe(old);
    expect(Date.parse(previous.until) - Date.now()).toBeGreaterThan(23.9 * 3_600_000);
    expect((await call({ url: APP_PATHS.home, key })).statusCode).toBe(200);
    expect((await call({ url: APP_PATHS.home, key: old })).statusCode).toBe(200);
    // A second rotation ends the first old key at once.
    await admin({ method: 'POST', url: `/master-app/${id}/app-key` });
    expect((await call({ url: APP_PATHS.home, key: old })).statusCode).toBe(401);
    // Only the owner sees or rotates keys.
    const staff = await s.staff({ masterApp: ['VIEW', 'UPDATE'] });
    expect(
      (await s.api({ method: 'GET', url: `/master-app/${id}/app-key`, token: staff.token }))
        .statusCode,
    ).toBe(403);
    expect(
      (await s.api({ method: 'POST', url: `/master-app/${id}/app-key`, token: staff.token }))
        .statusCode,
    ).toBe(403);
    expect((await admin({ method: 'GET', url: '/master-app/999999/app-key' })).statusCode).toBe(
      404,
    );
  });
});

describe('sign-in by phone', () => {
  it('answers the same whether or not the number has an account, and keeps only a hash', async () => {
    const [a] = apps;
    const res = await call({
      method: 'POST',
      url: APP_PATHS.otpRequest,
      key: a!.key,
      payload: { phoneNumber: '+919800000099' },
      ip: freshIp(),
    });
    expect(res.statusCode).toBe(202);
    expect(res.json()).toEqual({ message: MESSAGES.otpSent, retryAfter: 30 });
    const code = codeFor('+919800000099');
    const stored = await s.ctx.db
      .selectFrom('otpCodes')
      .selectAll()
      .where('phoneNumber', '=', '+919800000099')
      .execute();
    expect(stored).toHaveLength(1);
    expect(JSON.stringify(stored)).not.toContain(code);
  });

  it('limits codes per number (30 s, 5 an hour) and per address (20 an hour), with Retry-After', async () => {
    const [a] = apps;
    const phoneNumber = '+919800000100';
    const ask = (ip = freshIp(), number = phoneNumber) =>
      call({
        method: 'POST',
        url: APP_PATHS.otpRequest,
        key: a!.key,
        payload: { phoneNumber: number },
        ip,
      });
    expect((await ask()).statusCode).toBe(202);
    const soon = await ask();
    expect(soon.statusCode).toBe(429);
    expect(soon.json().message).toBe(MESSAGES.otpTooSoon);
    expect(Number(soon.headers['retry-after'])).toBeGreaterThan(0);
    for (let i = 0; i < 4; i++) {
      await ageCodes(phoneNumber, 31);
      expect((await ask()).statusCode).toBe(202);
    }
    await ageCodes(phoneNumber, 31);
    const many = await ask();
    expect(many.statusCode).toBe(429);
    expect(many.json().message).toBe(MESSAGES.otpTooMany);
    // The same number in another app is another account: its own limits.
    expect(
      (
        await call({
          method: 'POST',
          url: APP_PATHS.otpRequest,
          key: apps[1]!.key,
          payload: { phoneNumber },
          ip: freshIp(),
        })
      ).statusCode,
    ).toBe(202);

    const ip = freshIp();
    for (let i = 0; i < 20; i++)
      expect((await ask(ip, `+91990000${String(i).padStart(4, '0')}`)).statusCode).toBe(202);
    expect((await ask(ip, '+919900009999')).statusCode).toBe(429);
  });

  it('refuses a wrong code, ends it after 5 wrong tries, and never takes a code twice or in another app', async () => {
    const [a, b] = apps;
    const phoneNumber = '+919800000200';
    await call({
      method: 'POST',
      url: APP_PATHS.otpRequest,
      key: a!.key,
      payload: { phoneNumber },
      ip: freshIp(),
    });
    const code = codeFor(phoneNumber);
    const verify = (c: string, key = a!.key) =>
      call({ method: 'POST', url: APP_PATHS.otpVerify, key, payload: { phoneNumber, code: c } });
    const wrongCode = code === '000000' ? '111111' : '000000';
    // Another app's key does not take this app's code.
    expect((await verify(code, b!.key)).statusCode).toBe(401);
    for (let i = 0; i < 4; i++) {
      const res = await verify(wrongCode);
      expect(res.statusCode).toBe(401);
      expect(res.json().message).toBe(MESSAGES.otpWrong);
    }
    // The fifth wrong try (the cross-app one did not count: it found no code) ends it.
    expect((await verify(wrongCode)).statusCode).toBe(401);
    expect((await verify(code)).statusCode).toBe(401);

    await ageCodes(phoneNumber, 31);
    await call({
      method: 'POST',
      url: APP_PATHS.otpRequest,
      key: a!.key,
      payload: { phoneNumber },
      ip: freshIp(),
    });
    const fresh = codeFor(phoneNumber);
    expect((await verify(fresh)).statusCode).toBe(200);
    expect((await verify(fresh)).statusCode).toBe(401);
  });

  it('refuses bad fields with 400 naming them, and changes nothing', async () => {
    const [a] = apps;
    const before = await s.rowCount('otpCodes');
    for (const [payload, field] of [
      [{}, 'phoneNumber'],
      [{ phoneNumber: '12' }, 'phoneNumber'],
      [{ phoneNumber: '+91 98000 00000' }, 'phoneNumber'],
      [{ phoneNumber: '+91980000\u00000000' }, 'phoneNumber'],
      [{ phoneNumber: '+919800000300', extra: 1 }, 'extra'],
    ] as const) {
      const res = await call({
        method: 'POST',
        url: APP_PATHS.otpRequest,
        key: a!.key,
        payload,
        ip: freshIp(),
      });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
    }
    for (const [payload, field] of [
      [{ phoneNumber: '+919800000300', code: '12345' }, 'code'],
      [{ phoneNumber: '+919800000300', code: 'abcdef' }, 'code'],
      [
        { phoneNumber: '+919800000300', code: '123456', device: { name: 'x', platform: 'nokia' } },
        'device.platform',
      ],
      [
        { phoneNumber: '+919800000300', code: '123456', device: { name: '', platform: 'ios' } },
        'device.name',
      ],
    ] as const) {
      const res = await call({ method: 'POST', url: APP_PATHS.otpVerify, key: a!.key, payload });
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
    }
    const truncated = await call({
      method: 'POST',
      url: APP_PATHS.otpVerify,
      key: a!.key,
      payload: '{"phoneNumber":"+9198',
      headers: { 'content-type': 'application/json' },
    });
    expect(truncated.statusCode).toBe(400);
    expect(await s.rowCount('otpCodes')).toBe(before);
  });

  it('refuses a user who is not ACTIVE or whose date limit has passed, and ends their sessions when the back-office says so', async () => {
    const [a] = apps;
    const phone = '+919800000400';
    const pair = await signIn(a!.key, phone);
    const me = () => call({ url: APP_PATHS.me, key: a!.key, token: pair.accessToken });
    expect((await me()).statusCode).toBe(200);

    // A date limit in the past: refused at once with a sentence saying why.
    await admin({
      method: 'PATCH',
      url: `/account/update-datelimit/${pair.user.id}`,
      payload: { dateLimit: '2020-01-01' },
    });
    const limited = await me();
    expect(limited.statusCode).toBe(403);
    expect(limited.json().message).toBe(`${MESSAGES.appAccountDateLimit} 2020-01-01`);
    await admin({
      method: 'PATCH',
      url: `/account/update-datelimit/${pair.user.id}`,
      payload: { dateLimit: '' },
    });
    expect((await me()).statusCode).toBe(200);

    // Suspended: the session ends (it does not come back when the user is ACTIVE again).
    await admin({
      method: 'PUT',
      url: `/account/user/status/${pair.user.id}`,
      payload: { status: 'SUSPENDED' },
    });
    expect((await me()).statusCode).toBe(401);
    await ageCodes(phone, 31);
    const ip = freshIp();
    await call({
      method: 'POST',
      url: APP_PATHS.otpRequest,
      key: a!.key,
      payload: { phoneNumber: phone },
      ip,
    });
    const refused = await call({
      method: 'POST',
      url: APP_PATHS.otpVerify,
      key: a!.key,
      payload: { phoneNumber: phone, code: codeFor(phone) },
      ip,
    });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.appAccountInactive);
    await admin({
      method: 'PUT',
      url: `/account/user/status/${pair.user.id}`,
      payload: { status: 'ACTIVE' },
    });
    expect((await me()).statusCode).toBe(401);
    expect(
      (
        await call({
          method: 'POST',
          url: APP_PATHS.refresh,
          key: a!.key,
          payload: { refreshToken: pair.refreshToken },
        })
      ).statusCode,
    ).toBe(401);

    // Ended from the user's page: at once.
    await ageCodes(phone, 31);
    const next = await signIn(a!.key, phone);
    const sessions = (
      await admin({ method: 'GET', url: `/account/user/${pair.user.id}/sessions` })
    ).json().result;
    expect(sessions).toHaveLength(1);
    const ended = await admin({
      method: 'DELETE',
      url: `/account/user/${pair.user.id}/sessions/${sessions[0].id}`,
    });
    expect(ended.statusCode, ended.body).toBe(200);
    expect(
      (await call({ url: APP_PATHS.me, key: a!.key, token: next.accessToken })).statusCode,
    ).toBe(401);
    const history = (
      await admin({ method: 'GET', url: `/audit/list?rowId=${pair.user.id}&area=users` })
    ).json();
    expect(history.result.map((e: { action: string }) => e.action)).toContain('SESSION_ENDED');
  });
});

describe('refresh tokens', () => {
  it('rotate: each works once; one used again ends the whole session; another app’s key cannot use it', async () => {
    const [a, b] = apps;
    const pair = await signIn(a!.key, '+919800000500');
    const refresh = (refreshToken: string, key = a!.key) =>
      call({ method: 'POST', url: APP_PATHS.refresh, key, payload: { refreshToken } });
    expect((await refresh(pair.refreshToken, b!.key)).statusCode).toBe(401);
    const second = await refresh(pair.refreshToken);
    expect(second.statusCode, second.body).toBe(200);
    const third = await refresh(second.json().refreshToken);
    expect(third.statusCode).toBe(200);
    // The first token again: stolen and used, or replayed: the session ends for both holders.
    const reused = await refresh(pair.refreshToken);
    expect(reused.statusCode).toBe(401);
    expect(reused.json().message).toBe(MESSAGES.refreshTokenReused);
    expect((await refresh(third.json().refreshToken)).statusCode).toBe(401);
    expect(
      (await call({ url: APP_PATHS.me, key: a!.key, token: third.json().accessToken })).statusCode,
    ).toBe(401);
    // Stored hashed: no token is in the table.
    const rows = JSON.stringify(
      await s.ctx.db.selectFrom('appRefreshTokens').selectAll().execute(),
    );
    expect(rows).not.toContain(pair.refreshToken.split('.')[1]);
    // Made up, or of the right shape but unknown.
    expect((await refresh(`${pair.refreshToken.split('.')[0]}.${'A'.repeat(43)}`)).statusCode).toBe(
      401,
    );
    expect((await refresh('nonsense')).statusCode).toBe(400);
  });

  it('two racing refreshes with one token: one wins, the other ends the session', async () => {
    const [a] = apps;
    const pair = await signIn(a!.key, '+919800000501');
    const results = await Promise.all(
      [1, 2].map(() =>
        call({
          method: 'POST',
          url: APP_PATHS.refresh,
          key: a!.key,
          payload: { refreshToken: pair.refreshToken },
        }),
      ),
    );
    expect(results.map((r) => r.statusCode).sort()).toEqual([200, 401]);
  });

  it('a back-office token is not an app token, nor the other way round', async () => {
    const [a] = apps;
    const pair = await signIn(a!.key, '+919800000502');
    expect((await call({ url: APP_PATHS.me, key: a!.key, token: s.adminToken })).statusCode).toBe(
      401,
    );
    expect(
      (await s.api({ method: 'GET', url: '/account/admin-detail', token: pair.accessToken }))
        .statusCode,
    ).toBe(401);
  });
});

describe('content', () => {
  it('answers an ETag and the cache header; If-None-Match → 304 until the content changes', async () => {
    const [a] = apps;
    const first = await call({ url: APP_PATHS.categories, key: a!.key });
    expect(first.statusCode).toBe(200);
    expect(first.headers['cache-control']).toBe('public, max-age=60, stale-while-revalidate=600');
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^".+"$/);
    const again = await call({
      url: APP_PATHS.categories,
      key: a!.key,
      headers: { 'if-none-match': etag },
    });
    expect(again.statusCode).toBe(304);
    expect(again.body).toBe('');
    // A new category changes the answer: a new ETag.
    await admin({ method: 'POST', url: '/category', payload: { name: 'Ganesh Chaturthi' } });
    // Heard on the event bus: at once on SQLite, a moment after the commit on PostgreSQL (its
    // NOTIFY), until when the kept answer may still be answered.
    const changedAnswer = () =>
      call({ url: APP_PATHS.categories, key: a!.key, headers: { 'if-none-match': etag } });
    await expect.poll(async () => (await changedAnswer()).statusCode, { timeout: 3_000 }).toBe(200);
    const changed = await changedAnswer();
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
    expect(changed.json().result.map((c: { name: string }) => c.name)).toContain(
      'Ganesh Chaturthi',
    );
  });

  it('pages a feed by cursor, never repeating or skipping, and refuses a foreign cursor', async () => {
    const [, b] = apps;
    // Twelve posters of app B alone.
    for (let i = 0; i < 12; i++) {
      const form = await multipart(
        {
          position: 'RIGHT',
          topDefNum: '1',
          selfDefNum: '1',
          bottomDefNum: '1',
          masterAppId: String(b!.id),
        },
        { file: { name: 'p.png', data: await images.png(50 + i, 70), type: 'image/png' } },
      );
      expect(
        (await admin({ method: 'POST', url: `/poster/only-cat/${categoryId}`, ...form }))
          .statusCode,
      ).toBe(200);
    }
    const seen: number[] = [];
    let cursor: string | null = null;
    do {
      const query: string = cursor ? `&cursor=${encodeURIComponent(cursor)}` : '';
      const res = await call({ url: `${APP_PATHS.posters}?limit=5${query}`, key: b!.key });
      expect(res.statusCode, res.body).toBe(200);
      seen.push(...res.json().result.map((p: { id: number }) => p.id));
      cursor = res.json().nextCursor;
    } while (cursor);
    expect(seen).toHaveLength(13);
    expect(new Set(seen).size).toBe(13);
    expect(seen).toEqual([...seen].sort((x, y) => y - x));
    const tampered = await call({
      url: `${APP_PATHS.posters}?cursor=abc.${'A'.repeat(22)}`,
      key: b!.key,
    });
    expect(tampered.statusCode).toBe(400);
    expect(tampered.json().details[0].path).toBe('cursor');
    for (const q of [
      'offset=5',
      'limit=0',
      'limit=101',
      'categoryId=abc',
      'date=2026-02-30',
      'keyword=x',
    ]) {
      const res = await call({ url: `${APP_PATHS.posters}?${q}`, key: b!.key });
      expect(res.statusCode, q).toBe(400);
    }
  });
});

describe('scoping: a key of one app never reaches another app’s rows', () => {
  it('every call with a row of app A, made with app B’s key (and a user of B), answers 404 or leaves A out', async () => {
    const [a, b] = apps;
    const userOfB = await signIn(b!.key, '+919800000600');
    const token = userOfB.accessToken;
    const posterOfA = posters[0]!;
    const pageOfA = (
      await s.ctx.db
        .selectFrom('pages')
        .select('id')
        .where('masterAppId', '=', a!.id)
        .executeTakeFirstOrThrow()
    ).id;
    const toUserOfA = await admin({
      method: 'POST',
      url: '/notifications/single',
      ...(await multipart({ title: 'A only', desc: 'x', type: 't', masterAppId: String(a!.id) })),
    });
    const noteOfA = toUserOfA.json().result.id as number;
    const downloadsOf = async (id: number) =>
      (
        await s.ctx.db
          .selectFrom('posters')
          .select('downloadCount')
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
      ).downloadCount;
    const downloadsBefore = await downloadsOf(posterOfA);
    const rows: Array<[AppCall, number]> = [
      [{ url: APP_PATHS.render(posterOfA), token }, 404],
      [{ method: 'POST', url: APP_PATHS.download(posterOfA), token }, 404],
      [{ method: 'PUT', url: APP_PATHS.like(posterOfA), token }, 404],
      [{ method: 'DELETE', url: APP_PATHS.like(posterOfA), token }, 404],
      [{ method: 'POST', url: APP_PATHS.share(posterOfA), token, payload: {} }, 404],
      [{ method: 'PUT', url: APP_PATHS.notificationRead(noteOfA), token }, 404],
      [{ url: APP_PATHS.page(pageOfA) }, 404],
    ];
    for (const [request, status] of rows) {
      const res = await call({ ...request, key: b!.key });
      expect(res.statusCode, `${request.method ?? 'GET'} ${request.url} ${res.body}`).toBe(status);
    }
    // Every call of the document that names a row is in the matrix above, or names a row no app
    // owns (a blog is every app's): a call added later must say how it is scoped.
    const doc = (await s.app.inject({ url: '/api/app/docs/json' })).json<{
      paths: Record<string, object>;
    }>();
    const named = Object.entries(doc.paths).flatMap(([path, ops]) =>
      path.includes('{id}')
        ? Object.keys(ops).map((m) => `${m.toUpperCase()} ${path.slice(APP_API_BASE.length)}`)
        : [],
    );
    const covered = rows.map(
      ([r]) => `${r.method ?? 'GET'} ${r.url.replace(/\/\d+(?=\/|$)/, '/{id}')}`,
    );
    expect(named.filter((op) => !covered.includes(op)).sort()).toEqual([
      `GET ${APP_PATHS.blog('{id}')}`,
    ]);
    // Lists: nothing of A.
    const feed = (await call({ url: `${APP_PATHS.posters}?limit=100`, key: b!.key })).json().result;
    expect(feed.map((p: { id: number }) => p.id)).not.toContain(posterOfA);
    const inbox = (await call({ url: APP_PATHS.myNotifications, key: b!.key, token })).json()
      .result;
    expect(inbox.map((n: { id: number }) => n.id)).not.toContain(noteOfA);
    const home = (await call({ url: APP_PATHS.home, key: b!.key })).json();
    expect(home.app.id).toBe(b!.id);
    // A user of B with A's key: not signed in there.
    expect((await call({ url: APP_PATHS.me, key: a!.key, token })).statusCode).toBe(401);
    // Nothing counted on A's poster.
    const row = await downloadsOf(posterOfA);
    expect(row).toBe(downloadsBefore);
  });
});

describe('the webhook sender', () => {
  it('needs its URL and secret; a gateway that does not take the code → 503 with Retry-After, nothing kept', async () => {
    expect(() => loadConfig({ OTP_SENDER: 'webhook' })).toThrow(
      /OTP_WEBHOOK_URL: required[\s\S]*OTP_WEBHOOK_SECRET: required/,
    );
    const down = await startServer({
      OTP_SENDER: 'webhook',
      // Nothing listens there.
      OTP_WEBHOOK_URL: 'http://127.0.0.1:9/otp',
      OTP_WEBHOOK_SECRET: 'a-secret-of-sixteen-chars',
    });
    try {
      const app = await down.api({
        method: 'POST',
        url: '/master-app',
        token: down.adminToken,
        payload: { name: 'Gateway Down' },
      });
      const key = (
        await down.api({
          method: 'GET',
          url: `/master-app/${app.json().result.id}/app-key`,
          token: down.adminToken,
        })
      ).json().result.key;
      const res = await down.app.inject({
        method: 'POST',
        url: `${APP_API_BASE}${APP_PATHS.otpRequest}`,
        headers: { 'x-app-key': key },
        payload: { phoneNumber: '+919800000700' },
      });
      expect(res.statusCode).toBe(503);
      expect(res.json().message).toBe('The SMS gateway is not answering; try again shortly');
      expect(res.headers['retry-after']).toBe('30');
      expect(await down.rowCount('otpCodes')).toBe(0);
    } finally {
      await down.close();
    }
  });
});

describe('the back-office calls the apps API brought', () => {
  it('answer 403 to a STAFF account without the grant, and 400/404 to bad ids, changing nothing', async () => {
    const [a] = apps;
    const pair = await signIn(a!.key, '+919800000800');
    const id = pair.user.id;
    const sessions = (await admin({ method: 'GET', url: `/account/user/${id}/sessions` })).json()
      .result;
    const none = await s.staff({});
    const viewer = await s.staff({ users: ['VIEW'] });
    const as = (token: string, method: 'GET' | 'DELETE', url: string) =>
      s.api({ method, url, token });
    for (const url of [`/account/user/${id}/sessions`, `/account/user/${id}/activities`]) {
      expect((await as(none.token, 'GET', url)).statusCode, url).toBe(403);
      expect((await as(viewer.token, 'GET', url)).statusCode, url).toBe(200);
    }
    const end = `/account/user/${id}/sessions/${sessions[0].id}`;
    expect((await as(viewer.token, 'DELETE', end)).statusCode).toBe(403);
    expect((await admin({ method: 'GET', url: '/account/user/abc/activities' })).statusCode).toBe(
      400,
    );
    expect(
      (await admin({ method: 'GET', url: `/account/user/${s.adminId}/sessions` })).statusCode,
    ).toBe(404);
    expect(
      (await admin({ method: 'DELETE', url: `/account/user/${id}/sessions/999999` })).statusCode,
    ).toBe(404);
    // Nothing was ended by the refused calls.
    expect(
      (await call({ url: APP_PATHS.me, key: a!.key, token: pair.accessToken })).statusCode,
    ).toBe(200);
  });
});
