import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, type User, type UserImage } from '@master-admin/contract';
import { multipart, startServer } from './harness.ts';
import { images } from './images.ts';

const s = await startServer();
afterAll(() => s.close());

const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });

let apps: number[];
let categoryId: number;
beforeAll(async () => {
  const make = async (url: string, payload: object) => {
    const res = await admin({ method: 'POST', url, payload });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as number;
  };
  apps = [
    await make('/master-app', { name: 'Users One' }),
    await make('/master-app', { name: 'Users Two' }),
  ];
  categoryId = await make('/category', { name: 'Preview Category' });
});

let phone = 9_000_000_000;
async function register(fields: Record<string, unknown> = {}, token = s.adminToken) {
  return s.api({
    method: 'POST',
    url: '/auth/user/register',
    token,
    payload: {
      name: 'Asha Verma',
      phoneNumber: String(phone++),
      masterAppId: apps[0],
      ...fields,
    },
  });
}
async function newUser(fields: Record<string, unknown> = {}) {
  const res = await register(fields);
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: User }>().result;
}

const list = async (query: string) => {
  const res = await admin({ method: 'GET', url: `/account/user/list?${query}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: User[]; total: number }>();
};

// Files are stored by content: every picture gets a size of its own.
let size = 30;
const solid = (w: number, h: number, color: { r: number; g: number; b: number }) =>
  sharp({ create: { width: w, height: h, channels: 3, background: color } })
    .png()
    .toBuffer();
const png = async () => ({ name: 'a.png', data: await images.png(size++, 20), type: 'image/png' });

async function upload(
  method: 'POST' | 'PUT',
  url: string,
  fields: Record<string, string>,
  file?: { name: string; data: Buffer; type?: string },
  token = s.adminToken,
) {
  return s.api({ method, url, token, ...(await multipart(fields, file ? { file } : {})) });
}

describe('register', () => {
  it('creates an ACTIVE user with its details, in its app', async () => {
    const res = await register({
      name: 'Ravi Kumar',
      phoneNumber: '+919812345678',
      email: 'ravi@example.com',
      designation: 'Shop owner',
      adminAssignName: 'Ravi (Pune)',
      dateLimit: '2027-03-31',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.userCreated,
      result: {
        phoneNumber: '+919812345678',
        status: 'ACTIVE',
        dateLimit: '2027-03-31',
        masterAppId: apps[0],
        masterApp: { id: apps[0], name: 'Users One' },
        userDetail: {
          name: 'Ravi Kumar',
          email: 'ravi@example.com',
          designation: 'Shop owner',
          adminAssignName: 'Ravi (Pune)',
          top: null,
          bottom: null,
          profile: null,
        },
      },
    });
    const row = await s.ctx.db
      .selectFrom('accounts')
      .select(['role', 'passwordHash'])
      .where('id', '=', res.json().result.id)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ role: 'USER', passwordHash: null });
  });

  it('refuses a phone number taken in the same app (409), allows it in another', async () => {
    await newUser({ phoneNumber: '5550001111' });
    const again = await register({ phoneNumber: '5550001111' });
    expect(again.statusCode).toBe(409);
    expect(again.json()).toMatchObject({
      message: MESSAGES.phoneTaken,
      details: [{ path: 'phoneNumber' }],
    });
    const other = await register({ phoneNumber: '5550001111', masterAppId: apps[1] });
    expect(other.statusCode, other.body).toBe(200);
  });

  it('a user cannot sign in to the back-office', async () => {
    await newUser({ phoneNumber: '5550002222' });
    const res = await s.api({
      method: 'POST',
      url: '/auth/admin/login',
      payload: { email: '5550002222', password: 'anything-at-all' },
    });
    expect(res.statusCode).toBe(401);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const before = await s.rowCount('accounts');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ dateLimit: '2026-02-30' }, 'dateLimit'],
      [{ dateLimit: 'tomorrow' }, 'dateLimit'],
      [{ phoneNumber: 'abc' }, 'phoneNumber'],
      [{ phoneNumber: '123' }, 'phoneNumber'],
      [{ email: 'not-an-email' }, 'email'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'a\u0007b' }, 'name'],
      [{ masterAppId: 'abc' }, 'masterAppId'],
      [{ masterAppId: 0 }, 'masterAppId'],
      [{ role: 'SUPER_ADMIN' }, 'role'],
      [{ password: 'secret-password' }, 'password'],
    ];
    for (const [fields, field] of cases) {
      const res = await register(fields);
      expect(res.statusCode, `${JSON.stringify(fields)} ${res.body}`).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toContain(field);
    }
    const noApp = await register({ masterAppId: 999_999 });
    expect(noApp.statusCode).toBe(404);
    expect(noApp.json().details[0].path).toBe('masterAppId');
    expect(await s.rowCount('accounts')).toBe(before);
  });

  it('takes a form-encoded body as the web app sends it, an empty optional as absent', async () => {
    const res = await admin({
      method: 'POST',
      url: '/auth/user/register',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `name=Form+User&phoneNumber=${phone++}&masterAppId=${apps[1]}&email=&dateLimit=`,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().result).toMatchObject({ dateLimit: null, userDetail: { email: null } });
  });
});

describe('list', () => {
  it('filters by keyword (name, email, phone), status and app; DELETED only when asked', async () => {
    const a = await newUser({
      name: 'Kiran Zephyr',
      email: 'kiran@zephyr.test',
      masterAppId: apps[1],
    });
    const b = await newUser({ name: 'Meera Zephyrine', phoneNumber: '7770001234' });
    const c = await newUser({ name: 'Gone Zephyr' });
    expect(
      (await admin({ method: 'DELETE', url: `/account/delete-user/${c.id}` })).statusCode,
    ).toBe(200);

    const byName = await list('keyword=zephyr&limit=100');
    expect(byName.result.map((u) => u.id).sort()).toEqual([a.id, b.id].sort());
    expect(byName.total).toBe(2);
    expect((await list('keyword=ZEPHYR.TEST')).result.map((u) => u.id)).toEqual([a.id]);
    expect((await list('keyword=000123')).result.map((u) => u.id)).toEqual([b.id]);
    expect((await list(`keyword=zephyr&masterAppId=${apps[1]}`)).result.map((u) => u.id)).toEqual([
      a.id,
    ]);
    const deleted = await list('status=DELETED&keyword=zephyr');
    expect(deleted.result.map((u) => u.id)).toEqual([c.id]);

    // Totals without a keyword come from the kept counts and leave DELETED users out too.
    const all = await list('limit=100');
    const active = await list('status=ACTIVE&limit=1');
    const gone = await list('status=DELETED&limit=1');
    expect(all.total).toBe(active.total);
    expect(all.result.some((u) => u.status === 'DELETED')).toBe(false);
    expect(gone.total).toBeGreaterThanOrEqual(1);
    const users = await s.ctx.db
      .selectFrom('accounts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('role', '=', 'USER')
      .where('status', '<>', 'DELETED')
      .executeTakeFirstOrThrow();
    expect(all.total).toBe(Number(users.n));
    // Newest first.
    expect(all.result[0]!.id).toBeGreaterThan(all.result.at(-1)!.id);
    // Back-office accounts are never users.
    expect(all.result.every((u) => u.masterAppId !== null)).toBe(true);
  });

  it('keeps keyword totals and pages exact through register, edit, delete and restore', async () => {
    // Default requests count a keyword on the structure of listed users alone (0016): every
    // write that adds, edits, deletes or restores a user must move it in or out of it.
    const find = async (query: string) => {
      const page = await list(`${query}&limit=100`);
      expect(page.total, query).toBe(page.result.length);
      return page.result.map((u) => u.id);
    };
    const edit = async (id: number, payload: object) => {
      const res = await admin({ method: 'PATCH', url: `/user-details/admin/edit/${id}`, payload });
      expect(res.statusCode, res.body).toBe(200);
    };
    const setStatus = async (id: number, status: string) => {
      const res = await admin({
        method: 'PUT',
        url: `/account/user/status/${id}`,
        payload: { status },
      });
      expect(res.statusCode, res.body).toBe(200);
    };
    const u1 = await newUser({ name: 'Pia Xylophone', phoneNumber: '5559990001' });
    const u2 = await newUser({ name: 'Noor Bell', email: 'noor@xylo.test', masterAppId: apps[1] });
    const u3 = await newUser({ name: 'Ivo Drum', phoneNumber: '5559990003' });

    expect(await find('keyword=XYLO')).toEqual([u2.id, u1.id]);
    expect(await find('keyword=5559990')).toEqual([u3.id, u1.id]);
    await edit(u1.id, { name: 'Pia Harp' });
    await edit(u3.id, { email: 'ivo@xylo.test' });
    expect(await find('keyword=xylo')).toEqual([u3.id, u2.id]);
    await edit(u3.id, { phoneNumber: '5558880003' });
    expect(await find('keyword=5559990')).toEqual([u1.id]);
    expect(await find('keyword=5558880')).toEqual([u3.id]);
    expect(await find(`keyword=xylo&masterAppId=${apps[1]}`)).toEqual([u2.id]);

    // Deleted: out of the default list and its total, found with status=DELETED.
    expect(
      (await admin({ method: 'DELETE', url: `/account/delete-user/${u2.id}` })).statusCode,
    ).toBe(200);
    expect(await find('keyword=xylo')).toEqual([u3.id]);
    expect(await find('keyword=xylo&status=DELETED')).toEqual([u2.id]);
    expect(await find('keyword=xy&status=DELETED')).toEqual([u2.id]);
    expect(await find('keyword=xylo&status=ACTIVE')).toEqual([u3.id]);
    // Not a staff member either, deleted or not.
    const staff = await admin({
      method: 'GET',
      url: '/account/stafflist?keyword=xylo&status=DELETED',
    });
    expect(staff.json()).toMatchObject({ result: [], total: 0 });
    // Restored: back in both.
    await setStatus(u2.id, 'ACTIVE');
    expect(await find('keyword=xylo')).toEqual([u3.id, u2.id]);
    expect(await find('keyword=xylo&status=DELETED')).toEqual([]);
    // Another status keeps the user listed.
    await setStatus(u3.id, 'SUSPENDED');
    expect(await find('keyword=xylo')).toEqual([u3.id, u2.id]);
    expect(await find('keyword=xylo&status=SUSPENDED')).toEqual([u3.id]);
  });

  it('matches LIKE metacharacters literally, and keywords of one or two characters', async () => {
    const app = (
      await admin({ method: 'POST', url: '/master-app', payload: { name: 'Keywords' } })
    ).json().result.id as number;
    const named = async (name: string) => (await newUser({ name, masterAppId: app })).id;
    const under = await named('Qlo_under');
    await named('Qlo-under');
    const percent = await named('Qy 5%off');
    await named('Qy 5 off');
    const slash = await named('Qback\\slash');
    await named('Qbackslash');
    const find = async (keyword: string, scoped: boolean) => {
      const q = `keyword=${encodeURIComponent(keyword)}${scoped ? `&masterAppId=${app}` : ''}`;
      const page = await list(`${q}&limit=100`);
      expect(page.total, keyword).toBe(page.result.length);
      return page.result.map((u) => u.id);
    };
    // Three or more characters (the trigram index), counted on it alone or with the app filter.
    for (const scoped of [false, true]) {
      expect(await find('o_u', scoped)).toEqual([under]);
      expect(await find('5%o', scoped)).toEqual([percent]);
      expect(await find('k\\s', scoped)).toEqual([slash]);
    }
    // Shorter ones are matched by a scan, as literally.
    expect(await find('_', true)).toEqual([under]);
    expect(await find('%', true)).toEqual([percent]);
    expect(await find('\\', true)).toEqual([slash]);
    expect(await find('5%', true)).toEqual([percent]);
    expect((await find('qy', true)).sort()).toHaveLength(2);
  });

  it('refuses bad queries naming the parameter', async () => {
    for (const [query, field] of [
      ['limit=101', 'limit'],
      ['status=GONE', 'status'],
      ['masterAppId=-1', 'masterAppId'],
      ['colour=red', 'colour'],
      ['keyword=a%07b', 'keyword'],
      ['keyword=abc%09', 'keyword'],
    ]) {
      const res = await admin({ method: 'GET', url: `/account/user/list?${query}` });
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details[0].path).toBe(field);
    }
  });
});

describe('edit, date limit, status, banners, delete', () => {
  it('edits details, and keeps the phone unique in the app', async () => {
    const u = await newUser();
    const other = await newUser({ phoneNumber: '6660001111' });
    const res = await admin({
      method: 'PATCH',
      url: `/user-details/admin/edit/${u.id}`,
      payload: { name: 'New Name', designation: 'Teacher', email: 'new@example.com' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.userUpdated,
      result: {
        userDetail: { name: 'New Name', designation: 'Teacher', email: 'new@example.com' },
      },
    });
    const taken = await admin({
      method: 'PATCH',
      url: `/user-details/admin/edit/${u.id}`,
      payload: { phoneNumber: other.phoneNumber },
    });
    expect(taken.statusCode).toBe(409);
    const moved = await admin({
      method: 'PATCH',
      url: `/user-details/admin/edit/${u.id}`,
      payload: { phoneNumber: other.phoneNumber, masterAppId: apps[1] },
    });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().result.masterApp.name).toBe('Users Two');
    const none = await admin({
      method: 'PATCH',
      url: `/user-details/admin/edit/${u.id}`,
      payload: {},
    });
    expect(none.statusCode).toBe(400);
  });

  it('sets and clears the date limit; refuses a bad date', async () => {
    const u = await newUser();
    const set = await admin({
      method: 'PATCH',
      url: `/account/update-datelimit/${u.id}`,
      payload: { dateLimit: '2027-01-15' },
    });
    expect(set.statusCode, set.body).toBe(200);
    expect(set.json()).toMatchObject({
      message: MESSAGES.dateLimitUpdated,
      result: { dateLimit: '2027-01-15' },
    });
    const cleared = await admin({
      method: 'PATCH',
      url: `/account/update-datelimit/${u.id}`,
      payload: { dateLimit: '' },
    });
    expect(cleared.json().result.dateLimit).toBeNull();
    const bad = await admin({
      method: 'PATCH',
      url: `/account/update-datelimit/${u.id}`,
      payload: { dateLimit: '2027-13-01' },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().details[0].path).toBe('dateLimit');
  });

  it('uploads top and bottom banners (thumbnails beside them), replacing the old file', async () => {
    const u = await newUser();
    const top = await upload('PUT', `/user-details/top-banner/${u.id}`, {}, await png());
    expect(top.statusCode, top.body).toBe(200);
    expect(top.json().message).toBe(MESSAGES.topBannerUpdated);
    const firstTop = top.json().result.userDetail.top as string;
    expect(firstTop).toMatch(/^\/media\/users\/[0-9a-f]{2}\/[0-9a-f]{64}\.webp$/);
    expect(s.storedFiles()).toContain(
      firstTop.slice('/media/'.length).replace(/\.webp$/, '.thumb.webp'),
    );
    const bottom = await upload('PUT', `/user-details/bottom-banner/${u.id}`, {}, await png());
    expect(bottom.json()).toMatchObject({
      message: MESSAGES.bottomBannerUpdated,
      result: { userDetail: { top: firstTop, bottom: expect.stringMatching(/^\/media\/users\//) } },
    });
    const again = await upload('PUT', `/user-details/top-banner/${u.id}`, {}, await png());
    expect(again.json().result.userDetail.top).not.toBe(firstTop);
    expect(s.storedFiles()).not.toContain(firstTop.slice('/media/'.length));
    const svg = await upload(
      'PUT',
      `/user-details/top-banner/${u.id}`,
      {},
      {
        name: 'x.svg',
        data: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"></svg>'),
      },
    );
    expect(svg.statusCode).toBe(415);
    const noFile = await upload('PUT', `/user-details/top-banner/${u.id}`, {});
    expect(noFile.statusCode).toBe(400);
  });

  it('deletes (status DELETED, files kept) and a status change restores the user', async () => {
    const u = await newUser({ phoneNumber: '4440001111' });
    const top = await upload('PUT', `/user-details/top-banner/${u.id}`, {}, await png());
    const file = (top.json().result.userDetail.top as string).slice('/media/'.length);
    const del = await admin({ method: 'DELETE', url: `/account/delete-user/${u.id}` });
    expect(del.json()).toEqual({ message: MESSAGES.userDeleted, result: { id: u.id } });
    expect(s.storedFiles()).toContain(file);
    const one = await admin({ method: 'GET', url: `/account/user/${u.id}` });
    expect(one.json().status).toBe('DELETED');
    // The number is free again while the account is DELETED …
    const reuse = await newUser({ phoneNumber: '4440001111' });
    const restore = await admin({
      method: 'PUT',
      url: `/account/user/status/${u.id}`,
      payload: { status: 'ACTIVE' },
    });
    expect(restore.statusCode).toBe(409);
    // … and restoring works once it is free.
    await admin({ method: 'DELETE', url: `/account/delete-user/${reuse.id}` });
    const ok = await admin({
      method: 'PUT',
      url: `/account/user/status/${u.id}`,
      payload: { status: 'ACTIVE' },
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json()).toMatchObject({
      message: MESSAGES.statusUpdated,
      result: { status: 'ACTIVE' },
    });
  });

  it('answers 404 for a missing account and for a staff account; 400 for odd ids', async () => {
    const staff = await s.staff();
    for (const id of [999_999, staff.id]) {
      for (const [method, url, payload] of [
        ['GET', `/account/user/${id}`, undefined],
        ['PATCH', `/user-details/admin/edit/${id}`, { name: 'X' }],
        ['PATCH', `/account/update-datelimit/${id}`, { dateLimit: '' }],
        ['PUT', `/account/user/status/${id}`, { status: 'ACTIVE' }],
        ['DELETE', `/account/delete-user/${id}`, undefined],
        ['GET', `/wallets/all/${id}`, undefined],
        ['GET', `/top/${id}`, undefined],
        ['GET', `/self/${id}?position=LEFT`, undefined],
      ] as const) {
        const res = await admin({ method, url, payload });
        expect(res.statusCode, `${method} ${url}`).toBe(404);
      }
    }
    for (const id of ['0', '-1', 'abc', '01']) {
      const res = await admin({ method: 'GET', url: `/account/user/${id}` });
      expect(res.statusCode, id).toBe(400);
    }
  });
});

describe("a user's numbered images", () => {
  const post = (kind: string, accountId: number, fields: Record<string, string>, file?: object) =>
    upload('POST', `/${kind}/${accountId}`, fields, file as never);

  it('uploads each kind with a number, lists by number, replaces, renumbers, deletes', async () => {
    const u = await newUser();
    for (const kind of ['top', 'self', 'bottom'] as const) {
      const extra: Record<string, string> = kind === 'self' ? { position: 'RIGHT' } : {};
      const title = kind[0]!.toUpperCase() + kind.slice(1);
      const five = await post(kind, u.id, { defNum: '5', ...extra }, await png());
      expect(five.statusCode, five.body).toBe(200);
      expect(five.json().message).toBe(`${title} image uploaded successfully`);
      const two = await post(kind, u.id, { defNum: '2', ...extra }, await png());
      const taken = await post(kind, u.id, { defNum: '5', ...extra }, await png());
      expect(taken.statusCode).toBe(409);
      expect(taken.json().message).toBe('This default number already exists for this user!');

      const res = await admin({ method: 'GET', url: `/${kind}/${u.id}` });
      const page = res.json<{ result: UserImage[]; total: number }>();
      expect(page.total).toBe(2);
      expect(page.result.map((i) => i.defNum)).toEqual([2, 5]);
      expect(page.result[0]).toMatchObject({
        accountId: u.id,
        image: expect.stringMatching(/^\/media\/user-images\//),
      });
      if (kind === 'self') expect(page.result[0]!.position).toBe('RIGHT');
      else expect(page.result[0]).not.toHaveProperty('position');

      const id = two.json().result.id as number;
      const oldFile = (two.json().result.image as string).slice('/media/'.length);
      const replaced = await upload('PUT', `/${kind}/update/${id}`, {}, await png());
      expect(replaced.json().message).toBe(`${title} image updated successfully`);
      expect(s.storedFiles()).not.toContain(oldFile);

      const renumber = await admin({
        method: 'PATCH',
        url: `/${kind}/def-num-update/${id}`,
        payload: { defNum: 5 },
      });
      expect(renumber.statusCode).toBe(409);
      const renumbered = await admin({
        method: 'PATCH',
        url: `/${kind}/def-num-update/${id}`,
        payload: { defNum: 9, accountId: u.id },
      });
      expect(renumbered.statusCode, renumbered.body).toBe(200);
      expect(renumbered.json().result.defNum).toBe(9);
      const wrongOwner = await admin({
        method: 'PATCH',
        url: `/${kind}/def-num-update/${id}`,
        payload: { defNum: 10, accountId: u.id + 1000 },
      });
      expect(wrongOwner.statusCode).toBe(400);
      expect(wrongOwner.json().details[0].path).toBe('accountId');

      const removed = await admin({ method: 'DELETE', url: `/${kind}/remove/${id}` });
      expect(removed.json()).toEqual({
        message: `${title} image deleted successfully`,
        result: { id },
      });
      const after = await admin({ method: 'GET', url: `/${kind}/${u.id}` });
      expect(after.json().total).toBe(1);
    }
  });

  it('changes the side of a self image and filters self images by side', async () => {
    const u = await newUser();
    const a = await post('self', u.id, { defNum: '1', position: 'LEFT' }, await png());
    await post('self', u.id, { defNum: '2', position: 'RIGHT' }, await png());
    const moved = await admin({
      method: 'PATCH',
      url: `/self/position/${a.json().result.id}`,
      payload: { position: 'RIGHT' },
    });
    expect(moved.json()).toMatchObject({
      message: MESSAGES.selfPositionUpdated,
      result: { position: 'RIGHT' },
    });
    const right = await admin({ method: 'GET', url: `/self/${u.id}?position=RIGHT` });
    expect(right.json().total).toBe(2);
    const left = await admin({ method: 'GET', url: `/self/${u.id}?position=LEFT` });
    expect(left.json().total).toBe(0);
    // An image of another kind is not a self image.
    const top = await post('top', u.id, { defNum: '1' }, await png());
    const wrong = await admin({
      method: 'PATCH',
      url: `/self/position/${top.json().result.id}`,
      payload: { position: 'LEFT' },
    });
    expect(wrong.statusCode).toBe(404);
  });

  it('refuses numbers 0, 1000 and "abc", a missing side, and a missing file; stores nothing', async () => {
    const u = await newUser();
    const files = s.storedFiles().length;
    for (const defNum of ['0', '1000', 'abc', '1.5', '']) {
      const res = await post('top', u.id, { defNum }, await png());
      expect(res.statusCode, defNum).toBe(400);
      expect(res.json().details[0].path).toBe('defNum');
    }
    const noSide = await post('self', u.id, { defNum: '1' }, await png());
    expect(noSide.statusCode).toBe(400);
    expect(noSide.json().details[0].path).toBe('position');
    const noFile = await post('bottom', u.id, { defNum: '1' });
    expect(noFile.statusCode).toBe(400);
    expect(noFile.json().details[0].path).toBe('file');
    const unknown = await post('top', u.id, { defNum: '1', colour: 'red' }, await png());
    expect(unknown.statusCode).toBe(400);
    expect(s.storedFiles().length).toBe(files);
  });

  it('answers 404 for a missing account or a staff account, and for a missing image', async () => {
    const staff = await s.staff();
    for (const id of [999_999, staff.id]) {
      const res = await post('top', id, { defNum: '1' }, await png());
      expect(res.statusCode).toBe(404);
      expect((await admin({ method: 'GET', url: `/bottom/${id}` })).statusCode).toBe(404);
    }
    expect((await admin({ method: 'DELETE', url: '/top/remove/999999' })).statusCode).toBe(404);
    expect((await upload('PUT', '/self/update/999999', {}, await png())).statusCode).toBe(404);
    expect(
      (
        await admin({
          method: 'PATCH',
          url: '/bottom/def-num-update/999999',
          payload: { defNum: 1 },
        })
      ).statusCode,
    ).toBe(404);
  });

  it('lets exactly one of several concurrent uploads of the same number win', async () => {
    const u = await newUser();
    for (const kind of ['top', 'self', 'bottom']) {
      const bodies = await Promise.all(
        Array.from({ length: 6 }, async () =>
          multipart(
            { defNum: '7', ...(kind === 'self' ? { position: 'LEFT' } : {}) },
            { file: await png() },
          ),
        ),
      );
      const results = await Promise.all(
        bodies.map((body) =>
          s.api({ method: 'POST', url: `/${kind}/${u.id}`, token: s.adminToken, ...body }),
        ),
      );
      const codes = results.map((r) => r.statusCode).sort();
      expect(codes, kind).toEqual([200, 409, 409, 409, 409, 409]);
      const rows = await s.ctx.db
        .selectFrom('userImages')
        .select('image')
        .where('accountId', '=', u.id)
        .where('kind', '=', kind as 'top')
        .execute();
      expect(rows).toHaveLength(1);
    }
    // The losers' files were let go: only the winners' (and their thumbnails) remain.
    const keys = await s.ctx.db
      .selectFrom('userImages')
      .select('image')
      .where('accountId', '=', u.id)
      .execute();
    const stored = s.storedFiles().filter((f) => f.startsWith('user-images/'));
    for (const { image } of keys) expect(stored).toContain(image);
  });
});

describe('odd input to the image, wallet and history calls', () => {
  it('answers 400 naming the field, never a 500, and changes nothing', async () => {
    const u = await newUser();
    const before = await s.rowCount('userImages');
    const cases: Array<[string, string, unknown, string]> = [
      ['GET', `/top/${u.id}?limit=101`, undefined, 'limit'],
      ['GET', `/top/${u.id}?offset=-1`, undefined, 'offset'],
      ['GET', `/top/${u.id}?keyword=a`, undefined, 'keyword'],
      ['GET', `/self/${u.id}?position=UP`, undefined, 'position'],
      ['GET', `/bottom/${u.id}?position=LEFT`, undefined, 'position'],
      ['GET', `/wallets/all/${u.id}?limit=0`, undefined, 'limit'],
      ['GET', `/wallets/all/${u.id}?keyword=${'x'.repeat(101)}`, undefined, 'keyword'],
      ['GET', `/login-history/all/${u.id}?sort=ip`, undefined, 'sort'],
      ['GET', '/login-history/own?limit=abc', undefined, 'limit'],
      ['PATCH', '/top/def-num-update/1', { defNum: 0 }, 'defNum'],
      ['PATCH', '/self/def-num-update/1', { defNum: '7', colour: 'red' }, 'colour'],
      ['PATCH', '/bottom/def-num-update/1', { defNum: 1000 }, 'defNum'],
      ['PATCH', '/self/position/1', { position: 'MIDDLE' }, 'position'],
      [
        'PATCH',
        `/user-details/admin/edit/${u.id}`,
        { designation: 'x'.repeat(101) },
        'designation',
      ],
      [
        'PATCH',
        `/user-details/admin/edit/${u.id}`,
        { adminAssignName: 'a\u0000b' },
        'adminAssignName',
      ],
      ['PATCH', `/user-details/admin/edit/${u.id}`, { name: 42 }, 'name'],
    ];
    for (const [method, url, payload, field] of cases) {
      const res = await admin({ method: method, url, payload: payload as object });
      expect(res.statusCode, `${method} ${url} ${res.body}`).toBe(400);
      expect(
        res.json().details.map((d: { path: string }) => d.path),
        `${method} ${url}`,
      ).toContain(field);
    }
    for (const id of ['0', '-1', 'abc', '01', '2147483648']) {
      for (const url of [`/top/${id}`, `/wallets/all/${id}`, `/login-history/all/${id}`]) {
        const res = await admin({ method: 'GET', url });
        expect(res.statusCode, url).toBe(400);
      }
      const del = await admin({ method: 'DELETE', url: `/self/remove/${id}` });
      expect(del.statusCode, `/self/remove/${id}`).toBe(400);
    }
    expect(await s.rowCount('userImages')).toBe(before);
  });
});

describe('wallet and login history', () => {
  it('lists a user’s wallet rows newest first, with keyword and total', async () => {
    const u = await newUser();
    const other = await newUser();
    const rows = [
      { reward: 10, depositFor: 'REGISTER', status: 'DEPOSIT', feed: 'Welcome bonus' },
      { reward: 5, depositFor: 'SHARED', status: 'DEPOSIT', feed: 'Shared a Diwali poster' },
      { reward: 3, depositFor: 'POST', status: 'WITHDRAW', feed: null },
    ] as const;
    await s.ctx.db
      .insertInto('wallets')
      .values([
        ...rows.map((r, i) => ({
          ...r,
          accountId: u.id,
          createdAt: new Date(Date.UTC(2026, 0, 1 + i)).toISOString(),
        })),
        {
          reward: 1,
          depositFor: 'LIKE',
          status: 'FINED',
          feed: 'Diwali',
          accountId: other.id,
          createdAt: new Date().toISOString(),
        },
      ])
      .execute();
    const res = await admin({ method: 'GET', url: `/wallets/all/${u.id}` });
    expect(res.statusCode, res.body).toBe(200);
    const page = res.json();
    expect(page.total).toBe(3);
    expect(page.result.map((r: { reward: number }) => r.reward)).toEqual([3, 5, 10]);
    expect(page.result[0]).toEqual({
      id: expect.any(Number),
      reward: 3,
      depositFor: 'POST',
      status: 'WITHDRAW',
      feed: null,
      createdAt: expect.any(String),
    });
    const diwali = await admin({ method: 'GET', url: `/wallets/all/${u.id}?keyword=diwali` });
    expect(diwali.json()).toMatchObject({ total: 1, result: [{ feed: 'Shared a Diwali poster' }] });
    const paged = await admin({ method: 'GET', url: `/wallets/all/${u.id}?limit=1&offset=1` });
    expect(paged.json()).toMatchObject({ total: 3, result: [{ reward: 5 }] });
  });

  it('lists a user’s sign-ins, and the caller’s own', async () => {
    const u = await newUser();
    await s.ctx.db
      .insertInto('loginHistory')
      .values([
        {
          accountId: u.id,
          ip: '203.0.113.7',
          latitude: 18.52,
          longitude: 73.85,
          status: 'IN',
          createdAt: '2026-01-01T10:00:00.000Z',
        },
        {
          accountId: u.id,
          ip: '203.0.113.7',
          latitude: null,
          longitude: null,
          status: 'OUT',
          createdAt: '2026-01-01T11:00:00.000Z',
        },
        {
          accountId: u.id,
          ip: '198.51.100.2',
          latitude: null,
          longitude: null,
          status: 'IN',
          createdAt: '2026-01-02T10:00:00.000Z',
        },
      ])
      .execute();
    const res = await admin({ method: 'GET', url: `/login-history/all/${u.id}` });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().total).toBe(3);
    expect(res.json().result[0]).toEqual({
      id: expect.any(Number),
      ip: '198.51.100.2',
      latitude: null,
      longitude: null,
      status: 'IN',
      device: null,
      createdAt: '2026-01-02T10:00:00.000Z',
    });
    expect(res.json().result[2]).toMatchObject({ latitude: 18.52, longitude: 73.85 });
    const byIp = await admin({
      method: 'GET',
      url: `/login-history/all/${u.id}?keyword=203.0.113`,
    });
    expect(byIp.json().total).toBe(2);

    const staff = await s.staff();
    const own = await s.api({ method: 'GET', url: '/login-history/own', token: staff.token });
    expect(own.statusCode).toBe(200);
    expect(own.json()).toMatchObject({ total: 1, result: [{ status: 'IN' }] });
    const missing = await admin({ method: 'GET', url: '/login-history/all/999999' });
    expect(missing.statusCode).toBe(404);
  });

  it('a staff or admin account’s history is SUPER_ADMIN only', async () => {
    const u = await newUser();
    const viewer = await s.staff({ users: ['VIEW'] });
    const other = await s.staff();
    const asViewer = (id: number) =>
      s.api({ method: 'GET', url: `/login-history/all/${id}`, token: viewer.token });
    expect((await asViewer(u.id)).statusCode).toBe(200);
    expect((await asViewer(other.id)).statusCode).toBe(403);
    const adminOwn = await admin({ method: 'GET', url: `/login-history/all/${other.id}` });
    expect(adminOwn.statusCode).toBe(200);
    expect(adminOwn.json().total).toBe(1);
  });
});

describe('access', () => {
  it('refuses staff without the users permission (403) and lets staff with it through', async () => {
    const none = await s.staff({ poster: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    const all = await s.staff({ users: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    const u = await newUser();
    const calls = [
      ['GET', '/account/user/list'],
      ['GET', `/account/user/${u.id}`],
      ['GET', `/top/${u.id}`],
      ['GET', `/wallets/all/${u.id}`],
      ['PATCH', `/account/update-datelimit/${u.id}`, { dateLimit: '2027-01-01' }],
      ['PUT', `/account/user/status/${u.id}`, { status: 'ACTIVE' }],
    ] as const;
    for (const [method, url, payload] of calls) {
      const denied = await s.api({ method, url, payload, token: none.token });
      expect(denied.statusCode, `${method} ${url}`).toBe(403);
      const allowed = await s.api({ method, url, payload, token: all.token });
      expect(allowed.statusCode, `${method} ${url} ${allowed.body}`).toBe(200);
    }
    expect((await register({}, none.token)).statusCode).toBe(403);
    expect((await register({}, all.token)).statusCode).toBe(200);
    const img = await upload(
      'POST',
      `/self/${u.id}`,
      { defNum: '3', position: 'LEFT' },
      await png(),
      none.token,
    );
    expect(img.statusCode).toBe(403);
    const ok = await upload(
      'POST',
      `/self/${u.id}`,
      { defNum: '3', position: 'LEFT' },
      await png(),
      all.token,
    );
    expect(ok.statusCode).toBe(200);
  });
});

describe('poster preview', () => {
  const W = 200;
  const H = 300;
  let posterId: number;
  let u: User;
  const red = { r: 220, g: 30, b: 30 };
  const green = { r: 30, g: 200, b: 60 };
  const blue = { r: 30, g: 60, b: 220 };
  const white = { r: 250, g: 250, b: 250 };

  beforeAll(async () => {
    const res = await s.api({
      method: 'POST',
      url: `/poster/only-cat/${categoryId}`,
      token: s.adminToken,
      ...(await multipart(
        {
          position: 'RIGHT',
          topDefNum: '1',
          selfDefNum: '2',
          bottomDefNum: '3',
          masterAppId: String(apps[0]),
        },
        { file: { name: 'p.png', data: await solid(W, H, white), type: 'image/png' } },
      )),
    });
    expect(res.statusCode, res.body).toBe(200);
    posterId = res.json().result.id;
    u = await newUser();
  });

  const preview = (p = posterId, a = u.id, token = s.adminToken) =>
    s.api({ method: 'GET', url: `/poster/preview/${p}/${a}`, token });
  const pixel = async (image: Buffer, x: number, y: number) => {
    const { data, info } = await sharp(image).raw().toBuffer({ resolveWithObject: true });
    const i = (y * info.width + x) * info.channels;
    return { r: data[i]!, g: data[i + 1]!, b: data[i + 2]! };
  };
  const near = (a: { r: number; g: number; b: number }, b: { r: number; g: number; b: number }) =>
    Math.abs(a.r - b.r) + Math.abs(a.g - b.g) + Math.abs(a.b - b.b) < 60;

  it('with no images: the poster itself, every slot named missing', async () => {
    const res = await preview();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toBe('image/webp');
    expect(res.headers['x-preview-missing']).toBe('top,self,bottom');
    const meta = await sharp(res.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['webp', W, H]);
    expect(near(await pixel(res.rawPayload, 5, 5), white)).toBe(true);
  });

  it('composes top, bottom and the self photo on the poster’s side, at the poster’s width', async () => {
    await upload(
      'POST',
      `/top/${u.id}`,
      { defNum: '1' },
      { name: 't.png', data: await solid(100, 20, red) },
    );
    await upload(
      'POST',
      `/bottom/${u.id}`,
      { defNum: '3' },
      { name: 'b.png', data: await solid(100, 25, blue) },
    );
    await upload(
      'POST',
      `/self/${u.id}`,
      { defNum: '2', position: 'LEFT' },
      { name: 's.png', data: await solid(50, 50, green) },
    );
    // Images with other numbers are not used.
    await upload(
      'POST',
      `/top/${u.id}`,
      { defNum: '4' },
      { name: 't.png', data: await solid(100, 20, blue) },
    );

    const res = await preview();
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['x-preview-missing']).toBe('');
    expect(res.headers['x-preview-cache']).toBe('miss');
    const image = res.rawPayload;
    const meta = await sharp(image).metadata();
    expect([meta.width, meta.height]).toEqual([W, H]);
    // Top strip: 100×20 scaled to width 200 → 40 high, red.
    expect(near(await pixel(image, 10, 10), red)).toBe(true);
    expect(near(await pixel(image, 190, 35), red)).toBe(true);
    // Bottom strip: 100×25 → 50 high, blue.
    expect(near(await pixel(image, 10, H - 10), blue)).toBe(true);
    // Self photo: 40% of the width (80×80), on the RIGHT (the poster's side), above the bottom strip.
    expect(near(await pixel(image, W - 10, H - 60), green)).toBe(true);
    expect(near(await pixel(image, 10, H - 60), white)).toBe(true);
    // The middle stays the poster's.
    expect(near(await pixel(image, 100, 100), white)).toBe(true);

    const again = await preview();
    expect(again.headers['x-preview-cache']).toBe('hit');
    expect(again.rawPayload.equals(image)).toBe(true);
  });

  it('a changed image gives a new picture; a missing one leaves its slot empty', async () => {
    const first = await preview();
    const tops = await admin({ method: 'GET', url: `/top/${u.id}` });
    const top1 = tops.json().result.find((i: UserImage) => i.defNum === 1) as UserImage;
    await upload(
      'PUT',
      `/top/update/${top1.id}`,
      {},
      { name: 't.png', data: await solid(100, 20, green) },
    );
    const changed = await preview();
    expect(changed.headers['x-preview-cache']).toBe('miss');
    expect(changed.rawPayload.equals(first.rawPayload)).toBe(false);
    expect(near(await pixel(changed.rawPayload, 10, 10), green)).toBe(true);

    await admin({ method: 'DELETE', url: `/top/remove/${top1.id}` });
    const gone = await preview();
    expect(gone.headers['x-preview-missing']).toBe('top');
    expect(near(await pixel(gone.rawPayload, 10, 10), white)).toBe(true);
  });

  it('answers 404 for a missing poster, a missing user and a staff account; needs poster VIEW', async () => {
    const staff = await s.staff({ users: ['VIEW'] });
    expect((await preview(999_999)).statusCode).toBe(404);
    expect((await preview(posterId, 999_999)).statusCode).toBe(404);
    expect((await preview(posterId, staff.id)).statusCode).toBe(404);
    expect((await preview(posterId, u.id, staff.token)).statusCode).toBe(403);
    const viewer = await s.staff({ poster: ['VIEW'] });
    expect((await preview(posterId, u.id, viewer.token)).statusCode).toBe(200);
    expect((await admin({ method: 'GET', url: `/poster/preview/0/${u.id}` })).statusCode).toBe(400);
  });
});
