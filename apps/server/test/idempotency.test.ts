/**
 * `Idempotency-Key` (API.md "Operations", http/idempotency.ts): a retried change answers the first
 * answer again and changes once; another request with the key → 422; one still running → 409; an
 * answer that says to try again leaves the key free; keys are per account and last 24 hours.
 */
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MESSAGES, PATHS } from '@master-admin/contract';
import { ADMIN, TEST_DB, multipart, startServer } from './harness.ts';
import { images } from './images.ts';
import { KEY_TTL_MS, abandonedAfter } from '../src/http/idempotency.ts';

const s = await startServer();
afterAll(() => s.close());

let appId: number;
beforeAll(async () => {
  const res = await s.api({
    method: 'POST',
    url: '/master-app',
    token: s.adminToken,
    payload: { name: 'Idempotent App' },
  });
  appId = res.json().result.id;
});

let keys = 0;
/** A key no other test uses. */
const newKey = () => `test-key-${++keys}-${Date.now()}`;

const createFaq = (key: string | undefined, question: string, token = s.adminToken) =>
  s.api({
    method: 'POST',
    url: PATHS.faqCreate,
    token,
    payload: { question, answer: 'Once' },
    headers: key === undefined ? {} : { 'idempotency-key': key },
  });

const faqsAsked = async (question: string) =>
  (await s.ctx.db.selectFrom('faqs').select('id').where('question', '=', question).execute())
    .length;

const keyRow = (key: string, accountId = s.adminId) =>
  s.ctx.db
    .selectFrom('idempotencyKeys')
    .selectAll()
    .where('accountId', '=', accountId)
    .where('key', '=', key)
    .executeTakeFirst();

const ago = (ms: number) => new Date(Date.now() - ms).toISOString();

