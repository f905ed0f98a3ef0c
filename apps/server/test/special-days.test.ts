import { afterAll, describe, expect, it } from 'vitest';
import { MESSAGES } from '@master-admin/contract';
import { posterRow, startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

type SpecialDay = {
  id: number;
  name: string;
  month: number;
  day: number;
  year: number | null;
  status: string;
  createdAt: string;
  updatedAt: string;
};

const create = (payload: unknown, token = s.adminToken, headers: Record<string, string> = {}) =>
  s.api({ method: 'POST', url: '/special-day', token, headers, payload: payload as string });

async function created(name: string, month: number, day: number): Promise<SpecialDay> {
  const res = await create({ name, month, day });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result as SpecialDay;
}

const list = (query = '', token = s.adminToken) =>
  s.api({ method: 'GET', url: `/special-day/list${query}`, token });

const update = (id: number | string, payload: unknown, token = s.adminToken) =>
  s.api({ method: 'PATCH', url: `/special-day/${id}`, token, payload: payload as string });

const setStatus = (id: number | string, payload: unknown, token = s.adminToken) =>
  s.api({ method: 'PUT', url: `/special-day/status/${id}`, token, payload: payload as string });

const setYear = (year: number | string, token = s.adminToken) =>
  s.api({ method: 'PUT', url: `/special-day/year/${year}`, token });

const remove = (id: number | string, token = s.adminToken) =>
  s.api({ method: 'DELETE', url: `/special-day/remove/${id}`, token });

/** A poster made for `specialDayId`, written straight to the database. */
async function insertPoster(specialDayId: number): Promise<number> {
  const app = await s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    payload: { name: `Poster App ${specialDayId}` },
  });
  const category = await s.api({
    method: 'POST',
    url: '/category',
    token: s.adminToken,
    payload: { name: `Poster Category ${specialDayId}` },
  });
  const row = await s.ctx.db
    .insertInto('posters')
    .values(
      posterRow({
        masterAppId: app.json().result.id,
        categoryId: category.json().result.id,
        specialDayId,
        accountId: s.adminId,
      }),
    )
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

