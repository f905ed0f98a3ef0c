/** Staff accounts, menus and per-menu permissions (issue #10): SUPER_ADMIN only. */
import { afterAll, describe, expect, it } from 'vitest';
import {
  BUILT_IN_MENUS,
  MESSAGES,
  PERMISSION_KINDS,
  type MenuPermissionGroup,
  type PermissionEntry,
  type Staff,
} from '@master-admin/contract';
import { createPermissionRows } from '../src/features/accounts/service.ts';
import { startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

type Res = Awaited<ReturnType<typeof s.api>>;
const paths = (res: Res) =>
  (res.json<{ details?: Array<{ path: string }> }>().details ?? []).map((d) => d.path);

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const call = (method: Method, url: string, payload?: object, token = s.adminToken) =>
  s.api({ method, url, token, ...(payload === undefined ? {} : { payload }) });

let seq = 0;
const fresh = () => {
  seq += 1;
  return {
    name: `Staff Member ${seq}`,
    email: `member${seq}@staff.test`,
    phoneNumber: `+9198765${String(seq).padStart(5, '0')}`,
    password: 'tidal-copper-lantern-8',
    roles: 'Editor',
  };
};

async function createStaff(overrides: Record<string, unknown> = {}) {
  const body = { ...fresh(), ...overrides };
  const res = await call('POST', '/account/add-staff', body);
  expect(res.statusCode, res.body).toBe(200);
  return { ...(res.json().result as Staff), body };
}

const listIds = async (query = '') =>
  ((await call('GET', `/account/stafflist${query}`)).json().result as Staff[]).map((r) => r.id);

async function permsOf(accountId: number): Promise<MenuPermissionGroup[]> {
  const res = await call('GET', `/user-permissions/list/${accountId}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().perms;
}

const entry = (perms: MenuPermissionGroup[], menu: string, kind: string): PermissionEntry =>
  perms.find((g) => g.name === menu)!.userPermission.find((p) => p.permission.name === kind)!;

describe('creating a staff account', () => {
  it('answers the row, ACTIVE, with one permission row per menu and kind, all off', async () => {
    const body = fresh();
    const res = await call('POST', '/account/add-staff', body);
    expect(res.statusCode, res.body).toBe(200);
    const { message, result } = res.json();
    expect(message).toBe(MESSAGES.staffCreated);
    expect(result).toEqual({
      id: expect.any(Number),
      version: 1,
      phoneNumber: body.phoneNumber,
      roles: 'Editor',
      status: 'ACTIVE',
      createdAt: expect.any(String),
      secondFactor: false,
      staffDetail: [{ id: result.id, name: body.name, email: body.email }],
    });
    expect(JSON.stringify(res.json())).not.toMatch(/password/i);
    const stored = await s.ctx.db
      .selectFrom('accounts')
      .select(['role', 'passwordHash'])
      .where('id', '=', result.id)
      .executeTakeFirstOrThrow();
    expect(stored.role).toBe('STAFF');
    expect(stored.passwordHash).toMatch(/^\$argon2id\$/);

    const perms = await permsOf(result.id);
    expect(perms.map((g) => g.name)).toEqual(BUILT_IN_MENUS.map((m) => m.name));
    for (const group of perms) {
      expect(group.userPermission.map((p) => p.permission.name)).toEqual([...PERMISSION_KINDS]);
      expect(group.userPermission.every((p) => p.status === false)).toBe(true);
      expect(group.userPermission.every((p) => p.accountId === result.id)).toBe(true);
    }
    // It signs in with its email or phone number, and has no rights yet.
    const token = await s.login(body.email, body.password);
    await s.login(body.phoneNumber, body.password);
    expect((await call('GET', '/category/list', undefined, token)).statusCode).toBe(403);
    const mine = await call('GET', '/account/me/permissions', undefined, token);
    expect(mine.json()).toEqual({ role: 'STAFF', grants: {} });
  });

  it('accepts a form-encoded body', async () => {
    const body = fresh();
    const res = await s.api({
      method: 'POST',
      url: '/account/add-staff',
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams(body).toString(),
    });
    expect(res.statusCode, res.body).toBe(200);
  });

  it('refuses an email held by staff or the admin, in any case, with 409 and adds nothing', async () => {
    const first = await createStaff();
    const before = await s.rowCount('accounts');
    const permRows = await s.rowCount('userPermissions');
    for (const email of [first.body.email.toUpperCase(), 'admin@test.local']) {
      const res = await call('POST', '/account/add-staff', { ...fresh(), email });
      expect(res.statusCode, email).toBe(409);
      expect(res.json().message).toBe(MESSAGES.emailTaken);
      expect(paths(res)).toEqual(['email']);
    }
    const phone = await call('POST', '/account/add-staff', {
      ...fresh(),
      phoneNumber: first.body.phoneNumber,
    });
    expect(phone.statusCode).toBe(409);
    expect(paths(phone)).toEqual(['phoneNumber']);
    expect(await s.rowCount('accounts')).toBe(before);
    expect(await s.rowCount('userPermissions')).toBe(permRows);
  });

  it('refuses bad input naming each field, adding nothing', async () => {
    const before = await s.rowCount('accounts');
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ password: 'short' }, 'password'],
      [{ password: 'x'.repeat(129) }, 'password'],
      [{ password: 'password\u0000123' }, 'password'],
      [{ email: 'not-an-email' }, 'email'],
      [{ email: `${'a'.repeat(250)}@x.io` }, 'email'],
      [{ phoneNumber: '12ab' }, 'phoneNumber'],
      [{ phoneNumber: '1'.repeat(21) }, 'phoneNumber'],
      [{ name: '' }, 'name'],
      [{ name: 'x'.repeat(101) }, 'name'],
      [{ name: 'bad\u0007name' }, 'name'],
      [{ roles: 'x'.repeat(51) }, 'roles'],
      [{ roles: 42 }, 'roles'],
      [{ role: 'SUPER_ADMIN' }, 'role'],
      [{ status: 'ACTIVE' }, 'status'],
    ];
    for (const [change, field] of cases) {
      const res = await call('POST', '/account/add-staff', { ...fresh(), ...change });
      expect(res.statusCode, JSON.stringify(change)).toBe(400);
      expect(paths(res), JSON.stringify(change)).toContain(field);
    }
    const missing = await call('POST', '/account/add-staff', {});
    expect(missing.statusCode).toBe(400);
    expect(paths(missing).sort()).toEqual(['email', 'name', 'password', 'phoneNumber', 'roles']);
    expect(await s.rowCount('accounts')).toBe(before);
  });
});

describe('the staff list', () => {
  it('filters by keyword over name, email and phone and by status, newest first', async () => {
    const a = await createStaff({ name: 'Zebulon Quartz' });
    const b = await createStaff({ email: 'quartzy@staff.test' });
    const c = await createStaff({ phoneNumber: '+447700900123' });
    await call('PUT', `/account/staff/status/${c.id}`, { status: 'SUSPENDED' });

    // End users share the accounts table (and the search structure): never in this list.
    const app = await call('POST', '/master-app', { name: 'Quartz App' });
    const user = await call('POST', '/auth/user/register', {
      name: 'Quartz Customer',
      phoneNumber: '9100000001',
      masterAppId: app.json().result.id,
    });
    expect(user.statusCode, user.body).toBe(200);

    expect(await listIds('?keyword=QUARTZ')).toEqual([b.id, a.id]);
    expect((await call('GET', '/account/stafflist?keyword=quartz')).json().total).toBe(2);
    expect(await listIds('?keyword=qu')).toEqual(expect.arrayContaining([b.id, a.id]));
    expect(await listIds('?keyword=7700900')).toEqual([c.id]);
    expect(await listIds('?keyword=7700900&status=ACTIVE')).toEqual([]);
    expect(await listIds('?keyword=7700900&status=SUSPENDED')).toEqual([c.id]);

    const page = (await call('GET', '/account/stafflist?limit=2')).json();
    expect(page.result).toHaveLength(2);
    expect(page.result[0].id).toBe(c.id);
    const all = (await call('GET', '/account/stafflist?limit=100')).json();
    expect(all.total).toBe(all.result.length);
    // Only staff: the admin never shows.
    expect(all.result.every((r: Staff) => r.staffDetail[0]!.email !== 'admin@test.local')).toBe(
      true,
    );
  });

  it('says who has a second factor: a confirmed authenticator app or a passkey', async () => {
    const none = await createStaff();
    const unconfirmed = await createStaff();
    const app = await createStaff();
    const passkey = await createStaff();
    const at = new Date().toISOString();
    await s.ctx.db
      .insertInto('totpFactors')
      .values([
        { accountId: unconfirmed.id, secret: 'JBSWY3DPEHPK3PXP', createdAt: at, confirmedAt: null },
        { accountId: app.id, secret: 'JBSWY3DPEHPK3PXP', createdAt: at, confirmedAt: at },
      ])
      .execute();
    await s.ctx.db
      .insertInto('passkeys')
      .values({
        accountId: passkey.id,
        credentialId: `cred-${passkey.id}`,
        publicKey: 'AQID',
        transports: '',
        name: 'Laptop',
        createdAt: at,
        lastUsedAt: null,
      })
      .execute();
    const rows = (await call('GET', '/account/stafflist?limit=100')).json().result as Staff[];
    const factor = (id: number) => rows.find((r) => r.id === id)?.secondFactor;
    expect([none, unconfirmed, app, passkey].map((m) => factor(m.id))).toEqual([
      false,
      false,
      true,
      true,
    ]);
    // The row as one call answers it says the same.
    const one = await call('GET', `/account/staff/profile/${app.id}`);
    expect(one.json().secondFactor).toBe(true);
  });

  it('leaves DELETED staff out unless status=DELETED is asked, and counts the same', async () => {
    const gone = await createStaff({ name: 'Departed Person' });
    const totalBefore = (await call('GET', '/account/stafflist')).json().total;
    const del = await call('DELETE', `/account/remove-staff/${gone.id}`);
    expect(del.statusCode, del.body).toBe(200);
    expect(del.json()).toEqual({ message: MESSAGES.staffDeleted, result: { id: gone.id } });
    expect(await listIds('?limit=100')).not.toContain(gone.id);
    expect((await call('GET', '/account/stafflist')).json().total).toBe(totalBefore - 1);
    expect(await listIds('?keyword=Departed')).toEqual([]);
    expect(await listIds('?keyword=Departed&status=DELETED')).toEqual([gone.id]);
    expect((await call('GET', '/account/stafflist?status=DELETED')).json().total).toBeGreaterThan(
      0,
    );
  });

  it('refuses bad queries', async () => {
    for (const q of ['limit=101', 'limit=0', 'offset=-1', 'status=GONE', 'role=USER', 'x=1']) {
      const res = await call('GET', `/account/stafflist?${q}`);
      expect(res.statusCode, q).toBe(400);
    }
    const res = await call('GET', `/account/stafflist?keyword=${'k'.repeat(101)}`);
    expect(res.statusCode).toBe(400);
    expect(paths(res)).toEqual(['keyword']);
  });
});

describe('a staff profile', () => {
  it('answers the row with its permission groups; 404 for the admin or no row; 400 for bad ids', async () => {
    const member = await createStaff();
    const res = await call('GET', `/account/staff/profile/${member.id}`);
    expect(res.statusCode).toBe(200);
    const profile = res.json();
    expect(profile).toMatchObject({ id: member.id, roles: 'Editor', status: 'ACTIVE' });
    expect(profile.perms).toEqual(await permsOf(member.id));
    expect((await call('GET', '/account/staff/profile/1')).statusCode).toBe(404);
    expect((await call('GET', '/account/staff/profile/999999')).statusCode).toBe(404);
    for (const bad of ['0', '-1', 'abc', '01', '2147483648']) {
      expect((await call('GET', `/account/staff/profile/${bad}`)).statusCode, bad).toBe(400);
    }
  });
});

describe('editing a staff account', () => {
  it('changes the fields given and keeps the rest', async () => {
    const member = await createStaff();
    const res = await call('PATCH', `/account/update/staff/${member.id}`, {
      name: 'New Name',
      roles: 'Reviewer',
      email: '',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(MESSAGES.staffUpdated);
    expect(res.json().result).toMatchObject({
      roles: 'Reviewer',
      phoneNumber: member.body.phoneNumber,
      staffDetail: [{ id: member.id, name: 'New Name', email: member.body.email }],
    });
    // Its own email, in another case, is not "taken".
    const own = await call('PATCH', `/account/update/staff/${member.id}`, {
      email: member.body.email.toUpperCase(),
    });
    expect(own.statusCode, own.body).toBe(200);
  });

  it('refuses a taken email, nothing given, unknown keys and bad values', async () => {
    const a = await createStaff();
    const b = await createStaff();
    const taken = await call('PATCH', `/account/update/staff/${b.id}`, { email: a.body.email });
    expect(taken.statusCode).toBe(409);
    expect(paths(taken)).toEqual(['email']);
    const none = await call('PATCH', `/account/update/staff/${b.id}`, {});
    expect(none.statusCode).toBe(400);
    expect(paths(none).sort()).toEqual(['email', 'name', 'phoneNumber', 'roles']);
    const unknown = await call('PATCH', `/account/update/staff/${b.id}`, {
      name: 'x',
      password: 'password-999',
    });
    expect(unknown.statusCode).toBe(400);
    expect(paths(unknown)).toEqual(['password']);
    const bad = await call('PATCH', `/account/update/staff/${b.id}`, { phoneNumber: 'abc' });
    expect(bad.statusCode).toBe(400);
    expect((await call('PATCH', '/account/update/staff/1', { name: 'x' })).statusCode).toBe(404);
    const stored = await call('GET', `/account/staff/profile/${b.id}`);
    expect(stored.json().staffDetail[0].email).toBe(b.body.email);
  });
});

describe('revocation', () => {
  it('a new password ends every session of the account at once', async () => {
    const member = await createStaff();
    const token = await s.login(member.body.email, member.body.password);
    expect((await call('GET', '/account/admin-detail', undefined, token)).statusCode).toBe(200);
    const short = await call('PATCH', `/account/staff/password/${member.id}`, {
      password: 'short',
    });
    expect(short.statusCode).toBe(400);
    expect(paths(short)).toEqual(['password']);
    const res = await call('PATCH', `/account/staff/password/${member.id}`, {
      password: 'another-password-1',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().message).toBe(MESSAGES.staffLoginUpdated);
    expect((await call('GET', '/account/admin-detail', undefined, token)).statusCode).toBe(401);
    await expect(s.login(member.body.email, member.body.password)).rejects.toThrow(/401/);
    await s.login(member.body.email, 'another-password-1');
  });

  it('a status other than ACTIVE stops the tokens at once, and ACTIVE does not bring them back', async () => {
    const member = await createStaff();
    const token = await s.login(member.body.email, member.body.password);
    const res = await call('PUT', `/account/staff/status/${member.id}`, { status: 'DEACTIVE' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({
      message: MESSAGES.statusUpdated,
      result: { status: 'DEACTIVE' },
    });
    expect((await call('GET', '/account/admin-detail', undefined, token)).statusCode).toBe(401);
    const refused = await s.api({
      method: 'POST',
      url: '/auth/admin/login',
      payload: { email: member.body.email, password: member.body.password },
    });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().message).toBe(MESSAGES.accountNotActive);
    await call('PUT', `/account/staff/status/${member.id}`, { status: 'ACTIVE' });
    expect((await call('GET', '/account/admin-detail', undefined, token)).statusCode).toBe(401);
    await s.login(member.body.email, member.body.password);
    const bad = await call('PUT', `/account/staff/status/${member.id}`, { status: 'GONE' });
    expect(bad.statusCode).toBe(400);
  });

  it('delete ends the sessions, refuses sign-in and frees the email for a new account', async () => {
    const member = await createStaff();
    const token = await s.login(member.body.email, member.body.password);
    expect((await call('DELETE', `/account/remove-staff/${member.id}`)).statusCode).toBe(200);
    expect((await call('GET', '/account/admin-detail', undefined, token)).statusCode).toBe(401);
    await expect(s.login(member.body.email, member.body.password)).rejects.toThrow(/401/);
    expect((await call('DELETE', `/account/remove-staff/${member.id}`)).statusCode).toBe(404);

    const again = await createStaff({
      email: member.body.email,
      phoneNumber: member.body.phoneNumber,
    });
    expect(again.id).not.toBe(member.id);
    await s.login(member.body.email, member.body.password);
    // The old account cannot come back while its email is someone else's.
    const revive = await call('PUT', `/account/staff/status/${member.id}`, { status: 'ACTIVE' });
    expect(revive.statusCode).toBe(409);
    expect(paths(revive)).toEqual(['email']);
  });

  it('the admin cannot be reached through the staff calls', async () => {
    for (const [method, url, body] of [
      ['PATCH', '/account/staff/password/1', { password: 'password-999' }],
      ['PUT', '/account/staff/status/1', { status: 'DEACTIVE' }],
      ['DELETE', '/account/remove-staff/1', undefined],
    ] as const) {
      expect((await call(method, url, body)).statusCode, url).toBe(404);
    }
    expect((await call('GET', '/account/admin-detail')).statusCode).toBe(200);
  });
});

describe('menus', () => {
  it('lists every menu by id as a bare array, with keyword and paging', async () => {
    const res = await call('GET', '/menus/all');
    expect(res.statusCode).toBe(200);
    const menus = res.json();
    expect(Array.isArray(menus)).toBe(true);
    expect(menus.slice(0, BUILT_IN_MENUS.length).map((m: { name: string }) => m.name)).toEqual(
      BUILT_IN_MENUS.map((m) => m.name),
    );
    expect(Object.keys(menus[0]).sort()).toEqual(['id', 'name', 'title', 'version']);
    const found = (await call('GET', '/menus/all?keyword=SPECIAL')).json();
    expect(found.map((m: { name: string }) => m.name)).toEqual(['specialDay']);
    expect((await call('GET', '/menus/all?limit=2&offset=1')).json()).toEqual(menus.slice(1, 3));
    expect((await call('GET', '/menus/all?limit=101')).statusCode).toBe(400);
  });

  it('creates a menu with rows for every staff account, in one go', async () => {
    const member = await createStaff();
    const res = await call('POST', '/menus', { name: 'reports', title: 'Reports' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({
      message: MESSAGES.menuCreated,
      result: { id: expect.any(Number), version: 1, name: 'reports', title: 'Reports' },
    });
    const menuId = res.json().result.id;
    const perms = await permsOf(member.id);
    expect(perms.at(-1)!.name).toBe('reports');
    expect(perms.at(-1)!.userPermission.map((p) => [p.permission.name, p.status])).toEqual(
      PERMISSION_KINDS.map((k) => [k, false]),
    );
    const staffCount = Number(
      (
        await s.ctx.db
          .selectFrom('accounts')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .where('role', '=', 'STAFF')
          .executeTakeFirstOrThrow()
      ).n,
    );
    const rows = await s.ctx.db
      .selectFrom('userPermissions')
      .select('id')
      .where('menuId', '=', menuId)
      .execute();
    expect(rows).toHaveLength(staffCount * PERMISSION_KINDS.length);
    // A staff account made afterwards has them too.
    const later = await createStaff();
    expect((await permsOf(later.id)).at(-1)!.userPermission).toHaveLength(4);
  });

  it('gives staff made while a menu is made that menu’s rows too', async () => {
    // A staff account's transaction has read the menus; a menu is created before it commits.
    let menuCall: Promise<Res> | undefined;
    await s.ctx.db.transaction().execute(async (trx) => {
      const at = new Date().toISOString();
      const { id } = await trx
        .insertInto('accounts')
        .values({
          role: 'STAFF',
          email: 'racer@staff.test',
          status: 'ACTIVE',
          createdAt: at,
          updatedAt: at,
        })
        .returning('id')
        .executeTakeFirstOrThrow();
      await createPermissionRows(trx, id);
      menuCall = call('POST', '/menus', { name: 'racing', title: 'Racing' });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const menu = await menuCall!;
    expect(menu.statusCode, menu.body).toBe(200);
    const missing = await s.ctx.db
      .selectFrom('accounts as a')
      .crossJoin('menus as m')
      .crossJoin('permissions as p')
      .leftJoin('userPermissions as up', (join) =>
        join
          .onRef('up.accountId', '=', 'a.id')
          .onRef('up.menuId', '=', 'm.id')
          .onRef('up.permissionId', '=', 'p.id'),
      )
      .select(['a.id', 'm.name'])
      .where('a.role', '=', 'STAFF')
      .where('up.id', 'is', null)
      .execute();
    expect(missing).toEqual([]);
  });

  it('refuses a taken name, bad names and unknown keys, adding nothing', async () => {
    const before = await s.rowCount('menus');
    const taken = await call('POST', '/menus', { name: 'category', title: 'Again' });
    expect(taken.statusCode).toBe(409);
    expect(paths(taken)).toEqual(['name']);
    for (const body of [
      { name: '', title: 'x' },
      { name: '1abc', title: 'x' },
      { name: 'has space', title: 'x' },
      { name: 'x'.repeat(51), title: 'x' },
      { name: 'ok', title: 'x'.repeat(101) },
      { name: 'ok', title: 'x', builtIn: true },
    ]) {
      expect((await call('POST', '/menus', body)).statusCode, JSON.stringify(body)).toBe(400);
    }
    expect(await s.rowCount('menus')).toBe(before);
  });

  it('renames a custom menu, retitles a built-in one, and keeps built-in names', async () => {
    const made = (await call('POST', '/menus', { name: 'drafts', title: 'Drafts' })).json().result;
    const renamed = await call('PATCH', `/menus/${made.id}`, { name: 'drafting' });
    expect(renamed.statusCode, renamed.body).toBe(200);
    expect(renamed.json()).toEqual({
      message: MESSAGES.menuUpdated,
      result: { id: made.id, version: made.version + 1, name: 'drafting', title: 'Drafts' },
    });
    const category = (await call('GET', '/menus/all?keyword=category')).json()[0];
    const retitled = await call('PATCH', `/menus/${category.id}`, { title: 'Poster Categories' });
    expect(retitled.statusCode).toBe(200);
    const keep = await call('PATCH', `/menus/${category.id}`, { name: 'cats' });
    expect(keep.statusCode).toBe(409);
    expect(keep.json().message).toBe(MESSAGES.menuBuiltInName);
    const same = await call('PATCH', `/menus/${category.id}`, { name: 'category', title: 'X' });
    expect(same.statusCode).toBe(200);
    const taken = await call('PATCH', `/menus/${made.id}`, { name: 'poster' });
    expect(taken.statusCode).toBe(409);
    expect((await call('PATCH', `/menus/${made.id}`, {})).statusCode).toBe(400);
    expect((await call('PATCH', '/menus/999999', { title: 'x' })).statusCode).toBe(404);
  });

  it('deletes a custom menu with its rows; a built-in one answers 409', async () => {
    const made = (await call('POST', '/menus', { name: 'temp', title: 'Temp' })).json().result;
    const res = await call('DELETE', `/menus/remove/${made.id}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.menuDeleted, result: { id: made.id } });
    const left = await s.ctx.db
      .selectFrom('userPermissions')
      .select('id')
      .where('menuId', '=', made.id)
      .execute();
    expect(left).toEqual([]);
    expect((await call('DELETE', `/menus/remove/${made.id}`)).statusCode).toBe(404);
    const builtIn = await call('DELETE', '/menus/remove/1');
    expect(builtIn.statusCode).toBe(409);
    expect(builtIn.json().message).toBe(MESSAGES.menuBuiltIn);
    expect((await call('DELETE', '/menus/remove/abc')).statusCode).toBe(400);
  });
});