describe('a change sent again with its key', () => {
  it('is made once and answered again as it was, with Idempotent-Replayed', async () => {
    const key = newKey();
    const entries = (await s.auditOf(s.adminId, 'CREATE')).length;
    const first = await createFaq(key, 'Twice sent?');
    expect(first.statusCode, first.body).toBe(200);
    expect(first.headers['idempotent-replayed']).toBeUndefined();
    const again = await createFaq(key, 'Twice sent?');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.headers['content-type']).toBe(first.headers['content-type']);
    expect(again.body).toBe(first.body);
    expect(await faqsAsked('Twice sent?')).toBe(1);
    expect((await s.auditOf(s.adminId, 'CREATE')).length).toBe(entries + 1);
    expect(await keyRow(key)).toMatchObject({ state: 'done', status: 200 });
  });

  it('with another body → 422 naming the header, and nothing is done', async () => {
    const key = newKey();
    expect((await createFaq(key, 'First body')).statusCode).toBe(200);
    const other = await createFaq(key, 'Second body');
    expect(other.statusCode).toBe(422);
    expect(other.json()).toMatchObject({
      message: MESSAGES.idempotencyKeyReused,
      details: [{ path: 'Idempotency-Key' }],
    });
    // Another path with the same key is another request too.
    const elsewhere = await s.api({
      method: 'POST',
      url: '/master-app',
      token: s.adminToken,
      payload: { name: 'First body' },
      headers: { 'idempotency-key': key },
    });
    expect(elsewhere.statusCode).toBe(422);
    expect(await faqsAsked('Second body')).toBe(0);
  });

  it('while the first is running → 409 with Retry-After; once abandoned, taken over', async () => {
    const key = newKey();
    expect((await createFaq(key, 'Still running?')).statusCode).toBe(200);
    // As a request still in its handler, on this instance or another, leaves it.
    const running = { state: 'running' as const, status: null, body: null, contentType: null };
    await s.ctx.db
      .updateTable('idempotencyKeys')
      .set({ ...running, createdAt: ago(1000) })
      .where('key', '=', key)
      .execute();
    await s.ctx.db.deleteFrom('faqs').where('question', '=', 'Still running?').execute();
    const busy = await createFaq(key, 'Still running?');
    expect(busy.statusCode).toBe(409);
    expect(busy.headers['retry-after']).toBe('1');
    expect(busy.json().message).toBe(MESSAGES.idempotencyKeyRunning);
    // Its process died before committing: nothing was made, the retry makes it.
    await s.ctx.db
      .updateTable('idempotencyKeys')
      .set({ createdAt: ago(abandonedAfter(s.config.requestDeadlineMs) + 1000) })
      .where('key', '=', key)
      .execute();
    const taken = await createFaq(key, 'Still running?');
    expect(taken.statusCode, taken.body).toBe(200);
    expect(taken.headers['idempotent-replayed']).toBeUndefined();
    expect(await faqsAsked('Still running?')).toBe(1);
  });

  it('made but not answered (its process died after the commit) → 409 saying so', async () => {
    const key = newKey();
    expect((await createFaq(key, 'Answer lost?')).statusCode).toBe(200);
    const committed = { state: 'committed' as const, status: null, body: null, contentType: null };
    await s.ctx.db
      .updateTable('idempotencyKeys')
      .set({ ...committed, createdAt: ago(1000) })
      .where('key', '=', key)
      .execute();
    // Young: most likely being answered right now.
    expect((await createFaq(key, 'Answer lost?')).statusCode).toBe(409);
    await s.ctx.db
      .updateTable('idempotencyKeys')
      .set({ createdAt: ago(abandonedAfter(s.config.requestDeadlineMs) + 1000) })
      .where('key', '=', key)
      .execute();
    const lost = await createFaq(key, 'Answer lost?');
    expect(lost.statusCode).toBe(409);
    expect(lost.headers['retry-after']).toBeUndefined();
    expect(lost.json().message).toBe(MESSAGES.idempotencyAnswerLost);
    expect(await faqsAsked('Answer lost?')).toBe(1);
  });

  it('after a 5xx runs again: the failed change, rolled back, took its mark with it', async () => {
    const key = newKey();
    // The audit entry is written after the key is marked 'committed', in the same transaction.
    const failing = {
      sqlite: "select raise(abort, 'failing on purpose')",
      postgres: "raise exception 'failing on purpose'",
    };
    await withTrigger('audit_log', failing, async () => {
      expect((await createFaq(key, 'After a failure?')).statusCode).toBe(500);
    });
    expect(await keyRow(key)).toBeUndefined();
    const retried = await createFaq(key, 'After a failure?');
    expect(retried.statusCode, retried.body).toBe(200);
    expect(await faqsAsked('After a failure?')).toBe(1);
  });

  it('taken over while it ran (past the abandon time), rolls its change back', async () => {
    const key = newKey();
    // Another request claims the key while this one writes its row.
    const takeOver = `update idempotency_keys set created_at = '2000-01-01T00:00:00.000Z'`;
    await withTrigger('faqs', { sqlite: takeOver, postgres: takeOver }, async () => {
      const overtaken = await createFaq(key, 'Overtaken?');
      expect(overtaken.statusCode).toBe(409);
      expect(overtaken.json().message).toBe(MESSAGES.idempotencyKeyRunning);
    });
    expect(await faqsAsked('Overtaken?')).toBe(0);
  });

  it('after a 403 asking for a proof of presence runs again once proved', async () => {
    const key = newKey();
    const staff = await s.staff();
    const token = await s.tokenFor(s.adminId);
    await s.staleProof(token);
    const change = () =>
      s.api({
        method: 'PATCH',
        url: PATHS.staffUpdate(staff.id),
        token,
        payload: { email: `new-${staff.email}` },
        headers: { 'idempotency-key': key },
      });
    const refused = await change();
    expect(refused.statusCode).toBe(403);
    expect(refused.json().reauth).toBe(true);
    expect(await keyRow(key)).toBeUndefined();
    const proved = await s.api({
      method: 'POST',
      url: PATHS.reauth,
      token,
      payload: { password: ADMIN.password },
    });
    expect(proved.statusCode, proved.body).toBe(200);
    const made = await change();
    expect(made.statusCode, made.body).toBe(200);
    expect(made.body).toContain(`new-${staff.email}`);
  });

  it('of another account runs on its own', async () => {
    const key = newKey();
    const other = await s.staff({ faqs: ['CREATE'] });
    expect((await createFaq(key, 'Mine')).statusCode).toBe(200);
    const theirs = await createFaq(key, 'Theirs', other.token);
    expect(theirs.statusCode, theirs.body).toBe(200);
    expect(theirs.headers['idempotent-replayed']).toBeUndefined();
    expect(await faqsAsked('Theirs')).toBe(1);
    expect(await keyRow(key, other.id)).toMatchObject({ state: 'done' });
  });

  it('older than 24 hours runs again', async () => {
    const key = newKey();
    expect((await createFaq(key, 'Yesterday')).statusCode).toBe(200);
    await s.ctx.db
      .updateTable('idempotencyKeys')
      .set({ createdAt: ago(KEY_TTL_MS + 2000), expiresAt: ago(1000) })
      .where('key', '=', key)
      .execute();
    const again = await createFaq(key, 'Yesterday');
    expect(again.statusCode).toBe(200);
    expect(again.headers['idempotent-replayed']).toBeUndefined();
    expect(await faqsAsked('Yesterday')).toBe(2);
    // The sweep deletes what has expired, and only that.
    await s.ctx.db
      .updateTable('idempotencyKeys')
      .set({ expiresAt: ago(1000) })
      .where('key', '=', key)
      .execute();
    expect(await s.app.idempotencyKeys.sweep()).toBe(1);
    expect(await keyRow(key)).toBeUndefined();
  });

  it('with an upload (multipart) stores one row', async () => {
    const key = newKey();
    const jpeg = await images.jpeg();
    const send = async (link: string) => {
      const body = await multipart(
        { link, linkType: 'EXTERNAL' },
        { file: { name: 'b.jpg', data: jpeg, type: 'image/jpeg' } },
      );
      return s.api({
        method: 'POST',
        url: PATHS.bannerCreate(appId),
        token: s.adminToken,
        ...body,
        headers: { ...body.headers, 'idempotency-key': key },
      });
    };
    const first = await send('https://example.com/once');
    expect(first.statusCode, first.body).toBe(200);
    const again = await send('https://example.com/once');
    expect(again.headers['idempotent-replayed']).toBe('true');
    expect(again.body).toBe(first.body);
    expect(await s.rowCount('banners')).toBe(1);
    // Another file in the same fields is another request.
    const png = await multipart(
      { link: 'https://example.com/once', linkType: 'EXTERNAL' },
      { file: { name: 'b.jpg', data: await images.png(), type: 'image/png' } },
    );
    const other = await s.api({
      method: 'POST',
      url: PATHS.bannerCreate(appId),
      token: s.adminToken,
      ...png,
      headers: { ...png.headers, 'idempotency-key': key },
    });
    expect(other.statusCode).toBe(422);
  });

  it('on a call whose answer holds a secret is taken and ignored: it runs again', async () => {
    const key = newKey();
    const signIn = () =>
      s.api({
        method: 'POST',
        url: PATHS.login,
        payload: ADMIN,
        headers: { 'idempotency-key': key },
      });
    const first = await signIn();
    const second = await signIn();
    expect([first.statusCode, second.statusCode]).toEqual([200, 200]);
    expect(second.headers['idempotent-replayed']).toBeUndefined();
    expect(second.json().token).not.toBe(first.json().token);
    expect(await keyRow(key, 0)).toBeUndefined();
  });
});