const countDays = async () =>
  Number(
    (
      await s.ctx.db
        .selectFrom('specialDays')
        .select((eb) => eb.fn.countAll<number>().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

const stored = (id: number) =>
  s.ctx.db.selectFrom('specialDays').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

/** The paths a 400 names. */
const paths = (res: { json(): unknown }) =>
  ((res.json() as { details?: Array<{ path: string }> }).details ?? []).map((d) => d.path);

const ids = async (query: string) =>
  (await list(query)).json().result.map((r: { id: number }) => r.id) as number[];

describe('creating a special day', () => {
  it('answers the message and the row: ACTIVE, no year', async () => {
    const res = await create({ name: '  New Year  ', month: 1, day: 1 });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json();
    expect(body).toEqual({
      message: MESSAGES.specialDayCreated,
      result: {
        id: expect.any(Number),
        version: 1,
        name: 'New Year',
        month: 1,
        day: 1,
        year: null,
        status: 'ACTIVE',
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    });
    expect(new Date(body.result.updatedAt).toISOString()).toBe(body.result.updatedAt);
  });

  it('accepts numbers as strings from a form', async () => {
    const res = await create('name=Christmas&month=12&day=25', s.adminToken, {
      'content-type': 'application/x-www-form-urlencoded',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({ name: 'Christmas', month: 12, day: 25 });
  });

  it.each([
    [2, 29],
    [1, 31],
    [4, 30],
    [12, 31],
  ])('accepts month %i day %i', async (month, day) => {
    expect(await created(`Day ${month}/${day}`, month, day)).toMatchObject({ month, day });
  });

  it.each([
    ['30 February', { name: 'x', month: 2, day: 30 }, ['day']],
    ['31 April', { name: 'x', month: 4, day: 31 }, ['day']],
    ['31 June', { name: 'x', month: 6, day: 31 }, ['day']],
    ['day 0', { name: 'x', month: 1, day: 0 }, ['day']],
    ['day 32', { name: 'x', month: 1, day: 32 }, ['day']],
    ['day 1.5', { name: 'x', month: 1, day: 1.5 }, ['day']],
    ['a word as day', { name: 'x', month: 1, day: 'first' }, ['day']],
    ['month 0', { name: 'x', month: 0, day: 1 }, ['month']],
    ['month 13', { name: 'x', month: 13, day: 1 }, ['month']],
    ['a missing month', { name: 'x', day: 1 }, ['month']],
    ['a missing name', { month: 1, day: 1 }, ['name']],
    ['an empty name', { name: '', month: 1, day: 1 }, ['name']],
    ['a 101-character name', { name: 'n'.repeat(101), month: 1, day: 1 }, ['name']],
    ['an empty body', {}, ['day', 'month', 'name']],
    ['an unknown key', { name: 'x', month: 1, day: 1, year: 2025 }, ['year']],
  ])('refuses %s naming the field, storing nothing', async (_name, payload, fields) => {
    const before = await countDays();
    const res = await create(payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res).sort()).toEqual(fields);
    expect(await countDays()).toBe(before);
  });

  it('says which days the month has', async () => {
    const res = await create({ name: 'x', month: 2, day: 30 });
    expect(res.json().message).toBe('day: February has days 1 to 29');
  });

  it('takes a 100-character name', async () => {
    expect((await created('n'.repeat(100), 3, 3)).name).toHaveLength(100);
  });
});

describe('listing special days', () => {
  it('orders by month, day, then id, not by creation', async () => {
    await s.ctx.db.deleteFrom('specialDays').execute();
    const dec = await created('Calendar Dec', 12, 31);
    const mar2 = await created('Calendar Mar B', 3, 2);
    const jan = await created('Calendar Jan', 1, 15);
    const mar1 = await created('Calendar Mar A', 3, 1);
    const mar2b = await created('Calendar Mar C', 3, 2);
    expect(await ids('?keyword=calendar')).toEqual([jan.id, mar1.id, mar2.id, mar2b.id, dec.id]);
    const page = (await list('?keyword=calendar&limit=2&offset=2')).json();
    expect(page.result.map((r: SpecialDay) => r.id)).toEqual([mar2.id, mar2b.id]);
    expect(page.total).toBe(5);
  });

  it('filters by keyword (case-insensitive) and status', async () => {
    const a = await created('Mother’s Day', 5, 10);
    const b = await created('Father’s Day', 6, 15);
    const c = await created('Teachers day', 9, 5);
    expect((await setStatus(b.id, { status: 'DEACTIVE' })).statusCode).toBe(200);
    expect(await ids('?keyword=DAY&status=ACTIVE')).toEqual([a.id, c.id]);
    expect(await ids('?keyword=day&status=DEACTIVE')).toEqual([b.id]);
    expect(await ids('?keyword=teachers')).toEqual([c.id]);
    expect(await ids('?keyword=%25')).toEqual([]);
    const all = (await list('?keyword=day')).json();
    expect(all.total).toBe(3);
  });

  it.each([
    ['?limit=1000', 'limit'],
    ['?offset=-1', 'offset'],
    ['?status=SOMETIMES', 'status'],
    ['?month=3', 'month'],
  ])('refuses %s naming the field', async (query, field) => {
    const res = await list(query);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toContain(field);
  });
});

describe('changing a special day', () => {
  it('changes name, month and day, together or one at a time', async () => {
    const d = await created('Movable', 3, 10);
    const name = await update(d.id, { name: 'Moved' });
    expect(name.statusCode, name.body).toBe(200);
    expect(name.json()).toMatchObject({
      message: MESSAGES.specialDayUpdated,
      result: { id: d.id, name: 'Moved', month: 3, day: 10, year: null, status: 'ACTIVE' },
    });
    expect((await update(d.id, { month: 4 })).json().result).toMatchObject({ month: 4, day: 10 });
    expect((await update(d.id, { day: 30 })).json().result).toMatchObject({ month: 4, day: 30 });
    const both = await update(d.id, { month: 2, day: 29, name: 'Leap' });
    expect(both.json().result).toMatchObject({ name: 'Leap', month: 2, day: 29 });
    expect(await stored(d.id)).toMatchObject({ name: 'Leap', month: 2, day: 29 });
  });

  it('checks a day given alone against the stored month', async () => {
    const d = await created('April Day', 4, 5);
    const res = await update(d.id, { day: 31 });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['day']);
    expect(res.json().message).toBe('day: April has days 1 to 30');
    expect(await stored(d.id)).toMatchObject({ month: 4, day: 5 });
  });

  it('checks a month given alone against the stored day, naming month', async () => {
    const d = await created('Month End', 1, 31);
    const res = await update(d.id, { month: 2 });
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['month']);
    expect(res.json().message).toMatch(/^month: February has days 1 to 29/);
    expect(await stored(d.id)).toMatchObject({ month: 1, day: 31 });
    expect((await update(d.id, { month: 3 })).json().result).toMatchObject({ month: 3, day: 31 });
  });

  it.each([
    ['an empty body', {}, ['day', 'month', 'name']],
    ['only empty strings', { name: '', month: '', day: '' }, ['day', 'month', 'name']],
    ['an impossible pair', { month: 11, day: 31 }, ['day']],
    ['month 13', { month: 13 }, ['month']],
    ['day 0', { day: 0 }, ['day']],
    ['a 101-character name', { name: 'n'.repeat(101) }, ['name']],
    ['an unknown key', { name: 'x', year: 2030 }, ['year']],
    ['a status', { status: 'DEACTIVE' }, ['status']],
  ])('refuses %s naming the fields, changing nothing', async (_name, payload, fields) => {
    const d = await created('Steady', 7, 7);
    const res = await update(d.id, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(paths(res).sort()).toEqual(fields);
    expect(await stored(d.id)).toMatchObject({ name: 'Steady', month: 7, day: 7 });
  });

  it('answers 404 for a missing special day, 400 for a bad id', async () => {
    for (const payload of [{ name: 'x' }, { day: 3 }]) {
      const res = await update(999_999, payload);
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(MESSAGES.specialDayNotFound);
    }
    for (const id of ['abc', '-1', '0']) {
      const res = await update(id, { name: 'x' });
      expect(res.statusCode, id).toBe(400);
      expect(paths(res)).toEqual(['id']);
    }
  });

  it('changes the status', async () => {
    const d = await created('Switchable', 8, 8);
    const res = await setStatus(d.id, { status: 'DEACTIVE' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.statusUpdated,
      result: { id: d.id, status: 'DEACTIVE', month: 8, day: 8 },
    });
    const bad = await setStatus(d.id, { status: 'MAYBE' });
    expect(bad.statusCode).toBe(400);
    expect(paths(bad)).toEqual(['status']);
    expect((await setStatus(999_999, { status: 'ACTIVE' })).statusCode).toBe(404);
    expect((await setStatus('abc', { status: 'ACTIVE' })).statusCode).toBe(400);
    expect(await stored(d.id)).toMatchObject({ status: 'DEACTIVE' });
  });
});

describe('setting the year', () => {
  it('sets the given year on every special day; 29 February gets the next leap year', async () => {
    await s.ctx.db.deleteFrom('specialDays').execute();
    const leap = await created('Leap Day', 2, 29);
    const jan = await created('Jan', 1, 1);
    const dec = await created('Dec', 12, 31);
    const off = await created('Switched off', 6, 1);
    await setStatus(off.id, { status: 'DEACTIVE' });

    const res = await setYear(2025);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.yearsUpdated,
      result: { ids: [jan.id, leap.id, off.id, dec.id], count: 4 },
    });
    expect(await stored(jan.id)).toMatchObject({ year: 2025 });
    expect(await stored(dec.id)).toMatchObject({ year: 2025 });
    expect(await stored(off.id)).toMatchObject({ year: 2025, status: 'DEACTIVE' });
    expect(await stored(leap.id)).toMatchObject({ year: 2028, month: 2, day: 29 });

    await setYear(2028);
    expect(await stored(leap.id)).toMatchObject({ year: 2028 });
    expect(await stored(jan.id)).toMatchObject({ year: 2028 });
    // 2100 is not a leap year (divisible by 100, not by 400); 2000 is.
    await setYear(2100);
    expect(await stored(leap.id)).toMatchObject({ year: 2104 });
    expect(await stored(jan.id)).toMatchObject({ year: 2100 });
    await setYear(2000);
    expect(await stored(leap.id)).toMatchObject({ year: 2000 });

    const listed = (await list()).json().result as SpecialDay[];
    expect(listed.map((d) => d.year)).toEqual([2000, 2000, 2000, 2000]);
  });

  it('keeps the year, moving it to a leap year only when the day becomes 29 February', async () => {
    const d = await created('Shifting', 2, 28);
    await setYear(2026);
    expect((await update(d.id, { day: 27 })).json().result).toMatchObject({ year: 2026 });
    expect((await update(d.id, { day: 29 })).json().result).toMatchObject({ year: 2028 });
  });

  it('answers an empty bulk result when there are no special days', async () => {
    await s.ctx.db.deleteFrom('specialDays').execute();
    expect((await setYear(2030)).json()).toEqual({
      message: MESSAGES.yearsUpdated,
      result: { ids: [], count: 0 },
    });
  });

  it.each(['1999', '2101', '0', '-2025', 'abc', '2025.5'])(
    'refuses year %s naming year, changing nothing',
    async (year) => {
      const d = await created('Untouched', 9, 9);
      const res = await setYear(year);
      expect(res.statusCode).toBe(400);
      expect(paths(res)).toEqual(['year']);
      expect(await stored(d.id)).toMatchObject({ year: null });
    },
  );
});

describe('deleting a special day', () => {
  it('moves an unused special day to the trash, from which it comes back; then 404', async () => {
    const d = await created('Short Lived Day', 6, 6);
    const res = await remove(d.id);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.specialDayDeleted, result: { id: d.id } });
    expect(await ids('?keyword=Short Lived Day')).toEqual([]);
    const trash = await s.api({
      method: 'GET',
      url: '/trash?area=specialDays',
      token: s.adminToken,
    });
    expect(trash.json().result).toContainEqual(
      expect.objectContaining({ area: 'specialDays', id: d.id, title: 'Short Lived Day (6/6)' }),
    );
    const again = await remove(d.id);
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(MESSAGES.specialDayNotFound);

    const restore = await s.api({
      method: 'POST',
      url: '/trash/restore',
      token: s.adminToken,
      payload: { items: [{ area: 'specialDays', id: d.id }] },
    });
    expect(restore.statusCode, restore.body).toBe(200);
    expect(await ids('?keyword=Short Lived Day')).toEqual([d.id]);
  });

  it('refuses with 409 while a poster is made for it, and deletes it once none is', async () => {
    const d = await created('Busy Day', 7, 7);
    const poster = await insertPoster(d.id);
    const res = await remove(d.id);
    expect(res.statusCode).toBe(409);
    expect(res.json()).toEqual({
      statusCode: 409,
      error: 'Conflict',
      message: MESSAGES.specialDayInUse,
    });
    expect(await stored(d.id)).toMatchObject({ name: 'Busy Day' });

    await s.ctx.db.deleteFrom('posters').where('id', '=', poster).execute();
    expect((await remove(d.id)).statusCode).toBe(200);
  });

  it('refuses bad ids, naming id', async () => {
    for (const id of ['abc', '-1', '0', '1.5']) {
      const res = await remove(id);
      expect(res.statusCode, id).toBe(400);
      expect(paths(res)).toEqual(['id']);
    }
  });
});

