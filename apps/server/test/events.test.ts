/**
 * The event stream and presence (API.md "Events"), read as a browser reads them: a real listening
 * server and `fetch` with a reader (`inject` does not stream).
 */
import type { ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { API_BASE, MESSAGES } from '@master-admin/contract';
import { TEST_DB, multipart, startServer } from './harness.ts';
import { change, openStream, presenceOf, type Stream } from './event-stream.ts';
import { sql } from 'kysely';
import { afterCommit, inTransaction } from '../src/db/transaction.ts';
import { decode, encode, type BusMessage } from '../src/events/bus.ts';
import { EventStream, MAX_STREAMS_PER_ACCOUNT } from '../src/events/streams.ts';
import { images } from './images.ts';

const PRESENCE_TTL_SECONDS = 2;
const s = await startServer({
  PRESENCE_TTL_SECONDS: String(PRESENCE_TTL_SECONDS),
  EVENTS_HEARTBEAT_SECONDS: '1',
});
await s.app.listen({ port: 0, host: '127.0.0.1' });
const base = `http://127.0.0.1:${(s.app.server.address() as AddressInfo).port}${API_BASE}`;
afterAll(() => s.close());

/** A stream that has told where it starts (its `id:` line): what comes after is live. */
async function ready(token: string, headers?: Record<string, string>) {
  const stream = await openStream(base, token, headers);
  expect(stream.status).toBe(200);
  await stream.waitFor((b) => b.id !== undefined && b.event === undefined);
  return stream;
}

const api = (method: string, url: string, payload?: unknown, token = s.adminToken) =>
  s.api({ method, url, token, payload: payload as string });

async function createCategory(name: string, token = s.adminToken) {
  const res = await api('POST', '/category', { name }, token);
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
}

async function createFaq(question: string) {
  const res = await api('POST', '/faqs', { question, answer: 'An answer' });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().result.id as number;
}

const streams: Stream[] = [];
const track = (stream: Stream) => (streams.push(stream), stream);
afterAll(() => streams.forEach((st) => st.close()));

describe('GET events', () => {
  it('answers a stream that starts with where it resumes from, and nothing from the past', async () => {
    // Heard by this instance (on PostgreSQL through LISTEN) before the stream opens: a change
    // committed just before it opens may still come, which is harmless.
    const earlier = track(await ready(s.adminToken));
    const before = await createCategory('Before The Stream');
    await earlier.waitFor(change('category', 'created', before));
    earlier.close();
    const stream = track(await ready(s.adminToken));
    expect(stream.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(stream.headers.get('cache-control')).toBe('no-cache');
    expect(stream.headers.get('x-accel-buffering')).toBe('no');
    expect(stream.headers.get('x-request-id')).toBeTruthy();
    expect(stream.headers.get('content-encoding')).toBeNull();
    const newest = await s.ctx.db
      .selectFrom('auditLog')
      .select((eb) => eb.fn.max('id').as('id'))
      .executeTakeFirstOrThrow();
    expect(stream.blocks[0]).toEqual({ retry: '2000' });
    expect(stream.blocks[1]).toEqual({ id: String(newest.id) });
    expect(stream.events()).toEqual([]);
    stream.close();
  });

  it('answers a HEAD with the head alone', async () => {
    const res = await fetch(`${base}/events`, {
      method: 'HEAD',
      headers: { authorization: `Bearer ${s.adminToken}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/event-stream; charset=utf-8');
    expect(await res.text()).toBe('');
  });

  it('needs a token, and refuses a malformed Last-Event-ID naming it', async () => {
    const none = await fetch(`${base}/events`);
    expect(none.status).toBe(401);
    const bad = await openStream(base, s.adminToken, { 'last-event-id': 'abc' });
    expect(bad.status).toBe(400);
    await bad.ended;
  });

  it('sends a comment line when nothing else happens', async () => {
    const stream = track(await ready(s.adminToken));
    await stream.waitFor((b) => b.comment === 'ping', 4_000);
    stream.close();
  });

  it('tells of a create, a rename and a delete, with who did it', async () => {
    const stream = track(await ready(s.adminToken));
    const id = await createCategory('Live Category');
    const renamed = await api('PATCH', `/category/${id}`, { name: 'Live Renamed' });
    expect(renamed.statusCode).toBe(200);
    const version = renamed.json().result.version as number;
    expect((await api('DELETE', `/category/remove/${id}`)).statusCode).toBe(200);
    await stream.waitFor(change('category', 'deleted', id));
    const events = stream.events('change').filter((e) => e.data.id === id);
    expect(events.map((e) => e.data.action)).toEqual(['created', 'changed', 'deleted']);
    const by = { id: s.adminId, name: 'admin@test.local' };
    for (const e of events) expect(e.data).toMatchObject({ area: 'category', id, by });
    // "Row N is now version V": the rename's version; the delete names the version it removed.
    expect(events.map((e) => e.data.version)).toEqual([version - 1, version, version]);
    // Event ids are the audit entries', rising.
    const ids = events.map((e) => Number(e.id));
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    const logged = await s.ctx.db
      .selectFrom('auditLog')
      .select('id')
      .where('area', '=', 'categories')
      .where('rowId', '=', id)
      .orderBy('id')
      .execute();
    expect(logged.map((r) => r.id)).toEqual(ids);
    stream.close();
  });

  it('tells of every row of a bulk call', async () => {
    const apps = [];
    for (const name of ['Events App 1', 'Events App 2']) {
      const res = await api('POST', '/master-app', { name });
      apps.push(res.json().result.id as number);
    }
    const categoryId = await createCategory('Bulk Posters');
    const form = await multipart(
      { position: 'LEFT', topDefNum: '1', selfDefNum: '2', bottomDefNum: '3' },
      { file: { name: 'p.png', data: await images.png(31, 33), type: 'image/png' } },
    );
    const created = await s.api({
      method: 'POST',
      url: `/poster/${categoryId}`,
      token: s.adminToken,
      ...form,
    });
    expect(created.statusCode, created.body).toBe(200);
    const posterIds = created.json().result.ids as number[];
    expect(posterIds.length).toBeGreaterThanOrEqual(2);
    const stream = track(await ready(s.adminToken));
    const res = await api('PUT', '/poster/bulk-status', { ids: posterIds, status: 'DEACTIVE' });
    expect(res.statusCode, res.body).toBe(200);
    for (const id of posterIds) await stream.waitFor(change('poster', 'changed', id));
    stream.close();
  });

  it('does not announce a user’s numbered image as a user (its id is an image’s)', async () => {
    const appId = (await api('POST', '/master-app', { name: 'Images Events App' })).json().result
      .id as number;
    const user = await api('POST', '/auth/user/register', {
      phoneNumber: '9111100001',
      masterAppId: appId,
      name: 'Image Owner',
    });
    expect(user.statusCode, user.body).toBe(200);
    const userId = user.json().result.id as number;
    const stream = track(await ready(s.adminToken));
    const form = await multipart(
      { defNum: '1' },
      { file: { name: 't.png', data: await images.png(12, 12), type: 'image/png' } },
    );
    const image = await s.api({
      method: 'POST',
      url: `/top/${userId}`,
      token: s.adminToken,
      ...form,
    });
    expect(image.statusCode, image.body).toBe(200);
    // A change after it, heard: the image's own would have come first.
    const faqId = await createFaq('After the image');
    await stream.waitFor(change('faqs', 'created', faqId));
    expect(stream.events('change').filter((e) => e.data.area === 'users')).toEqual([]);
    stream.close();
  });

  it('reaches only accounts that may view the area', async () => {
    const faqsOnly = await s.staff({ faqs: ['VIEW'] });
    const stream = track(await ready(faqsOnly.token));
    const categoryId = await createCategory('Unseen By Faq Staff');
    const faqId = await createFaq('Seen by faq staff?');
    await stream.waitFor(change('faqs', 'created', faqId));
    // The category was created first: had it been sent, it would have come before.
    expect(stream.events('change').map((e) => e.data.area)).toEqual(['faqs']);
    expect(categoryId).toBeGreaterThan(0);

    // Only SUPER_ADMIN sees the staff area, whatever the grants.
    const staffViewer = await s.staff({ staff: ['VIEW'], faqs: ['VIEW'] });
    const staffStream = track(await ready(staffViewer.token));
    const admin = track(await ready(s.adminToken));
    const other = await s.staff();
    await api('PUT', `/account/staff/status/${other.id}`, { status: 'DEACTIVE' });
    await admin.waitFor(change('staff', 'changed', other.id));
    const laterFaq = await createFaq('After the staff change');
    await staffStream.waitFor(change('faqs', 'created', laterFaq));
    expect(staffStream.events('change').map((e) => e.data.area)).toEqual(['faqs']);
    for (const st of [stream, staffStream, admin]) st.close();
  });

  it('applies a grant given while the stream is open', async () => {
    const member = await s.staff({ faqs: ['VIEW'] });
    const stream = track(await ready(member.token));
    const grant = await api('PUT', `/user-permissions/bulk/${member.id}`, {
      items: await permissionItems(member.id, { faqs: ['VIEW'], category: ['VIEW'] }),
    });
    expect(grant.statusCode, grant.body).toBe(200);
    const id = await createCategory('Seen After The Grant');
    await stream.waitFor(change('category', 'created', id));
    stream.close();
  });

  it('tells the account whose grants change, and no other, to read its grants again', async () => {
    const member = await s.staff({ faqs: ['VIEW'] });
    const bystander = await s.staff({ faqs: ['VIEW'] });
    const stream = track(await ready(member.token));
    const other = track(await ready(bystander.token));
    const grant = await api('PUT', `/user-permissions/bulk/${member.id}`, {
      items: await permissionItems(member.id, { faqs: ['VIEW'], category: ['VIEW', 'UPDATE'] }),
    });
    expect(grant.statusCode, grant.body).toBe(200);
    await stream.waitFor((b) => b.event === 'access');
    // A revocation too, even of a kind other than VIEW.
    const revoke = await api('PUT', `/user-permissions/bulk/${member.id}`, {
      items: await permissionItems(member.id, { faqs: ['VIEW'], category: ['VIEW'] }),
    });
    expect(revoke.statusCode, revoke.body).toBe(200);
    await expect.poll(() => stream.events('access').length).toBe(2);
    // Told after what the bystander may see: it was not told.
    const faqId = await createFaq('After the grants');
    await other.waitFor(change('faqs', 'created', faqId));
    expect(other.events('access')).toEqual([]);

    // A stream that was away hears it in the replay.
    const lastId = stream.blocks.filter((b) => b.id !== undefined).at(-1)!.id!;
    stream.close();
    const again = await api('PUT', `/user-permissions/bulk/${member.id}`, {
      items: await permissionItems(member.id, { faqs: ['VIEW'] }),
    });
    expect(again.statusCode, again.body).toBe(200);
    const resumed = track(await openStream(base, member.token, { 'Last-Event-ID': lastId }));
    await resumed.waitFor((b) => b.event === 'access');
    for (const st of [other, resumed]) st.close();
  });

  it('sends nothing for a change that was rolled back', async () => {
    const first = await createCategory('Taken Name');
    const stream = track(await ready(s.adminToken));
    const taken = await api('POST', '/category', { name: 'Taken Name' });
    expect(taken.statusCode).toBe(409);
    const faqId = await createFaq('After the refused category');
    await stream.waitFor(change('faqs', 'created', faqId));
    // The first category's own event may come (on PostgreSQL LISTEN can deliver it just after
    // the stream opened: harmless); the refused one's never does.
    const heard = stream
      .events('change')
      .filter((e) => !(e.data.area === 'category' && e.data.id === first));
    expect(heard.map((e) => e.data.area)).toEqual(['faqs']);
    stream.close();
  });

  it('resumes after Last-Event-ID with what was missed, and nothing older', async () => {
    const older = await createCategory('Older Than The Slack');
    // Entries older than the replay's slack before the last id seen are not sent again.
    await s.ctx.db
      .updateTable('auditLog')
      .set({ createdAt: new Date(Date.now() - 30_000).toISOString() })
      .where('area', '=', 'categories')
      .where('rowId', '=', older)
      .execute();
    const first = track(await ready(s.adminToken));
    const seen = await createCategory('Seen Before The Drop');
    const seenEvent = await first.waitFor(change('category', 'created', seen));
    first.close();
    const missed = [await createCategory('Missed One'), await createCategory('Missed Two')];

    const resumed = track(await openStream(base, s.adminToken, { 'last-event-id': seenEvent.id! }));
    expect(resumed.status).toBe(200);
    for (const id of missed) await resumed.waitFor(change('category', 'created', id));
    // Replayed with the row's version as it is now (the log keeps none).
    const row = await s.ctx.db
      .selectFrom('categories')
      .select('version')
      .where('id', '=', missed[0]!)
      .executeTakeFirstOrThrow();
    // The categories' (the slack may replay other areas' rows, whose ids say nothing here).
    const replayed = resumed
      .events('change')
      .filter((e) => e.data.area === 'category')
      .map((e) => e.data.id);
    const firstReplayed = resumed.events('change').find((e) => e.data.id === missed[0]);
    expect(firstReplayed?.data.version).toBe(row.version);
    expect(replayed).not.toContain(seen);
    expect(replayed).not.toContain(older);
    // Live events follow the replay.
    const live = await createCategory('Live After Resume');
    await resumed.waitFor(change('category', 'created', live));
    resumed.close();
  });

  it('answers event: reset when the last id is older than the window or unknown', async () => {
    const id = await createCategory('Long Ago');
    const entry = await s.ctx.db
      .selectFrom('auditLog')
      .select('id')
      .where('area', '=', 'categories')
      .where('rowId', '=', id)
      .executeTakeFirstOrThrow();
    await s.ctx.db
      .updateTable('auditLog')
      .set({ createdAt: new Date(Date.now() - 10 * 60_000).toISOString() })
      .where('id', '=', entry.id)
      .execute();
    const stale = track(
      await openStream(base, s.adminToken, { 'last-event-id': String(entry.id) }),
    );
    await stale.waitFor((b) => b.event === 'reset');
    expect(stale.blocks.find((b) => b.event === 'reset')?.data).toBe('{}');
    const unknown = track(await openStream(base, s.adminToken, { 'last-event-id': '999999999' }));
    await unknown.waitFor((b) => b.event === 'reset');
    stale.close();
    unknown.close();
  });

  it('ends the stream of a session that is signed out, and of an account deactivated', async () => {
    const member = await s.staff({ faqs: ['VIEW'] });
    const stream = track(await ready(member.token));
    const out = await api('POST', '/auth/admin/logout', undefined, member.token);
    expect(out.statusCode).toBe(200);
    await stream.ended;

    const other = await s.staff({ faqs: ['VIEW'] });
    const second = track(await ready(other.token));
    const res = await api('PUT', `/account/staff/status/${other.id}`, { status: 'DEACTIVE' });
    expect(res.statusCode, res.body).toBe(200);
    await second.ended;
    const again = await fetch(`${base}/events`, {
      headers: { authorization: `Bearer ${other.token}` },
    });
    expect(again.status).toBe(401);
  });

  it('ends the stream of a session the owner’s second-factor rule limits, and opens none for it', async () => {
    const member = await s.staff({ faqs: ['VIEW'] });
    const stream = track(await ready(member.token));
    const on = await api('PUT', '/account/security', { requireSecondFactor: true });
    expect(on.statusCode, on.body).toBe(200);
    try {
      await stream.ended;
      const again = await fetch(`${base}/events`, {
        headers: { authorization: `Bearer ${member.token}` },
      });
      expect(again.status).toBe(403);
      expect(((await again.json()) as { message: string }).message).toBe(
        'A second factor is required',
      );
    } finally {
      await api('PUT', '/account/security', { requireSecondFactor: false });
    }
    // Lifted: the same session streams again.
    const lifted = track(await ready(member.token));
    expect(lifted.status).toBe(200);
    lifted.close();
    await lifted.ended;
  });
});

describe(`at most ${MAX_STREAMS_PER_ACCOUNT} streams per account`, () => {
  /** The rows of `accountId`'s open streams (every instance's). */
  const rowsOf = async (accountId: number) =>
    (
      await s.ctx.db
        .selectFrom('eventStreams')
        .select('id')
        .where('accountId', '=', accountId)
        .execute()
    ).length;
  /** The metrics gauge of this instance's open streams. */
  const gauge = async (app = s.app) => (await app.metrics.eventStreams.get()).values[0]?.value;

  it('opening one more ends the oldest; other accounts keep theirs; ended streams leave no row', async () => {
    const member = await s.staff({ faqs: ['VIEW'] });
    const other = await s.staff({ faqs: ['VIEW'] });
    const others = [track(await ready(other.token)), track(await ready(other.token))];
    const openBefore = s.app.eventStreams.size;
    // One token, as in the finding: its streams count, not its sessions.
    const mine: Stream[] = [];
    for (let i = 0; i < MAX_STREAMS_PER_ACCOUNT; i++) mine.push(track(await ready(member.token)));
    expect(await rowsOf(member.id)).toBe(MAX_STREAMS_PER_ACCOUNT);
    const newest = track(await ready(member.token));
    await mine[0]!.ended;
    expect(await rowsOf(member.id)).toBe(MAX_STREAMS_PER_ACCOUNT);
    expect(await rowsOf(other.id)).toBe(2);
    await expect.poll(() => s.app.eventStreams.size).toBe(openBefore + MAX_STREAMS_PER_ACCOUNT);
    expect(await gauge()).toBe(s.app.eventStreams.size);

    // The newest, the second oldest and the other account's streams are all still live.
    const faqId = await createFaq('Heard by the newest twenty');
    for (const stream of [newest, mine[1]!, ...others]) {
      await stream.waitFor(change('faqs', 'created', faqId));
    }

    // Another session of the same account counts with the first: its new stream ends the
    // oldest left (mine[1]).
    const again = track(await ready(await s.tokenFor(member.id)));
    await mine[1]!.ended;
    expect(await rowsOf(member.id)).toBe(MAX_STREAMS_PER_ACCOUNT);
    // (Also lets the client see the ended connection go before the others are aborted: fetch
    // aborting streams just then opens a new connection for each, which would hold the close.)
    const later = await createFaq('Heard by the newest session');
    await again.waitFor(change('faqs', 'created', later));

    for (const stream of [...mine, newest, again, ...others]) stream.close();
    await expect.poll(() => rowsOf(member.id)).toBe(0);
    await expect.poll(() => rowsOf(other.id)).toBe(0);
    await expect.poll(() => s.app.eventStreams.size).toBe(openBefore - 2);
    expect(await gauge()).toBe(s.app.eventStreams.size);
  });

  it.runIf(TEST_DB === 'postgres')(
    'counts the streams of every instance, and ends one pushed out by another instance',
    async () => {
      // A second instance on the same database (the same data folder: the same token secret).
      const second = await startServer({
        DATABASE_URL: s.env.DATABASE_URL!,
        DATA_DIR: s.env.DATA_DIR!,
      });
      try {
        await second.app.listen({ port: 0, host: '127.0.0.1' });
        const secondBase = `http://127.0.0.1:${(second.app.server.address() as AddressInfo).port}${API_BASE}`;
        const member = await s.staff({ faqs: ['VIEW'] });
        const here: Stream[] = [];
        for (let i = 0; i < MAX_STREAMS_PER_ACCOUNT; i++)
          here.push(track(await ready(member.token)));
        const there = track(await openStream(secondBase, member.token));
        expect(there.status).toBe(200);
        await there.waitFor((b) => b.id !== undefined && b.event === undefined);
        // Ended by the first instance's periodic check (every 5 s).
        await here[0]!.ended;
        expect(await rowsOf(member.id)).toBe(MAX_STREAMS_PER_ACCOUNT);
        const faqId = await createFaq('Heard on both instances');
        for (const stream of [here[1]!, there]) {
          await stream.waitFor(change('faqs', 'created', faqId));
        }
        expect(await gauge(second.app)).toBe(1);
        for (const stream of [...here, there]) stream.close();
        await expect.poll(() => rowsOf(member.id)).toBe(0);
      } finally {
        await second.close();
      }
    },
    20_000,
  );
});

describe.runIf(TEST_DB === 'postgres')('the LISTEN connection (PostgreSQL)', () => {
  it('is opened again when it drops; the streams end, and resume without losing a change', async () => {
    const stream = track(await ready(s.adminToken));
    const seen = await createCategory('Before The Drop');
    const last = await stream.waitFor(change('category', 'created', seen));
    const listening = sql<{ n: number }>`
      select count(*)::int as n from pg_stat_activity
      where datname = current_database() and query ilike 'listen %'`;
    // The instance's LISTEN connection, cut as a restart of the database would cut it.
    await sql`select pg_terminate_backend(pid) from pg_stat_activity
      where datname = current_database() and query ilike 'listen %'`.execute(s.ctx.db);
    const during = await createCategory('While Nobody Listens');
    // Once it listens again, what it missed may be lost to it: its streams end.
    await stream.ended;
    await expect
      .poll(async () => (await listening.execute(s.ctx.db)).rows[0]?.n, { timeout: 5_000 })
      .toBe(1);
    const resumed = track(await openStream(base, s.adminToken, { 'last-event-id': last.id! }));
    await resumed.waitFor(change('category', 'created', during));
    const after = await createCategory('After The Drop');
    await resumed.waitFor(change('category', 'created', after));
    resumed.close();
  });
});

/** The `items` of a permissions bulk call giving `account` exactly `grants`. */
async function permissionItems(accountId: number, grants: Record<string, string[]>) {
  const rows = await s.ctx.db
    .selectFrom('userPermissions as up')
    .innerJoin('menus as m', 'm.id', 'up.menuId')
    .innerJoin('permissions as p', 'p.id', 'up.permissionId')
    .select(['up.id', 'm.name as menu', 'p.name as kind'])
    .where('up.accountId', '=', accountId)
    .execute();
  return rows.map((r) => ({ id: r.id, status: grants[r.menu]?.includes(r.kind) ?? false }));
}

describe('presence', () => {
  let categoryId: number;
  beforeAll(async () => {
    categoryId = await createCategory('Edited By Two');
  });

  const put = (payload: unknown, token: string) => api('PUT', '/presence', payload, token);
  const del = (payload: unknown, token: string) => api('DELETE', '/presence', payload, token);

  it('is seen by others who may view the area, ends on DELETE, and expires', async () => {
    const editor = await s.staff({ category: ['VIEW', 'UPDATE'] });
    const viewer = await s.staff({ category: ['VIEW'] });
    const outsider = await s.staff({ faqs: ['VIEW'] });
    const watching = track(await ready(viewer.token));
    const outside = track(await ready(outsider.token));

    const held = await put({ area: 'category', id: categoryId }, editor.token);
    expect(held.statusCode, held.body).toBe(200);
    expect(held.json()).toEqual({ editors: [{ id: editor.id, name: editor.email }] });
    await watching.waitFor(presenceOf('category', categoryId, [editor.id]));

    // A stream opened later is told at once.
    const later = track(await ready(viewer.token));
    await later.waitFor(presenceOf('category', categoryId, [editor.id]));

    // A renewal changes no one's view: no second event.
    expect((await put({ area: 'category', id: categoryId }, editor.token)).statusCode).toBe(200);
    const both = await put({ area: 'category', id: categoryId }, viewer.token);
    expect(both.json().editors.map((e: { id: number }) => e.id)).toEqual([editor.id, viewer.id]);
    await watching.waitFor(presenceOf('category', categoryId, [editor.id, viewer.id]));
    expect(watching.events('presence').filter((e) => e.data.id === categoryId).length).toBe(2);

    const left = await del({ area: 'category', id: categoryId }, viewer.token);
    expect(left.statusCode, left.body).toBe(200);
    expect(left.json()).toEqual({ editors: [{ id: editor.id, name: editor.email }] });
    await watching.waitFor(presenceOf('category', categoryId, [editor.id]));

    // Not renewed: gone by itself, and said so.
    await watching.waitFor(
      presenceOf('category', categoryId, []),
      PRESENCE_TTL_SECONDS * 1000 + 4_000,
    );
    expect(outside.events('presence')).toEqual([]);
    for (const st of [watching, outside, later]) st.close();
  });

  it('needs VIEW on the area it names (staff: SUPER_ADMIN only)', async () => {
    const member = await s.staff({ faqs: ['VIEW'], staff: ['VIEW'] });
    const refused = await put({ area: 'category', id: categoryId }, member.token);
    expect(refused.statusCode).toBe(403);
    expect(refused.json().message).toBe(MESSAGES.accessDenied);
    expect((await put({ area: 'staff', id: 1 }, member.token)).statusCode).toBe(403);
    expect((await del({ area: 'category', id: categoryId }, member.token)).statusCode).toBe(403);
    expect((await put({ area: 'faqs', id: 5 }, member.token)).statusCode).toBe(200);
    expect((await put({ area: 'staff', id: 1 }, s.adminToken)).statusCode).toBe(200);
    expect((await del({ area: 'staff', id: 1 }, s.adminToken)).json()).toEqual({ editors: [] });
  });

  it('refuses a bad body, naming the field', async () => {
    const paths = (res: { json(): unknown }) =>
      ((res.json() as { details?: Array<{ path: string }> }).details ?? []).map((d) => d.path);
    for (const [body, field] of [
      [{ area: 'nowhere', id: 1 }, 'area'],
      [{ area: 'auth', id: 1 }, 'area'],
      [{ area: 'category', id: 0 }, 'id'],
      [{ area: 'category', id: 'x' }, 'id'],
      [{ area: 'category' }, 'id'],
      [{ id: 1 }, 'area'],
      [{ area: 'category', id: 1, extra: true }, 'extra'],
    ] as const) {
      for (const method of ['PUT', 'DELETE']) {
        const res = await api(method, '/presence', body);
        expect(res.statusCode, `${method} ${JSON.stringify(body)}`).toBe(400);
        expect(paths(res), `${method} ${JSON.stringify(body)}`).toContain(field);
      }
    }
    const unsigned = await s.api({
      method: 'PUT',
      url: '/presence',
      payload: { area: 'faqs', id: 1 },
    });
    expect(unsigned.statusCode).toBe(401);
  });
});

describe('afterCommit', () => {
  it('runs once the outermost transaction commits, never after a rollback', async () => {
    const ran: string[] = [];
    await inTransaction(s.ctx.db, async (trx) => {
      afterCommit(trx, () => ran.push('outer'));
      await inTransaction(trx, async (nested) => {
        afterCommit(nested, () => ran.push('nested'));
      });
      expect(ran).toEqual([]);
    });
    expect(ran).toEqual(['outer', 'nested']);

    await expect(
      inTransaction(s.ctx.db, async (trx) => {
        afterCommit(trx, () => ran.push('rolled back'));
        throw new Error('no');
      }),
    ).rejects.toThrow('no');
    expect(ran).toEqual(['outer', 'nested']);

    // Outside a transaction each statement has committed already: at once.
    afterCommit(s.ctx.db, () => ran.push('at once'));
    expect(ran).toEqual(['outer', 'nested', 'at once']);
  });
});

describe('the bus message on the wire', () => {
  it('splits a 500-row call under PostgreSQL’s 8,000-byte payload limit, and reads back', () => {
    const message: BusMessage = {
      kind: 'changes',
      by: { id: 7, name: 'Ásha with a long name '.repeat(4) },
      changes: Array.from({ length: 500 }, (_, i) => ({
        id: 1_000_000 + i,
        area: 'posters' as const,
        action: 'changed' as const,
        rowId: 2_000_000 + i,
        version: i % 2 ? 123_456 : null,
      })),
    };
    const payloads = encode(message);
    expect(payloads.length).toBeGreaterThan(1);
    for (const p of payloads) expect(Buffer.byteLength(p)).toBeLessThan(8000);
    const back = payloads.map(decode);
    expect(back.flatMap((m) => (m.kind === 'changes' ? m.changes : []))).toEqual(message.changes);
    for (const m of back) expect(m).toMatchObject({ kind: 'changes', by: message.by });
    const presence: BusMessage = { kind: 'presence', area: 'poster', rowId: 3 };
    expect(encode(presence).map(decode)).toEqual([presence]);
  });
});

describe('a client that stops reading', () => {
  it('is dropped once 256 kB wait unsent, rather than held in memory', () => {
    const written: string[] = [];
    const res = {
      destroyed: false,
      writableEnded: false,
      writableLength: 0,
      write(text: string) {
        written.push(text);
        this.writableLength += text.length;
        return this.writableLength < 16_384;
      },
      destroy() {
        this.destroyed = true;
      },
    };
    const access = { accountId: 1, superAdmin: true, menus: new Set<string>() };
    const stream = new EventStream(res as unknown as ServerResponse, 'session', access);
    stream.release();
    const event = `event: change\ndata: ${'x'.repeat(1000)}\n\n`;
    for (let i = 0; i < 400; i++) stream.send(event);
    expect(res.destroyed).toBe(true);
    // Written up to the limit, and nothing after.
    expect(res.writableLength).toBeGreaterThan(256 * 1024);
    expect(res.writableLength).toBeLessThan(256 * 1024 + 2 * event.length);
    expect(written.length).toBeLessThan(400);
  });
});
