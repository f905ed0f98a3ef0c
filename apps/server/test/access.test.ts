/**
 * The authorization matrix (API.md, "Roles and permissions"): every declared API route, called
 * without a token, by staff without and with the right permission, by staff holding everything
 * but it, and by a SUPER_ADMIN. The list of routes comes from the app itself, so a route added
 * later is covered without touching this file.
 */
import { afterAll, describe, expect, it } from 'vitest';
import Fastify, { type InjectOptions } from 'fastify';
import {
  API_BASE,
  BUILT_IN_MENUS,
  MESSAGES,
  PERMISSION_KINDS,
  type PermissionKind,
} from '@master-admin/contract';
import { registerAccessCheck, type DeclaredRoute } from '../src/http/access.ts';
import { createBackOfficeAccount } from '../src/features/accounts/service.ts';
import { TEST_DB, injectStreaming, startServer } from './harness.ts';

const s = await startServer();
afterAll(() => s.close());

const routes: DeclaredRoute[] = s.app.declaredRoutes;
const MENU_NAMES: string[] = BUILT_IN_MENUS.map((m) => m.name);

// The accounts that call every route. Fresh tokens are minted for each call, so a route that
// ends a session (logout) cannot spoil the calls after it. Neither account has id 1, the id the
// calls name, so no call can change them.
const subject = await s.staff();
const rootId = await createBackOfficeAccount(s.ctx.db, {
  role: 'SUPER_ADMIN',
  email: 'root-matrix@test.local',
  password: 'root-password-1',
});

const menuIds = new Map(
  (await s.ctx.db.selectFrom('menus').select(['id', 'name']).execute()).map((m) => [m.name, m.id]),
);
const kindIds = new Map(
  (await s.ctx.db.selectFrom('permissions').select(['id', 'name']).execute()).map((p) => [
    p.name,
    p.id,
  ]),
);

/** The subject's permission rows, by "menu/kind". */
const subjectRows = new Map(
  (
    await s.ctx.db
      .selectFrom('userPermissions')
      .select(['id', 'menuId', 'permissionId'])
      .where('accountId', '=', subject.id)
      .execute()
  ).map((r) => [`${r.menuId}/${r.permissionId}`, r.id]),
);

/**
 * Gives the subject staff account exactly these (menu, kind) grants and nothing else, the way the
 * owner does: one all-or-nothing `user-permissions/bulk` call, seen by the very next call.
 */
async function grantExactly(pairs: Array<[string, PermissionKind]>) {
  const wanted = new Set(pairs.map(([menu, kind]) => `${menuIds.get(menu)}/${kindIds.get(kind)}`));
  const items = [...subjectRows].map(([key, id]) => ({ id, status: wanted.has(key) }));
  const res = await s.app.inject({
    method: 'PUT',
    url: `${API_BASE}/user-permissions/bulk/${subject.id}`,
    headers: { authorization: `Bearer ${await s.tokenFor(rootId)}` },
    payload: { items },
  });
  expect(res.statusCode, res.body).toBe(200);
}

/** What `account/me/permissions` tells the subject it may do. */
async function subjectGrants() {
  const res = await s.app.inject({
    url: `${API_BASE}/account/me/permissions`,
    headers: { authorization: `Bearer ${await s.tokenFor(subject.id)}` },
  });
  expect(res.statusCode).toBe(200);
  return res.json().grants as Record<string, string[]>;
}

const everyGrant = (): Array<[string, PermissionKind]> =>
  MENU_NAMES.flatMap((menu) =>
    PERMISSION_KINDS.map((kind): [string, PermissionKind] => [menu, kind]),
  );

// A user's login history is open with the users menu, a back-office account's to SUPER_ADMIN
// only: `:accountId` names an end user, so the menu's grant alone decides.
const appId = (
  await s.api({ method: 'POST', url: '/master-app', token: s.adminToken, payload: { name: 'M' } })
).json<{ result: { id: number } }>().result.id;
const userId = (
  await s.api({
    method: 'POST',
    url: '/auth/user/register',
    token: s.adminToken,
    payload: { name: 'Matrix User', phoneNumber: '9000000001', masterAppId: appId },
  })
).json<{ result: { id: number } }>().result.id;