describe('permissions', () => {
  it('needs the specialDay menu: 403 without, each call with its own kind', async () => {
    const d = await created('Guarded Day', 10, 10);
    const none = await s.staff({ category: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    for (const res of [
      await list('', none.token),
      await create({ name: 'x', month: 1, day: 1 }, none.token),
      await update(d.id, { name: 'x' }, none.token),
      await setStatus(d.id, { status: 'DEACTIVE' }, none.token),
      await setYear(2030, none.token),
      await remove(d.id, none.token),
    ]) {
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe(MESSAGES.accessDenied);
    }
    expect(await stored(d.id)).toMatchObject({ name: 'Guarded Day', status: 'ACTIVE', year: null });

    const viewer = await s.staff({ specialDay: ['VIEW'] });
    expect((await list('', viewer.token)).statusCode).toBe(200);
    expect((await setYear(2030, viewer.token)).statusCode).toBe(403);

    const editor = await s.staff({ specialDay: ['CREATE', 'UPDATE'] });
    expect((await create({ name: 'Staff Day', month: 1, day: 2 }, editor.token)).statusCode).toBe(
      200,
    );
    expect((await update(d.id, { name: 'Edited' }, editor.token)).statusCode).toBe(200);
    expect((await setStatus(d.id, { status: 'DEACTIVE' }, editor.token)).statusCode).toBe(200);
    expect((await setYear(2030, editor.token)).statusCode).toBe(200);
    expect(await stored(d.id)).toMatchObject({ year: 2030 });
    expect((await remove(d.id, editor.token)).statusCode).toBe(403);
    const deleter = await s.staff({ specialDay: ['DELETE'] });
    expect((await remove(d.id, deleter.token)).statusCode).toBe(200);
  });
});
