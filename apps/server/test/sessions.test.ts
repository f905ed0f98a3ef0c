/**
 * Sessions one can see and end (API.md "Second factors, passkeys, sessions, device tokens"): the
 * caller's own, a staff member's for the owner, and when each was last seen.
 */
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { MESSAGES, PATHS, type SessionRow } from '@master-admin/contract';
import { LAST_SEEN_EVERY_MS } from '../src/auth/last-seen.ts';
import { startServer } from './harness.ts';
import { passkeyCeremonies } from './webauthn-authenticator.ts';

const s = await startServer();
afterAll(() => s.close());
afterEach(() => void vi.useRealTimers());

const { addPasskey, signIn } = passkeyCeremonies(s);

const CHROME_ON_WINDOWS =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/142.0.0.0 Safari/537.36';
const SAFARI_ON_IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 18_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.5 Mobile/15E148 Safari/604.1';

/** Signs in with a password from `ip` with `userAgent`: the token. */
async function signInFrom(account: { email: string; password: string }, ip: string, ua: string) {
  const res = await s.api({
    method: 'POST',
    url: PATHS.login,
    payload: { email: account.email, password: account.password },
    remoteAddress: ip,
    headers: { 'user-agent': ua },
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ token: string }>().token;
}

async function sessionsOf(token: string, url: string = PATHS.mySessions): Promise<SessionRow[]> {
  const res = await s.api({ url, token });
  expect(res.statusCode, res.body).toBe(200);
  return res.json<{ result: SessionRow[] }>().result;
}

const works = async (token: string) =>
  (await s.api({ url: PATHS.adminDetail, token })).statusCode === 200;

const endedEntries = (accountId: number) =>
  s.ctx.db
    .selectFrom('auditLog')
    .selectAll()
    .where('action', '=', 'SESSION_ENDED')
    .where('rowId', '=', accountId)
    .orderBy('id')
    .execute();

/** The session id (the secret) a token carries. */
const sessionOf = (token: string): string =>
  JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()).sid;

const lastSeenOf = async (token: string) =>
  (
    await s.ctx.db
      .selectFrom('sessions')
      .select('lastSeenAt')
      .where('id', '=', sessionOf(token))
      .executeTakeFirstOrThrow()
  ).lastSeenAt;

