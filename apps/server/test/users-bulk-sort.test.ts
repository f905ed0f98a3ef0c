/**
 * The users list's bulk status change (`account/user/bulk-status`) and its sorts (issue #22).
 * Run on SQLite and PostgreSQL.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BULK_MAX, MESSAGES, PATHS, USER_COLUMNS, type User } from '@master-admin/contract';
import { startServer } from './harness.ts';

/** The users export's column of names (its title as the screen shows it). */
const USER_NAME_TITLE = USER_COLUMNS['userDetail.name'];

const s = await startServer();
afterAll(() => s.close());

const admin = (options: Parameters<typeof s.api>[0]) => s.api({ token: s.adminToken, ...options });

let appId: number;
let sortApp: number;
beforeAll(async () => {
  const make = async (name: string) => {
    const res = await admin({ method: 'POST', url: PATHS.masterAppCreate, payload: { name } });
    expect(res.statusCode, res.body).toBe(200);
    return res.json().result.id as number;
  };
  appId = await make('Bulk Users');
  sortApp = await make('Sorted Users');
});

let phone = 7_100_000_000;
async function newUser(fields: Record<string, unknown> = {}) {
  const res = await admin({
    method: 'POST',
    url: PATHS.userRegister,
    payload: { name: 'Bulk User', phoneNumber: String(phone++), masterAppId: appId, ...fields },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: User }>().result;
}

const statusOf = async (ids: number[]) =>
  (
    await s.ctx.db
      .selectFrom('accounts')
      .select(['id', 'status'])
      .where('id', 'in', ids)
      .orderBy('id')
      .execute()
  ).map((r) => r.status);

const bulk = (payload: unknown, token = s.adminToken) =>
  s.api({ method: 'PUT', url: PATHS.userBulkStatus, payload: payload as object, token });

describe('account/user/bulk-status', () => {
  it('sets the status of every user named, one audit entry each', async () => {
    const users = [await newUser(), await newUser(), await newUser({ name: 'Third' })];
    const ids = users.map((u) => u.id);
    const res = await bulk({ ids, status: 'SUSPENDED' });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.statusUpdated, result: { ids, count: 3 } });
    expect(await statusOf(ids)).toEqual(['SUSPENDED', 'SUSPENDED', 'SUSPENDED']);
    const listed = await admin({
      method: 'GET',
      url: `${PATHS.userList}?masterAppId=${appId}&status=SUSPENDED`,
    });
    expect(
      listed
        .json()
        .result.map((u: User) => u.id)
        .sort(),
    ).toEqual([...ids].sort());

    const entries = await s.ctx.db
      .selectFrom('auditLog')
      .select(['rowId', 'action', 'accountId', 'changes'])
      .where('area', '=', 'users')
      .where('rowId', 'in', ids)
      .where('action', '=', 'STATUS')
      .orderBy('rowId')
      .execute();
    expect(entries.map((e) => ({ ...e, changes: JSON.parse(e.changes) }))).toEqual(
      ids.map((rowId) => ({
        rowId,
        action: 'STATUS',
        accountId: s.adminId,
        changes: [{ field: 'status', old: 'ACTIVE', new: 'SUSPENDED' }],
      })),
    );

    // Form-encoded, the key repeated, as a form sends a list.
    const form = await s.api({
      method: 'PUT',
      url: PATHS.userBulkStatus,
      token: s.adminToken,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `ids=${ids[0]}&ids=${ids[1]}&status=ACTIVE`,
    });
    expect(form.statusCode, form.body).toBe(200);
    expect(await statusOf(ids)).toEqual(['ACTIVE', 'ACTIVE', 'SUSPENDED']);
  });

  it('refuses bad input with a 400 naming the field, and changes nothing', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const many = Array.from({ length: BULK_MAX + 1 }, (_, i) => i + 1);
    for (const [payload, field] of [
      [{ ids: [], status: 'DEACTIVE' }, 'ids'],
      [{ status: 'DEACTIVE' }, 'ids'],
      [{ ids: many, status: 'DEACTIVE' }, 'ids'],
      [{ ids: [a.id, a.id], status: 'DEACTIVE' }, 'ids'],
      [{ ids: [a.id, 'abc'], status: 'DEACTIVE' }, 'ids'],
      [{ ids: [0], status: 'DEACTIVE' }, 'ids'],
      [{ ids: [-3], status: 'DEACTIVE' }, 'ids'],
      [{ ids: [1.5], status: 'DEACTIVE' }, 'ids'],
      [{ ids: 'all', status: 'DEACTIVE' }, 'ids'],
      [{ ids: [a.id, b.id] }, 'status'],
      [{ ids: [a.id, b.id], status: 'GONE' }, 'status'],
      [{ ids: [a.id, b.id], status: 'DELETED' }, 'status'],
      [{ ids: [a.id, b.id], status: 'DEACTIVE', colour: 'red' }, 'colour'],
    ] as const) {
      const res = await bulk(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      const paths = res.json().details.map((d: { path: string }) => d.path.split('.')[0]);
      expect(paths, JSON.stringify(payload)).toContain(field);
    }
    const duplicate = await bulk({ ids: [a.id, a.id], status: 'DEACTIVE' });
    expect(duplicate.json().details[0].message).toBe('An id is repeated');
    const deleted = await bulk({ ids: [a.id], status: 'DELETED' });
    expect(deleted.json().details[0].message).toBe(
      'Must be one of ACTIVE, DEACTIVE, SUSPENDED, PENDING',
    );
    expect(await statusOf([a.id, b.id])).toEqual(['ACTIVE', 'ACTIVE']);
  });

  it('answers 404 naming the ids with no user (a staff account is none), changing nothing', async () => {
    const [a, b] = [await newUser(), await newUser()];
    const staff = await s.staff();
    const res = await bulk({ ids: [a.id, 999_999, b.id, staff.id], status: 'PENDING' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toMatchObject({
      message: `No user with id 999999, ${staff.id}`,
      details: [{ path: 'ids', message: `No user with id 999999, ${staff.id}` }],
    });
    expect(await statusOf([a.id, b.id, staff.id])).toEqual(['ACTIVE', 'ACTIVE', 'ACTIVE']);
    const entries = await s.ctx.db
      .selectFrom('auditLog')
      .select('id')
      .where('rowId', 'in', [a.id, b.id, staff.id])
      .where('action', '=', 'STATUS')
      .execute();
    expect(entries).toEqual([]);
  });

  it('restores DELETED users; a phone number taken since is a 409 and nothing changes', async () => {
    const [a, b] = [await newUser(), await newUser()];
    for (const u of [a, b]) {
      const del = await admin({ method: 'DELETE', url: PATHS.userDelete(u.id) });
      expect(del.statusCode).toBe(200);
    }
    const taker = await newUser({ phoneNumber: b.phoneNumber });
    const refused = await bulk({ ids: [a.id, b.id], status: 'ACTIVE' });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().details[0].path).toBe('phoneNumber');
    expect(await statusOf([a.id, b.id])).toEqual(['DELETED', 'DELETED']);
    await admin({ method: 'DELETE', url: PATHS.userDelete(taker.id) });
    const ok = await bulk({ ids: [a.id, b.id], status: 'ACTIVE' });
    expect(ok.statusCode, ok.body).toBe(200);
    expect(await statusOf([a.id, b.id])).toEqual(['ACTIVE', 'ACTIVE']);
  });

  it('needs UPDATE on the users menu (403 otherwise, nothing changes)', async () => {
    const u = await newUser();
    const viewer = await s.staff({ users: ['VIEW', 'CREATE', 'DELETE'] });
    const other = await s.staff({ poster: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] });
    const editor = await s.staff({ users: ['UPDATE'] });
    for (const token of [viewer.token, other.token]) {
      const res = await bulk({ ids: [u.id], status: 'DEACTIVE' }, token);
      expect(res.statusCode).toBe(403);
      expect(res.json().message).toBe('Access Denied!');
    }
    expect(await statusOf([u.id])).toEqual(['ACTIVE']);
    const res = await bulk({ ids: [u.id], status: 'DEACTIVE' }, editor.token);
    expect(res.statusCode, res.body).toBe(200);
    expect(await statusOf([u.id])).toEqual(['DEACTIVE']);
    const unsigned = await s.api({
      method: 'PUT',
      url: PATHS.userBulkStatus,
      payload: { ids: [u.id], status: 'ACTIVE' },
    });
    expect(unsigned.statusCode).toBe(401);
  });
});