describe('permissions', () => {
  it('reads one menu for one account, and 404s for an unknown menu or account', async () => {
    const member = await createStaff();
    const res = await call('GET', `/permissions/7/${member.id}`);
    expect(res.statusCode).toBe(200);
    const { result } = res.json();
    expect(result.map((p: PermissionEntry) => p.permission.name)).toEqual([...PERMISSION_KINDS]);
    expect(result[0]).toEqual({
      id: expect.any(Number),
      accountId: member.id,
      menuId: 7,
      permissionId: expect.any(Number),
      status: false,
      updatedAt: expect.any(String),
      permission: { id: result[0].permissionId, name: 'VIEW' },
    });
    const noMenu = await call('GET', `/permissions/999999/${member.id}`);
    expect(noMenu.statusCode).toBe(404);
    expect(noMenu.json().message).toBe(MESSAGES.menuNotFound);
    expect((await call('GET', '/permissions/7/1')).statusCode).toBe(404);
    expect((await call('GET', '/permissions/0/1')).statusCode).toBe(400);
    expect((await call('GET', '/user-permissions/list/1')).statusCode).toBe(404);
  });

  it('a grant takes effect on the next call, and so does its revocation (both paths)', async () => {
    const member = await createStaff();
    const token = await s.login(member.body.email, member.body.password);
    const view = entry(await permsOf(member.id), 'category', 'VIEW');
    expect((await call('GET', '/category/list', undefined, token)).statusCode).toBe(403);

    const on = await call('PUT', `/permissions/status/${view.id}`, { status: true });
    expect(on.statusCode, on.body).toBe(200);
    expect(on.json()).toMatchObject({ message: MESSAGES.statusUpdated, result: { status: true } });
    expect((await call('GET', '/category/list', undefined, token)).statusCode).toBe(200);
    expect((await call('GET', '/account/me/permissions', undefined, token)).json()).toEqual({
      role: 'STAFF',
      grants: { category: ['VIEW'] },
    });

    const off = await call('PUT', `/user-permissions/status/${view.id}`, { status: 'false' });
    expect(off.statusCode).toBe(200);
    expect((await call('GET', '/category/list', undefined, token)).statusCode).toBe(403);

    for (const body of [{ status: 'maybe' }, {}, { status: true, extra: 1 }]) {
      const bad = await call('PUT', `/user-permissions/status/${view.id}`, body);
      expect(bad.statusCode, JSON.stringify(body)).toBe(400);
    }
    expect((await call('PUT', '/permissions/status/99999999', { status: true })).statusCode).toBe(
      404,
    );
  });

  it('bulk: all or nothing; another account’s row → 400, an unknown row → 404', async () => {
    const member = await createStaff();
    const other = await createStaff();
    const perms = await permsOf(member.id);
    const view = entry(perms, 'banner', 'VIEW');
    const create = entry(perms, 'banner', 'CREATE');
    const foreign = entry(await permsOf(other.id), 'banner', 'VIEW');

    const cross = await call('PUT', `/user-permissions/bulk/${member.id}`, {
      items: [
        { id: view.id, status: true },
        { id: foreign.id, status: true },
      ],
    });
    expect(cross.statusCode).toBe(400);
    expect(paths(cross)).toEqual(['items']);
    const missing = await call('PUT', `/user-permissions/bulk/${member.id}`, {
      items: [
        { id: view.id, status: true },
        { id: 99999999, status: true },
      ],
    });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().message).toContain('99999999');
    expect(entry(await permsOf(member.id), 'banner', 'VIEW').status).toBe(false);
    expect(entry(await permsOf(other.id), 'banner', 'VIEW').status).toBe(false);

    const ok = await call('PUT', `/user-permissions/bulk/${member.id}`, {
      items: [
        { id: view.id, status: true },
        { id: create.id, status: 'true' },
      ],
    });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(ok.json().message).toBe(MESSAGES.successfullyUpdated);
    expect(ok.json().perms).toEqual(await permsOf(member.id));
    expect(entry(ok.json().perms, 'banner', 'CREATE').status).toBe(true);
    const token = await s.login(member.body.email, member.body.password);
    expect((await call('GET', '/account/me/permissions', undefined, token)).json().grants).toEqual({
      banner: ['VIEW', 'CREATE'],
    });

    for (const body of [
      { items: [] },
      {
        items: [
          { id: view.id, status: true },
          { id: view.id, status: false },
        ],
      },
      { items: [{ id: 0, status: true }] },
      { items: [{ id: view.id }] },
      { items: [{ id: view.id, status: true, menuId: 1 }] },
      { items: Array.from({ length: 501 }, (_, i) => ({ id: i + 1, status: true })) },
      { items: 'all' },
      {},
    ]) {
      const res = await call('PUT', `/user-permissions/bulk/${member.id}`, body);
      expect(res.statusCode, JSON.stringify(body).slice(0, 80)).toBe(400);
    }
    expect(
      (await call('PUT', '/user-permissions/bulk/1', { items: [{ id: view.id, status: true }] }))
        .statusCode,
    ).toBe(404);
    // A list of objects comes as JSON: a form body answers 415.
    const form = await s.api({
      method: 'PUT',
      url: `/user-permissions/bulk/${member.id}`,
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `items=${view.id}`,
    });
    expect(form.statusCode).toBe(415);
  });
});

