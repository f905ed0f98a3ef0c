import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_COLUMNS, type AuditEntry } from '@master-admin/contract';
import { ADMIN, multipart, startServer } from './harness.ts';
import { images } from './images.ts';
import Fastify from 'fastify';
import { registerAuditGuard } from '../src/features/audit/record.ts';

const s = await startServer();
afterAll(() => s.close());

type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
const IP = '10.9.8.7';
const call = (method: Method, url: string, payload?: object, token = s.adminToken) =>
  s.api({
    method,
    url,
    token,
    remoteAddress: IP,
    ...(payload === undefined ? {} : { payload }),
  });

let adminId: number;
let appId: number;
let categoryId: number;

beforeAll(async () => {
  adminId = s.adminId;
  const make = async (url: string, payload: object) => {
    const res = await call('POST', url, payload);
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as number;
  };
  appId = await make('/master-app', { name: 'Audit App' });
  categoryId = await make('/category', { name: 'Audit Category' });
});

/** The stored entries of a row, newest first, straight from the table. */
async function entriesOf(area: string, rowId: number) {
  const rows = await s.ctx.db
    .selectFrom('auditLog')
    .selectAll()
    .where('area', '=', area)
    .where('rowId', '=', rowId)
    .orderBy('id', 'desc')
    .execute();
  return rows.map((r) => ({ ...r, changes: JSON.parse(r.changes) as AuditEntry['changes'] }));
}
const latest = async (area: string, rowId: number) => (await entriesOf(area, rowId))[0]!;
const auditCount = () => s.rowCount('auditLog');

let size = 30;
const png = async () => ({ name: 'p.png', data: await images.png(size++, 20), type: 'image/png' });