describe('the header', () => {
  it('refuses a value that is not 1..128 printable ASCII characters, naming it', async () => {
    for (const bad of ['', 'a'.repeat(129), ' lead', 'trail ', 'é', 'tab\there']) {
      const res = await createFaq(bad, 'Bad key');
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(res.json().details).toEqual([
        { path: 'Idempotency-Key', message: expect.any(String) },
      ]);
    }
    for (const good of ['a', 'a'.repeat(128), 'with inner space', '"quoted"']) {
      const res = await createFaq(good, `Good key ${good.length}${good[0]}`);
      expect(res.statusCode, good).toBe(200);
    }
    expect(await faqsAsked('Bad key')).toBe(0);
  });
});

/**
 * Runs `work` while a trigger runs `action` (per dialect) before each insert into `table`: a part
 * that breaks mid-change, or another instance acting meanwhile.
 */
async function withTrigger(
  table: string,
  action: { sqlite: string; postgres: string },
  work: () => Promise<void>,
) {
  const db = s.ctx.db;
  if (TEST_DB === 'postgres') {
    await sql`create or replace function test_trigger() returns trigger language plpgsql as
      ${sql.lit(`begin ${action.postgres}; return new; end`)}`.execute(db);
    await sql`create trigger test_trigger before insert on ${sql.table(table)}
      for each row execute function test_trigger()`.execute(db);
  } else {
    await sql`create trigger test_trigger before insert on ${sql.table(table)}
      begin ${sql.raw(action.sqlite)}; end`.execute(db);
  }
  try {
    await work();
  } finally {
    await (
      TEST_DB === 'postgres'
        ? sql`drop trigger test_trigger on ${sql.table(table)}`
        : sql`drop trigger test_trigger`
    ).execute(db);
  }
}