describe('the caller’s sessions', () => {
  it('lists live ones with device, address, method and which is current, current first, never a secret', async () => {
    const staff = await s.staff();
    const windows = await signInFrom(staff, '203.0.113.10', CHROME_ON_WINDOWS);
    const phone = await signInFrom(staff, '203.0.113.11', SAFARI_ON_IPHONE);
    const { authenticator } = await addPasskey(staff.token);
    const viaPasskey = (await signIn(authenticator)).json<{ token: string }>().token;
    // An ended one and an expired one are not listed.
    const ended = await signInFrom(staff, '203.0.113.12', CHROME_ON_WINDOWS);
    await s.api({ method: 'POST', url: PATHS.logout, token: ended });
    const expired = await s.tokenFor(staff.id);
    await s.ctx.db
      .updateTable('sessions')
      .set({ expiresAt: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', sessionOf(expired))
      .execute();

    const res = await s.api({ url: PATHS.mySessions, token: phone });
    expect(res.statusCode).toBe(200);
    const list = res.json<{ result: SessionRow[] }>().result;
    expect(list).toHaveLength(4);
    expect(list[0]).toEqual({
      id: expect.any(Number),
      device: 'Safari 18 on iPhone, iOS',
      ip: '203.0.113.11',
      createdAt: expect.any(String),
      lastSeenAt: expect.any(String),
      current: true,
      method: 'password',
    });
    expect(list.filter((r) => r.current)).toHaveLength(1);
    expect(list.map((r) => r.device)).toContain('Chrome 142 on Windows');
    expect(list.map((r) => r.device)).toContain('Firefox 140 on macOS');
    expect(list.find((r) => r.device.startsWith('Firefox'))?.method).toBe('passkey');
    const seen = list.slice(1).map((r) => r.lastSeenAt ?? '');
    expect(seen).toEqual([...seen].sort().reverse());
    // The session ids (the tokens' secrets) appear nowhere in the answer.
    const secrets = await s.ctx.db
      .selectFrom('sessions')
      .select('id')
      .where('accountId', '=', staff.id)
      .execute();
    for (const { id } of secrets) expect(res.body).not.toContain(id);
    expect(await works(windows)).toBe(true);
    expect(await works(viaPasskey)).toBe(true);
  });

  it('ends one: its token answers 401 on the next call, the entry names it, others go on', async () => {
    const staff = await s.staff();
    const other = await signInFrom(staff, '203.0.113.20', CHROME_ON_WINDOWS);
    const list = await sessionsOf(staff.token);
    const target = list.find((r) => r.ip === '203.0.113.20')!;
    const res = await s.api({
      method: 'DELETE',
      url: PATHS.mySession(target.id),
      token: staff.token,
      headers: { 'user-agent': SAFARI_ON_IPHONE },
      remoteAddress: '203.0.113.21',
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.sessionEnded, result: { id: target.id } });
    expect(await works(other)).toBe(false);
    expect(await works(staff.token)).toBe(true);
    expect((await sessionsOf(staff.token)).map((r) => r.id)).not.toContain(target.id);
    const [entry] = await endedEntries(staff.id);
    expect(entry).toMatchObject({
      accountId: staff.id,
      area: 'auth',
      ip: '203.0.113.21',
      device: 'Safari 18 on iPhone, iOS',
    });
    expect(JSON.parse(entry!.changes)).toEqual([
      {
        field: 'session',
        old: `#${target.id}: Chrome 142 on Windows, 203.0.113.20`,
        new: null,
      },
    ]);
    // Ended already: 404, and nothing more is recorded.
    const again = await s.api({
      method: 'DELETE',
      url: PATHS.mySession(target.id),
      token: staff.token,
    });
    expect(again.statusCode).toBe(404);
    expect(again.json().message).toBe(MESSAGES.sessionNotFound);
    expect(await endedEntries(staff.id)).toHaveLength(1);
  });

  it('answers 404 for another account’s session, which goes on', async () => {
    const staff = await s.staff();
    const other = await s.staff();
    const [theirs] = await sessionsOf(other.token);
    const res = await s.api({
      method: 'DELETE',
      url: PATHS.mySession(theirs!.id),
      token: staff.token,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.sessionNotFound);
    expect(await works(other.token)).toBe(true);
  });

  it('ends the current one on request: a sign-out', async () => {
    const staff = await s.staff();
    const [current] = await sessionsOf(staff.token);
    expect(current!.current).toBe(true);
    const res = await s.api({
      method: 'DELETE',
      url: PATHS.mySession(current!.id),
      token: staff.token,
    });
    expect(res.statusCode).toBe(200);
    expect(await works(staff.token)).toBe(false);
  });

  it('ends every other one, keeping the current, each recorded', async () => {
    const staff = await s.staff();
    const others = [await s.tokenFor(staff.id), await s.tokenFor(staff.id)];
    const before = await sessionsOf(staff.token);
    const res = await s.api({ method: 'DELETE', url: PATHS.mySessions, token: staff.token });
    expect(res.statusCode, res.body).toBe(200);
    const body = res.json<{ message: string; result: { ids: number[]; count: number } }>();
    expect(body.message).toBe(MESSAGES.otherSessionsEnded);
    expect(body.result.count).toBe(2);
    expect(body.result.ids.sort()).toEqual(
      before
        .filter((r) => !r.current)
        .map((r) => r.id)
        .sort(),
    );
    for (const token of others) expect(await works(token)).toBe(false);
    expect(await works(staff.token)).toBe(true);
    expect(await sessionsOf(staff.token)).toHaveLength(1);
    expect(await endedEntries(staff.id)).toHaveLength(2);
    // One session's path without its number does not end them all.
    const blank = await s.api({
      method: 'DELETE',
      url: `${PATHS.mySessions}/`,
      token: staff.token,
    });
    expect(blank.statusCode).toBe(400);
    expect(blank.json().details).toEqual([{ path: 'id', message: 'Required' }]);
    // None left to end: still an answer, with none.
    const none = await s.api({ method: 'DELETE', url: PATHS.mySessions, token: staff.token });
    expect(none.json().result).toEqual({ ids: [], count: 0 });
  });

  it('refuses a path id that is not one, and If-Match (a session has no version)', async () => {
    for (const bad of ['0', 'x', '01', '-3']) {
      const res = await s.api({ method: 'DELETE', url: PATHS.mySession(bad), token: s.adminToken });
      expect(res.statusCode, bad).toBe(400);
      expect(res.json().details[0].path).toBe('id');
    }
    const [current] = await sessionsOf(s.adminToken);
    const res = await s.api({
      method: 'DELETE',
      url: PATHS.mySession(current!.id),
      token: s.adminToken,
      headers: { 'if-match': '"1"' },
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().details[0].path).toBe('If-Match');
    expect(await works(s.adminToken)).toBe(true);
  });
});

describe('a staff member’s sessions, for the owner', () => {
  it('the owner lists and ends them; the entry is on the staff member’s history', async () => {
    const staff = await s.staff();
    const laptop = await signInFrom(staff, '203.0.113.30', CHROME_ON_WINDOWS);
    const list = await sessionsOf(s.adminToken, PATHS.staffSessions(staff.id));
    expect(list).toHaveLength(2);
    expect(list.every((r) => !r.current)).toBe(true);
    const target = list.find((r) => r.ip === '203.0.113.30')!;
    expect(target.device).toBe('Chrome 142 on Windows');

    const res = await s.api({
      method: 'DELETE',
      url: PATHS.staffSession(staff.id, target.id),
      token: s.adminToken,
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: MESSAGES.sessionEnded, result: { id: target.id } });
    expect(await works(laptop)).toBe(false);
    expect(await works(staff.token)).toBe(true);
    const [entry] = await endedEntries(staff.id);
    expect(entry).toMatchObject({ accountId: s.adminId, area: 'staff', rowId: staff.id });
  });

  it('answers 404 for a session that is not that account’s, and for an account that is not staff', async () => {
    const staff = await s.staff();
    const other = await s.staff();
    const [theirs] = await sessionsOf(other.token);
    const res = await s.api({
      method: 'DELETE',
      url: PATHS.staffSession(staff.id, theirs!.id),
      token: s.adminToken,
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().message).toBe(MESSAGES.sessionNotFound);
    expect(await works(other.token)).toBe(true);
    for (const url of [PATHS.staffSessions(999_999), PATHS.staffSession(999_999, theirs!.id)]) {
      const missing = await s.api({
        method: url.split('/').length > 5 ? 'DELETE' : 'GET',
        url,
        token: s.adminToken,
      });
      expect(missing.statusCode, url).toBe(404);
      expect(missing.json().message).toBe(MESSAGES.staffNotFound);
    }
  });

  it('is refused to staff, whatever their grants (403)', async () => {
    const staff = await s.staff();
    const other = await s.staff();
    const [theirs] = await sessionsOf(other.token);
    const list = await s.api({ url: PATHS.staffSessions(other.id), token: staff.token });
    expect(list.statusCode).toBe(403);
    const end = await s.api({
      method: 'DELETE',
      url: PATHS.staffSession(other.id, theirs!.id),
      token: staff.token,
    });
    expect(end.statusCode).toBe(403);
    expect(await works(other.token)).toBe(true);
  });

  it('end when the owner deactivates the account, a passkey’s session too', async () => {
    const staff = await s.staff();
    const { authenticator } = await addPasskey(staff.token);
    const viaPasskey = (await signIn(authenticator)).json<{ token: string }>().token;
    const res = await s.api({
      method: 'PUT',
      url: PATHS.staffStatus(staff.id),
      token: s.adminToken,
      payload: { status: 'DEACTIVE' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect(await works(viaPasskey)).toBe(false);
    expect(await works(staff.token)).toBe(false);
    expect(await sessionsOf(s.adminToken, PATHS.staffSessions(staff.id))).toEqual([]);
    const again = await signIn(authenticator);
    expect(again.statusCode).toBe(401);
    expect(again.json().message).toBe(MESSAGES.accountNotActive);
  });
});

describe('when a session was last seen', () => {
  it('moves with its calls, at most once a minute, after the answer', async () => {
    const staff = await s.staff();
    const token = await s.tokenFor(staff.id);
    const start = Date.now();
    vi.useFakeTimers({ toFake: ['Date'], now: start + 2 * 60_000 });

    expect(await works(token)).toBe(true);
    const first = new Date(start + 2 * 60_000).toISOString();
    await vi.waitFor(async () => expect(await lastSeenOf(token)).toBe(first));

    // Half a minute later: no statement at all, however often it calls (the instance remembers
    // its write; a time set back behind its back stays).
    const setBack = new Date(start - 60 * 60_000).toISOString();
    await s.ctx.db
      .updateTable('sessions')
      .set({ lastSeenAt: setBack })
      .where('id', '=', sessionOf(token))
      .execute();
    vi.setSystemTime(start + 2 * 60_000 + 30_000);
    for (let i = 0; i < 5; i++) expect(await works(token)).toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await lastSeenOf(token)).toBe(setBack);

    // A minute after the last write: written again, and the list says so.
    const later = start + 2 * 60_000 + LAST_SEEN_EVERY_MS;
    vi.setSystemTime(later);
    expect(await works(token)).toBe(true);
    await vi.waitFor(async () =>
      expect(await lastSeenOf(token)).toBe(new Date(later).toISOString()),
    );
    const listed = (await sessionsOf(token)).find((r) => r.current);
    expect(listed!.lastSeenAt).toBe(new Date(later).toISOString());
  });

  it('is not written by a call refused for its ended session', async () => {
    const staff = await s.staff();
    await s.api({ method: 'POST', url: PATHS.logout, token: staff.token });
    const before = await lastSeenOf(staff.token);
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 5 * 60_000 });
    expect(await works(staff.token)).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, 50));
    expect(await lastSeenOf(staff.token)).toBe(before);
  });
});