/** Calls the route with `1` for every path parameter (an end user's for `:accountId`), no body. */
function call(route: DeclaredRoute, token?: string) {
  // The event stream stays open: its head says whether it was let through.
  const inject = route.streaming
    ? (options: InjectOptions) => injectStreaming(s.app, options)
    : (options: InjectOptions) => s.app.inject(options);
  return inject({
    method: route.method,
    url: route.url.replace(/:accountId\b/g, String(userId)).replace(/:[^/]+/g, '1'),
    headers: token ? { authorization: `Bearer ${token}` } : {},
  });
}

const asSubject = async (route: DeclaredRoute) => call(route, await s.tokenFor(subject.id));
const asRoot = async (route: DeclaredRoute) => call(route, await s.tokenFor(rootId));

function expectDenied(res: { statusCode: number; json(): unknown }, what: string) {
  expect(res.statusCode, what).toBe(403);
  expect(res.json(), what).toEqual({
    statusCode: 403,
    error: 'Forbidden',
    message: MESSAGES.accessDenied,
  });
}

function expectLetThrough(res: { statusCode: number; body: string }, what: string) {
  expect([401, 403], `${what} answered ${res.statusCode} ${res.body}`).not.toContain(
    res.statusCode,
  );
}

describe('the list of declared routes', () => {
  it('is not empty and every route lies under the API base', () => {
    expect(routes.length).toBeGreaterThan(5);
    for (const route of routes) expect(route.url.startsWith(`${API_BASE}/`)).toBe(true);
  });

  it('holds the rules API.md sets for auth, profile, dashboard and master apps', () => {
    const rule = (method: string, path: string) =>
      routes.find((r) => r.method === method && r.url === `${API_BASE}${path}`)?.access;
    expect(rule('GET', '/health')).toEqual({ kind: 'public' });
    expect(rule('POST', '/auth/admin/login')).toEqual({ kind: 'public' });
    expect(rule('POST', '/auth/admin/logout')).toEqual({ kind: 'signedIn' });
    expect(rule('POST', '/auth/admin/pass-reset')).toEqual({ kind: 'signedIn' });
    expect(rule('GET', '/account/admin-detail')).toEqual({ kind: 'signedIn' });
    expect(rule('GET', '/dashboard/getCount')).toEqual({
      kind: 'menu',
      menu: 'dashboard',
      action: 'VIEW',
    });
    expect(rule('POST', '/master-app')).toEqual({
      kind: 'menu',
      menu: 'masterApp',
      action: 'CREATE',
    });
    expect(rule('GET', '/master-app/list')).toEqual({
      kind: 'menu',
      menu: 'masterApp',
      action: 'VIEW',
    });
    expect(rule('PATCH', '/master-app/update/:id')).toEqual({
      kind: 'menu',
      menu: 'masterApp',
      action: 'UPDATE',
    });
    expect(rule('GET', '/master-app/options')).toEqual({ kind: 'signedIn' });
    expect(rule('GET', '/account/me/permissions')).toEqual({ kind: 'signedIn' });
  });

  it('keeps staff, menus and permissions to SUPER_ADMIN, whatever the grants', () => {
    const owners = routes.filter((r) =>
      /^\/(account\/(add-staff|stafflist|staff\/|update\/staff|remove-staff)|menus|permissions|user-permissions)/.test(
        r.url.slice(API_BASE.length),
      ),
    );
    expect(owners.map((r) => `${r.method} ${r.url.slice(API_BASE.length)}`).sort()).toEqual(
      [
        'POST /account/add-staff',
        'GET /account/stafflist',
        'GET /account/stafflist/export',
        'GET /account/staff/profile/:id',
        'PATCH /account/update/staff/:id',
        'PATCH /account/staff/password/:id',
        'PUT /account/staff/status/:id',
        'GET /account/staff/sessions/:accountId',
        'DELETE /account/staff/sessions/:accountId/:id',
        'DELETE /account/staff/:id/factors',
        'DELETE /account/remove-staff/:id',
        'POST /menus',
        'GET /menus/all',
        'PATCH /menus/:id',
        'DELETE /menus/remove/:id',
        'GET /permissions/:menuId/:accountId',
        'PUT /permissions/status/:id',
        'GET /user-permissions/list/:accountId',
        'PUT /user-permissions/status/:id',
        'PUT /user-permissions/bulk/:accountId',
      ].sort(),
    );
    for (const route of owners) expect(route.access, route.url).toEqual({ kind: 'superAdmin' });
  });

  it('names only seeded menus and permission kinds', () => {
    for (const route of routes) {
      if (route.access.kind !== 'menu') continue;
      expect(MENU_NAMES, `${route.method} ${route.url}`).toContain(route.access.menu);
      expect(PERMISSION_KINDS, `${route.method} ${route.url}`).toContain(route.access.action);
    }
  });

  it('lists each method and path once', () => {
    const keys = routes.map((r) => `${r.method} ${r.url}`);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe.each(routes.map((route) => ({ route, name: `${route.method} ${route.url}` })))(
  '$name',
  ({ route, name }) => {
    const rule = route.access;

    if (rule.kind === 'public') {
      it('answers without a token', async () => {
        expectLetThrough(await call(route), `${name} without a token`);
      });
      return;
    }

    it('needs a token: none, or a malformed one, answers 401', async () => {
      const none = await call(route);
      expect(none.statusCode, `${name} without a token`).toBe(401);
      expect(none.json()).toMatchObject({ statusCode: 401, error: 'Unauthorized' });
      const garbage = await call(route, 'not-a-token');
      expect(garbage.statusCode, `${name} with a garbage token`).toBe(401);
    });

    if (rule.kind === 'signedIn') {
      it('is open to any signed-in staff, even one without any permission', async () => {
        await grantExactly([]);
        expectLetThrough(await asSubject(route), `${name} as staff without permissions`);
        expectLetThrough(await asRoot(route), `${name} as SUPER_ADMIN`);
      });
      return;
    }

    if (rule.kind === 'superAdmin') {
      it('is refused to staff holding every grant, and open to SUPER_ADMIN', async () => {
        await grantExactly(everyGrant());
        expectDenied(await asSubject(route), `${name} as staff with every grant`);
        expectLetThrough(await asRoot(route), `${name} as SUPER_ADMIN`);
      });
      return;
    }

    const { menu, action } = rule;
    it(`needs ${action} on ${menu}`, async () => {
      await grantExactly([]);
      expectDenied(await asSubject(route), `${name} as staff without permissions`);

      await grantExactly([[menu, action]]);
      expect(await subjectGrants()).toEqual({ [menu]: [action] });
      expectLetThrough(
        await asSubject(route),
        `${name} as staff holding exactly ${menu}/${action}`,
      );

      const others: Array<[string, PermissionKind]> = [
        ...PERMISSION_KINDS.filter((k) => k !== action).map((k): [string, PermissionKind] => [
          menu,
          k,
        ]),
        ...MENU_NAMES.filter((m) => m !== menu).map((m): [string, PermissionKind] => [m, action]),
      ];
      await grantExactly(others);
      expectDenied(
        await asSubject(route),
        `${name} as staff holding every other kind on ${menu} and ${action} elsewhere`,
      );

      expectLetThrough(await asRoot(route), `${name} as SUPER_ADMIN`);
    });
  },
);

describe('a route that declares no access', () => {
  it('stops the app from starting', async () => {
    const app = Fastify({ logger: false });
    registerAccessCheck(app, s.ctx.database, s.ctx.secret);
    void app.register(
      async (api) => {
        api.get('/forgotten', async () => ({ open: true }));
      },
      { prefix: API_BASE },
    );
    await expect(app.ready()).rejects.toThrow(
      `Route GET ${API_BASE}/forgotten does not declare its access`,
    );
    await app.close().catch(() => undefined);
  });

  it('is fine outside the API, and a declared one is listed', async () => {
    const app = Fastify({ logger: false });
    registerAccessCheck(app, s.ctx.database, s.ctx.secret);
    app.get('/outside', async () => ({ open: true }));
    void app.register(
      async (api) => {
        api.get('/declared', { config: { access: { kind: 'public' } } }, async () => ({ ok: 1 }));
      },
      { prefix: API_BASE },
    );
    await app.ready();
    expect(app.declaredRoutes).toEqual([
      { method: 'GET', url: `${API_BASE}/declared`, access: { kind: 'public' } },
    ]);
    expect((await app.inject({ url: `${API_BASE}/declared` })).json()).toEqual({ ok: 1 });
    await app.close();
  });
});

describe('a list call’s access check, read with the list', () => {
  const listUrl = `${API_BASE}/master-app/list`;
  const get = (url: string, token?: string) =>
    s.app.inject({ url, headers: token ? { authorization: `Bearer ${token}` } : {} });

  it('takes no round trip of its own: on PostgreSQL it is part of the count’s statement', async () => {
    const { lookups, reads } = s.ctx.database;
    const lookupsRun = lookups.run.bind(lookups);
    const readsRun = reads.run.bind(reads);
    const looked: string[] = [];
    const read: string[][] = [];
    lookups.run = (queries) => {
      looked.push(...queries.map((q) => q.sql));
      return lookupsRun(queries);
    };
    reads.run = (queries) => {
      read.push(queries.map((q) => q.sql));
      return readsRun(queries);
    };
    try {
      // A token never used: nothing kept about its session on either database.
      const res = await get(`${listUrl}?limit=5`, await s.tokenFor(rootId));
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().total).toBeGreaterThan(0);
      expect(looked).toEqual([]);
      expect(read).toHaveLength(1);
      const sessionsRead = read[0]!.filter((q) => q.includes('"sessions"'));
      expect(sessionsRead).toHaveLength(1);
      if (TEST_DB === 'postgres') {
        // Folded into the count: the page and the count, two statements as without a session.
        expect(read[0]).toHaveLength(2);
        expect(sessionsRead[0]).toMatch(/^select c\.\*, r\.\* from \(select /);
      }
    } finally {
      lookups.run = lookupsRun;
      reads.run = readsRun;
    }
  });

  it('refuses before anything else is said: a bad query from a caller who may not list is a 401 or 403', async () => {
    const bad = `${listUrl}?limit=abc`;
    // A session ended: 401, not the 400 its query earns.
    const ended = await s.tokenFor(rootId);
    expect((await get(`${listUrl}?limit=5`, ended)).statusCode).toBe(200);
    const out = await s.app.inject({
      method: 'POST',
      url: `${API_BASE}/auth/admin/logout`,
      headers: { authorization: `Bearer ${ended}` },
    });
    expect(out.statusCode, out.body).toBe(200);
    for (const url of [bad, `${listUrl}?limit=5`]) {
      const res = await get(url, ended);
      expect(res.statusCode, url).toBe(401);
      expect(res.json().message).toBe(MESSAGES.sessionExpired);
      expect(res.json()).not.toHaveProperty('result');
    }
    expect((await get(bad)).statusCode).toBe(401);
    // Staff without the menu: 403 for a good query and a bad one alike.
    await grantExactly([]);
    for (const url of [bad, `${listUrl}?limit=5`]) {
      const res = await get(url, await s.tokenFor(subject.id));
      expect(res.statusCode, url).toBe(403);
      expect(res.json()).not.toHaveProperty('result');
    }
    // Allowed: the 400 naming the field.
    const res = await get(bad, await s.tokenFor(rootId));
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('limit');
  });
});