describe('SUPER_ADMIN only', () => {
  it('refuses a STAFF account holding every grant on every call, its own rows included', async () => {
    const all = Object.fromEntries(BUILT_IN_MENUS.map((m) => [m.name, [...PERMISSION_KINDS]]));
    const strong = await s.staff(all);
    const own = entry(await permsOf(strong.id), 'staff', 'VIEW');
    const calls: Array<[Method, string, object?]> = [
      ['POST', '/account/add-staff', fresh()],
      ['GET', '/account/stafflist'],
      ['GET', `/account/staff/profile/${strong.id}`],
      ['PATCH', `/account/update/staff/${strong.id}`, { roles: 'Boss' }],
      ['PATCH', `/account/staff/password/${strong.id}`, { password: 'password-999' }],
      ['PUT', `/account/staff/status/${strong.id}`, { status: 'ACTIVE' }],
      ['DELETE', `/account/remove-staff/${strong.id}`],
      ['POST', '/menus', { name: 'mine', title: 'Mine' }],
      ['GET', '/menus/all'],
      ['PATCH', '/menus/1', { title: 'x' }],
      ['DELETE', '/menus/remove/1'],
      ['GET', `/permissions/1/${strong.id}`],
      ['PUT', `/permissions/status/${own.id}`, { status: true }],
      ['GET', `/user-permissions/list/${strong.id}`],
      ['PUT', `/user-permissions/status/${own.id}`, { status: true }],
      ['PUT', `/user-permissions/bulk/${strong.id}`, { items: [{ id: own.id, status: true }] }],
    ];
    for (const [method, url, body] of calls) {
      const res = await call(method, url, body, strong.token);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(res.json().message).toBe(MESSAGES.accessDenied);
    }
    expect((await call('GET', '/category/list', undefined, strong.token)).statusCode).toBe(200);
  });
});