describe('users list sorts', () => {
  type Row = {
    id: number;
    name: string;
    email: string | null;
    status: string;
    date: string | null;
  };
  let rows: Row[];
  beforeAll(async () => {
    rows = [];
    const specs = [
      ['bravo', 'b@x.test', '2027-05-01', 'ACTIVE'],
      ['Alpha', null, null, 'PENDING'],
      ['charlie', 'A@x.test', '2026-01-31', 'SUSPENDED'],
      ['alpha', 'c@x.test', '2027-05-01', 'DEACTIVE'],
      ['Delta', 'D@x.test', null, 'ACTIVE'],
      ['bravo', null, '2026-12-31', 'PENDING'],
    ] as const;
    for (const [name, email, dateLimit, status] of specs) {
      const u = await newUser({
        name,
        masterAppId: sortApp,
        ...(email ? { email } : {}),
        ...(dateLimit ? { dateLimit } : {}),
      });
      if (status !== 'ACTIVE') {
        const res = await admin({
          method: 'PUT',
          url: PATHS.userStatus(u.id),
          payload: { status },
        });
        expect(res.statusCode).toBe(200);
      }
      rows.push({ id: u.id, name, email, status, date: dateLimit });
    }
  });

  /** Every id of the app's users in `sort` order, read two rows a page. */
  async function paged(sort: string): Promise<number[]> {
    const seen: number[] = [];
    for (let offset = 0; offset < rows.length; offset += 2) {
      const res = await admin({
        method: 'GET',
        url: `${PATHS.userList}?masterAppId=${sortApp}&sort=${sort}&limit=2&offset=${offset}`,
      });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().total).toBe(rows.length);
      seen.push(...res.json().result.map((u: User) => u.id));
    }
    return seen;
  }

  /** `rows` ordered by `key` (nulls as the database puts them), ties by id, both reversed for desc. */
  function expected(key: (r: Row) => string | null, desc: boolean, nullsFirst: boolean) {
    const order = [...rows].sort((a, b) => {
      const [x, y] = [key(a), key(b)];
      if (x === y) return a.id - b.id;
      if (x === null) return nullsFirst ? -1 : 1;
      if (y === null) return nullsFirst ? 1 : -1;
      return x < y ? -1 : 1;
    });
    return (desc ? order.reverse() : order).map((r) => r.id);
  }

  it('sorts by name and email whatever the letter case, by status and date limit, ties by id', async () => {
    // SQLite puts nulls first when ascending, PostgreSQL last.
    const nullsFirst = s.ctx.database.dialect.kind === 'sqlite';
    const keys: Record<string, (r: Row) => string | null> = {
      name: (r) => r.name.toLowerCase(),
      email: (r) => r.email?.toLowerCase() ?? null,
      status: (r) => r.status,
      dateLimit: (r) => r.date,
    };
    for (const [field, key] of Object.entries(keys)) {
      expect(await paged(field), field).toEqual(expected(key, false, nullsFirst));
      expect(await paged(`-${field}`), `-${field}`).toEqual(expected(key, true, nullsFirst));
    }
    const created = await paged('createdAt');
    expect(created).toEqual(rows.map((r) => r.id));
  });

  it('exports in the order asked for', async () => {
    const res = await admin({
      method: 'GET',
      url: `${PATHS.listExport(PATHS.userList)}?masterAppId=${sortApp}&sort=-name`,
    });
    expect(res.statusCode, res.body).toBe(200);
    const [header, ...lines] = res.body
      .replace(/^\uFEFF/, '')
      .trim()
      .split(/\r?\n/);
    const column = header!.split(',').indexOf(USER_NAME_TITLE);
    expect(column).toBeGreaterThanOrEqual(0);
    const names = lines.map((line) => line.split(',')[column]);
    expect(names).toEqual(['Delta', 'charlie', 'bravo', 'bravo', 'alpha', 'Alpha']);
  });

  it('refuses a field it does not sort by, naming sort', async () => {
    for (const sort of ['phoneNumber', 'id', '-masterAppId', 'Name', 'created_at']) {
      const res = await admin({ method: 'GET', url: `${PATHS.userList}?sort=${sort}` });
      expect(res.statusCode, sort).toBe(400);
      expect(res.json().details[0].path).toBe('sort');
    }
  });
});