async function poster(): Promise<number> {
  const res = await s.api({
    method: 'POST',
    url: `/poster/only-cat/${categoryId}`,
    token: s.adminToken,
    remoteAddress: IP,
    ...(await multipart(
      {
        position: 'LEFT',
        topDefNum: '1',
        selfDefNum: '2',
        bottomDefNum: '3',
        masterAppId: `${appId}`,
      },
      { file: await png() },
    )),
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
}

describe('every mutation kind records who, where, which row and what changed', () => {
  it('create, update and delete', async () => {
    const created = await call('POST', '/faqs', { question: 'Why?', answer: 'Because.' });
    const id = created.json().result.id as number;
    const create = await latest('faqs', id);
    expect(create).toMatchObject({ accountId: adminId, ip: IP, action: 'CREATE', rowId: id });
    expect(create.changes).toEqual(
      expect.arrayContaining([
        { field: 'question', old: null, new: 'Why?' },
        { field: 'answer', old: null, new: 'Because.' },
      ]),
    );

    expect((await call('PATCH', `/faqs/update/${id}`, { answer: 'Just so.' })).statusCode).toBe(
      200,
    );
    const update = await latest('faqs', id);
    expect(update.action).toBe('UPDATE');
    // Only what changed (not updatedAt, not the question left alone).
    expect(update.changes).toEqual([{ field: 'answer', old: 'Because.', new: 'Just so.' }]);

    expect((await call('DELETE', `/faqs/remove/${id}`)).statusCode).toBe(200);
    const removed = await latest('faqs', id);
    expect(removed.action).toBe('DELETE');
    expect(removed.changes).toContainEqual({ field: 'question', old: 'Why?', new: null });
  });

  it('status and file replace (the file as its stored key)', async () => {
    const id = await poster();
    expect((await call('PUT', `/poster/status/${id}`, { status: 'DEACTIVE' })).statusCode).toBe(
      200,
    );
    expect(await latest('posters', id)).toMatchObject({
      action: 'STATUS',
      changes: [{ field: 'status', old: 'ACTIVE', new: 'DEACTIVE' }],
    });

    const before = (
      await s.ctx.db
        .selectFrom('posters')
        .select('poster')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).poster;
    const res = await s.api({
      method: 'PUT',
      url: `/poster/update/${id}`,
      token: s.adminToken,
      remoteAddress: IP,
      ...(await multipart({}, { file: await png() })),
    });
    expect(res.statusCode, res.body).toBe(200);
    const after = (
      await s.ctx.db
        .selectFrom('posters')
        .select('poster')
        .where('id', '=', id)
        .executeTakeFirstOrThrow()
    ).poster;
    expect(after).not.toBe(before);
    expect(await latest('posters', id)).toMatchObject({
      action: 'FILE',
      changes: [{ field: 'poster', old: before, new: after }],
    });
  });

  it('bulk status and bulk delete: one entry per row', async () => {
    const ids = [await poster(), await poster()];
    const bulk = await call('PUT', '/poster/bulk-status', { ids, status: 'DEACTIVE' });
    expect(bulk.statusCode, bulk.body).toBe(200);
    for (const id of ids) {
      expect(await latest('posters', id)).toMatchObject({
        action: 'STATUS',
        accountId: adminId,
        changes: [{ field: 'status', old: 'ACTIVE', new: 'DEACTIVE' }],
      });
    }
    const gone = await call('DELETE', '/poster/bulkDelete', { ids });
    expect(gone.statusCode, gone.body).toBe(200);
    for (const id of ids) expect((await latest('posters', id)).action).toBe('DELETE');
  });

  it('a permission change, on the staff member’s row, by menu', async () => {
    const member = await s.staff();
    const perms = (await call('GET', `/user-permissions/list/${member.id}`)).json().perms as Array<{
      name: string;
      userPermission: Array<{ id: number; permission: { name: string } }>;
    }>;
    const view = perms.find((g) => g.name === 'banner')!.userPermission[0]!;
    const res = await call('PUT', `/user-permissions/bulk/${member.id}`, {
      items: [{ id: view.id, status: true }],
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await latest('staff', member.id)).toMatchObject({
      action: 'PERMISSIONS',
      changes: [{ field: 'permissions.banner', old: [], new: ['VIEW'] }],
    });
  });

  it('sign-in and sign-out, as the account that signed in', async () => {
    const member = await s.staff();
    const login = await s.api({
      method: 'POST',
      url: '/auth/admin/login',
      payload: { email: member.email, password: member.password },
      remoteAddress: '10.1.1.1',
    });
    expect(login.statusCode, login.body).toBe(200);
    expect(await latest('auth', member.id)).toMatchObject({
      accountId: member.id,
      action: 'SIGN_IN',
      ip: '10.1.1.1',
      changes: [],
    });
    const out = await s.api({
      method: 'POST',
      url: '/auth/admin/logout',
      token: login.json().token,
      remoteAddress: '10.1.1.2',
    });
    expect(out.statusCode, out.body).toBe(200);
    expect(await latest('auth', member.id)).toMatchObject({
      accountId: member.id,
      action: 'SIGN_OUT',
      ip: '10.1.1.2',
    });
  });

  it('a failed sign-in changes nothing: one security event for an existing account, none for an unknown one', async () => {
    const before = await auditCount();
    const res = await s.api({
      method: 'POST',
      url: '/auth/admin/login',
      payload: { email: ADMIN.email, password: 'wrong-password' },
      remoteAddress: '10.1.1.3',
    });
    expect(res.statusCode).toBe(401);
    expect(await auditCount()).toBe(before + 1);
    const entry = await s.ctx.db
      .selectFrom('auditLog')
      .selectAll()
      .orderBy('id', 'desc')
      .executeTakeFirstOrThrow();
    expect(entry).toMatchObject({
      action: 'SIGN_IN_FAILED',
      area: 'auth',
      rowId: s.adminId,
      accountId: s.adminId,
      ip: '10.1.1.3',
      changes: '[]',
    });
    const unknown = await s.api({
      method: 'POST',
      url: '/auth/admin/login',
      payload: { email: 'nobody@test.local', password: 'wrong-password' },
      remoteAddress: '10.1.1.4',
    });
    expect(unknown.statusCode).toBe(401);
    expect(await auditCount()).toBe(before + 1);
  });
});

describe('secrets never reach the log', () => {
  it('a staff password change is named, its values never stored', async () => {
    const member = await s.staff();
    const password = 'a-brand-new-secret-9';
    const res = await call('PATCH', `/account/staff/password/${member.id}`, { password });
    expect(res.statusCode, res.body).toBe(200);
    expect(await latest('staff', member.id)).toMatchObject({
      action: 'PASSWORD',
      changes: [{ field: 'password', old: null, new: null, redacted: true }],
    });
    const hash = (
      await s.ctx.db
        .selectFrom('accounts')
        .select('passwordHash')
        .where('id', '=', member.id)
        .executeTakeFirstOrThrow()
    ).passwordHash!;
    const everything = JSON.stringify(await s.ctx.db.selectFrom('auditLog').selectAll().execute());
    for (const secret of [password, member.password, hash, s.adminToken, '$argon2']) {
      expect(everything).not.toContain(secret);
    }
    expect(everything).not.toMatch(/sessionId|passwordHash/);
  });
});

describe('a change that fails records nothing', () => {
  it('validation 400, missing row 404, conflict 409', async () => {
    const before = await auditCount();
    expect((await call('POST', '/faqs', { question: '' })).statusCode).toBe(400);
    expect((await call('PATCH', '/faqs/update/99999999', { answer: 'x' })).statusCode).toBe(404);
    expect((await call('POST', '/category', { name: 'Audit Category' })).statusCode).toBe(409);
    // All or nothing: a bulk call naming a missing row changes no row and records nothing.
    const id = await poster();
    const afterCreate = await auditCount();
    const bulk = await call('PUT', '/poster/bulk-status', {
      ids: [id, 99999999],
      status: 'DEACTIVE',
    });
    expect(bulk.statusCode).toBe(404);
    expect(await auditCount()).toBe(afterCreate);
    expect(afterCreate).toBe(before + 1);
  });
});

describe('reading the log', () => {
  it('lists newest first with the account, filters by account, area, row and date', async () => {
    const member = await s.staff({ faqs: ['CREATE'] });
    const mine = await call('POST', '/faqs', { question: 'Staff Q', answer: 'A' }, member.token);
    const faqId = mine.json().result.id as number;
    const page = await call('GET', `/audit/list?accountId=${member.id}&area=faqs`);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().total).toBe(1);
    const everyOfTheirs = (await call('GET', `/audit/list?accountId=${member.id}`)).json();
    expect(everyOfTheirs.result.every((e: AuditEntry) => e.accountId === member.id)).toBe(true);
    expect(page.json().result[0]).toMatchObject({
      accountId: member.id,
      accountName: member.email,
      area: 'faqs',
      rowId: faqId,
      action: 'CREATE',
    });

    const all = (await call('GET', '/audit/list?limit=100')).json();
    const times = all.result.map((e: AuditEntry) => e.createdAt + String(e.id).padStart(9, '0'));
    expect(times).toEqual([...times].sort().reverse());
    expect(all.total).toBe(await auditCount());

    const area = (await call('GET', '/audit/list?area=posters&limit=100')).json();
    expect(area.result.every((e: AuditEntry) => e.area === 'posters')).toBe(true);
    expect(area.total).toBeGreaterThan(0);
    const row = (await call('GET', `/audit/list?area=faqs&rowId=${faqId}`)).json();
    expect(row.result.map((e: AuditEntry) => e.rowId)).toEqual([faqId]);

    const today = new Date().toISOString().slice(0, 10);
    const todays = (await call('GET', `/audit/list?fromDate=${today}&toDate=${today}`)).json();
    expect(todays.total).toBe(await auditCount());
    expect((await call('GET', '/audit/list?toDate=2000-01-01')).json()).toEqual({
      result: [],
      total: 0,
      nextCursor: null,
    });
    const bad = await call('GET', '/audit/list?fromDate=2026-02-30&area=nowhere');
    expect(bad.statusCode).toBe(400);
    expect(
      bad
        .json()
        .details.map((d: { path: string }) => d.path)
        .sort(),
    ).toEqual(['area', 'fromDate']);
    const backwards = await call('GET', '/audit/list?fromDate=2026-02-02&toDate=2026-02-01');
    expect(backwards.statusCode).toBe(400);
  });

  it('takes the whole date range: 1000-01-01 ..= 9999-12-31 holds every entry', async () => {
    const total = await auditCount();
    for (const query of [
      'fromDate=1000-01-01',
      'toDate=9999-12-31',
      'fromDate=1000-01-01&toDate=9999-12-31',
    ]) {
      const page = await call('GET', `/audit/list?${query}`);
      expect(page.statusCode, `${query}: ${page.body}`).toBe(200);
      expect(page.json().total, query).toBe(total);
      const file = await call('GET', `/audit/list/export?${query}`);
      expect(file.statusCode, query).toBe(200);
      expect(
        file.body
          .replace(/^\uFEFF/, '')
          .trim()
          .split('\r\n').length,
        query,
      ).toBeGreaterThan(1);
    }
    for (const query of ['fromDate=0999-12-31', 'toDate=10000-01-01']) {
      const res = await call('GET', `/audit/list?${query}`);
      expect(res.statusCode, query).toBe(400);
      expect(res.json().details.map((d: { path: string }) => d.path)).toEqual([
        query.split('=')[0],
      ]);
    }
  });

  it('exports as CSV with the list’s filters, days included (SUPER_ADMIN only)', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const res = await call('GET', `/audit/list/export?area=faqs&fromDate=${today}&toDate=${today}`);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split('\r\n');
    expect(lines[0]!.split(',')).toContain(AUDIT_COLUMNS.area);
    const faqs = (await call('GET', '/audit/list?area=faqs')).json().total as number;
    expect(faqs).toBeGreaterThan(0);
    // Every entry is one line or more (a change per line); none is of another area.
    expect(lines.slice(1).every((l) => !/,(posters|staff|auth),/.test(l))).toBe(true);
    const none = await call('GET', '/audit/list/export?area=faqs&toDate=2000-01-01');
    expect(
      none.body
        .replace(/^\uFEFF/, '')
        .trim()
        .split('\r\n'),
    ).toHaveLength(1);
    const reversed = await call('GET', '/audit/list/export?fromDate=2026-02-02&toDate=2026-02-01');
    expect(reversed.statusCode).toBe(400);
    expect(reversed.json().details).toEqual([
      { path: 'toDate', message: 'Must not be before fromDate' },
    ]);
    const member = await s.staff({ faqs: ['VIEW'] });
    expect((await call('GET', '/audit/list/export', undefined, member.token)).statusCode).toBe(403);
  });

  it('is SUPER_ADMIN only; a row’s history is open to that area’s viewers', async () => {
    const member = await s.staff({ faqs: ['VIEW', 'CREATE'] });
    expect((await call('GET', '/audit/list', undefined, member.token)).statusCode).toBe(403);
    const faq = await call('POST', '/faqs', { question: 'History?', answer: 'Yes.' });
    const id = faq.json().result.id as number;
    await call('PATCH', `/faqs/update/${id}`, { answer: 'Indeed.' });
    const history = await call('GET', `/audit/history/faqs/${id}`, undefined, member.token);
    expect(history.statusCode, history.body).toBe(200);
    expect(history.json().result.map((e: AuditEntry) => e.action)).toEqual(['UPDATE', 'CREATE']);
    expect(history.json().total).toBe(2);
    // Another area's history needs that area's VIEW right; staff history is SUPER_ADMIN's.
    const denied = await call('GET', `/audit/history/banners/${id}`, undefined, member.token);
    expect(denied.statusCode).toBe(403);
    expect(
      (await call('GET', `/audit/history/staff/${member.id}`, undefined, member.token)).statusCode,
    ).toBe(403);
    expect((await call('GET', `/audit/history/staff/${member.id}`)).statusCode).toBe(200);
  });

  it('is append-only: the API document has no call that changes or deletes an entry', async () => {
    const doc = (await s.app.inject({ method: 'GET', url: '/api/docs/json' })).json<{
      paths: Record<string, Record<string, unknown>>;
    }>();
    const audit = Object.entries(doc.paths).filter(([path]) => path.includes('/audit'));
    expect(audit.length).toBeGreaterThan(1);
    for (const [, methods] of audit) expect(Object.keys(methods)).toEqual(['get']);
    const mutating = s.app.declaredRoutes.filter((r) => r.method !== 'GET');
    expect(mutating.length).toBeGreaterThan(30);
    expect(mutating.filter((r) => r.url.includes('/audit'))).toEqual([]);
    for (const method of ['POST', 'PUT', 'PATCH', 'DELETE'] as const) {
      const res = await call(method, '/audit/list', {});
      expect([404, 405]).toContain(res.statusCode);
    }
  });
});

describe('the guard against a route that forgets', () => {
  async function probe(strict: boolean) {
    const app = Fastify({ logger: false });
    registerAuditGuard(app, strict);
    const config = { access: { kind: 'signedIn' as const } };
    app.put('/forgets', { config }, async () => ({ ok: true }));
    app.put('/records', { config }, async (request) => {
      request.audited = true;
      return { ok: true };
    });
    app.put('/previews', { config: { ...config, audit: false } }, async () => ({ ok: true }));
    app.put('/public', { config: { access: { kind: 'public' as const } } }, async () => ({}));
    app.put('/fails', { config }, async (_request, reply) => reply.code(404).send({}));
    await app.ready();
    const status = async (url: string) => (await app.inject({ method: 'PUT', url })).statusCode;
    const result = {
      forgets: await status('/forgets'),
      records: await status('/records'),
      previews: await status('/previews'),
      public: await status('/public'),
      fails: await status('/fails'),
    };
    await app.close();
    return result;
  }

  it('answers 500 outside production for a successful signed-in change without an entry', async () => {
    expect(await probe(true)).toEqual({
      forgets: 500,
      records: 200,
      previews: 200,
      public: 200,
      fails: 404,
    });
  });

  it('names the request in its 500, as every 5xx does', async () => {
    const app = Fastify({ logger: false, genReqId: () => 'guard-request-1' });
    registerAuditGuard(app, true);
    app.put('/forgets', { config: { access: { kind: 'signedIn' } } }, async () => ({ ok: true }));
    const res = await app.inject({ method: 'PUT', url: '/forgets' });
    await app.close();
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({
      statusCode: 500,
      error: 'Internal Server Error',
      message: 'PUT /forgets changed without an audit entry',
      requestId: 'guard-request-1',
    });
  });

  it('only logs in production (the change is already committed)', async () => {
    expect((await probe(false)).forgets).toBe(200);
  });
});
