import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS, type ChangeEventData } from '@master-admin/contract';
import { EventHub, FALLBACK_AFTER_FAILURES, PRESENCE_RENEW_MS, events } from '../src/lib/events';
import { subjectOf } from '../src/lib/session';
import { defined } from '../src/lib/defined';
import { renderApp } from './render';
import { HttpResponse, api, http, server } from './server';

/** A bearer token as the server signs it: its payload names account `sub`. */
const tokenFor = (sub: number) =>
  `e30.${btoa(JSON.stringify({ sid: 's', sub: String(sub) })).replace(/=+$/, '')}.sig`;
const ME = { id: 1, name: 'Owner' };
const ASHA = { id: 7, name: 'Asha' };

function signIn() {
  localStorage.setItem(STORAGE_KEYS.token, tokenFor(ME.id));
  localStorage.setItem(STORAGE_KEYS.loginId, 'owner@example.com');
}

const change = (
  eventId: number,
  data: Partial<ChangeEventData> & Pick<ChangeEventData, 'action' | 'id'>,
) =>
  `id: ${eventId}\nevent: change\ndata: ${JSON.stringify({ area: 'category', version: 2, by: ASHA, ...data })}\n\n`;
const presence = (id: number, editors: { id: number; name: string }[]) =>
  `event: presence\ndata: ${JSON.stringify({ area: 'category', id, editors })}\n\n`;

/**
 * `GET events` answered by streams the test writes into: `send` writes to the newest, `end`
 * closes it (the client reconnects). Each request's Last-Event-ID is kept.
 */
function streams(first: string[] = ['retry: 500\nid: 10\n\n']) {
  const encoder = new TextEncoder();
  const open: ReadableStreamDefaultController<Uint8Array>[] = [];
  const lastIds: (string | null)[] = [];
  let next = first;
  server.use(
    http.get(api('/events'), ({ request }) => {
      lastIds.push(request.headers.get('last-event-id'));
      const chunks = next;
      next = ['retry: 500\n\n'];
      const body = new ReadableStream<Uint8Array>({
        start(controller) {
          open.push(controller);
          for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        },
      });
      return new HttpResponse(body, { headers: { 'Content-Type': 'text/event-stream' } });
    }),
  );
  return {
    lastIds,
    get count() {
      return open.length;
    },
    send: (text: string) => act(() => defined(open.at(-1)).enqueue(encoder.encode(text))),
    end: () => defined(open.at(-1)).close(),
    /** The next stream starts with these. */
    then: (chunks: string[]) => void (next = chunks),
  };
}

const category = (id: number, name = `Category ${id}`, version = 1) => ({
  id,
  name,
  downloadCount: 0,
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
  version,
});

/** The category list, answering `rows()` as it is at each call; counts the calls. */
function categoryList(rows: () => ReturnType<typeof category>[]) {
  const calls = { count: 0 };
  server.use(
    http.get(api('/category/list'), () => {
      calls.count += 1;
      const result = rows();
      return HttpResponse.json({ result, total: result.length, nextCursor: null });
    }),
  );
  return calls;
}

/**
 * Waits until `done` (polling with setTimeout: waitFor polls with setInterval, which a test
 * here fakes).
 */
async function until(done: () => boolean) {
  for (let i = 0; i < 200 && !done(); i++) await new Promise((r) => setTimeout(r, 20));
  expect(done()).toBe(true);
}

afterEach(() => {
  vi.useRealTimers();
});

describe('the event stream', () => {
  it('reads the account from its token', () => {
    expect(subjectOf(tokenFor(42))).toBe(42);
    expect(subjectOf('not-a-token')).toBeNull();
    expect(subjectOf(null)).toBeNull();
  });

  it('parses events, resumes with Last-Event-ID after a drop, and drops repeated ids', async () => {
    signIn();
    const stream = streams([
      'retry: 500\nid: 10\n\n',
      // Split mid-line: the parser joins the chunks.
      change(11, { action: 'changed', id: 3 }).slice(0, 20),
      change(11, { action: 'changed', id: 3 }).slice(20),
      ': ping\n\n',
    ]);
    const hub = new EventHub();
    const heard: number[] = [];
    hub.onChange((e) => heard.push(e.id));
    hub.start();
    try {
      await waitFor(() => expect(heard).toEqual([3]));
      expect(hub.state).toBe('live');
      expect(hub.me).toBe(ME.id);
      // The replay repeats 11, then tells 12.
      stream.then([
        change(11, { action: 'changed', id: 3 }),
        change(12, { action: 'deleted', id: 4 }),
      ]);
      stream.end();
      await waitFor(() => expect(heard).toEqual([3, 4]));
      expect(stream.lastIds).toEqual([null, '11']);
      expect(hub.state).toBe('live');
    } finally {
      hub.stop();
    }
  });

  it('falls back to refetching when the server has no stream, and sends no token in a URL', async () => {
    signIn();
    const urls: string[] = [];
    server.use(
      http.get(api('/events'), ({ request }) => {
        urls.push(request.url);
        expect(request.headers.get('authorization')).toBe(`Bearer ${tokenFor(ME.id)}`);
        return new HttpResponse(null, { status: 404 });
      }),
    );
    const hub = new EventHub();
    const resyncs = vi.fn();
    hub.onResync(resyncs);
    hub.start();
    try {
      await waitFor(() => expect(hub.state).toBe('fallback'));
      expect(urls).toHaveLength(1);
      expect(urls[0]).not.toContain('token');
      // Entering fallback refetches at once; a focus refetches again.
      expect(resyncs).toHaveBeenCalledTimes(1);
      window.dispatchEvent(new Event('focus'));
      expect(resyncs).toHaveBeenCalledTimes(2);
    } finally {
      hub.stop();
    }
  });

  it('falls back after failing again and again, and is live again when the stream returns', async () => {
    signIn();
    let failing = true;
    let tries = 0;
    server.use(
      http.get(api('/events'), () => {
        tries += 1;
        if (failing) return new HttpResponse(null, { status: 503 });
        return new HttpResponse('retry: 500\nid: 10\n\n', {
          headers: { 'Content-Type': 'text/event-stream' },
        });
      }),
    );
    const hub = new EventHub();
    hub.start();
    try {
      await waitFor(() => expect(hub.state).toBe('fallback'), { timeout: 8_000 });
      expect(tries).toBe(FALLBACK_AFTER_FAILURES);
      failing = false;
      // Back online: it tries again at once.
      window.dispatchEvent(new Event('online'));
      await waitFor(() => expect(hub.state).toBe('live'));
    } finally {
      hub.stop();
    }
  });

  it('stops on sign-out: closes the stream and forgets presence', async () => {
    signIn();
    const stream = streams(['retry: 500\nid: 10\n\n', presence(5, [ASHA])]);
    const hub = new EventHub();
    hub.start();
    await waitFor(() => expect(hub.editors('category', 5)).toEqual([ASHA]));
    hub.stop();
    expect(hub.state).toBe('stopped');
    expect(hub.editors('category', 5)).toEqual([]);
    expect(stream.count).toBe(1);
  });
});

describe('a live list', () => {
  it('updates a row changed elsewhere in place, quietly', async () => {
    signIn();
    let name = 'Diwali';
    // After the change, a new row sorts first: it is not pushed in by the quiet fetch.
    const calls = categoryList(() =>
      name === 'Diwali'
        ? [category(1, name), category(2)]
        : [category(3, 'Holi'), category(1, name, 2), category(2)],
    );
    const stream = streams();
    renderApp('/category');
    const cell = await screen.findByRole('cell', { name: 'Diwali' });
    const row = defined(cell.closest('tr'));
    await waitFor(() => expect(events.state).toBe('live'));
    const before = calls.count;

    name = 'Deepavali';
    stream.send(change(11, { action: 'changed', id: 1, version: 2 }));
    await waitFor(() => expect(within(row).getByText('Deepavali')).toBeInTheDocument());
    expect(calls.count).toBe(before + 1);
    // The same row element, still in the table; no loading rows.
    expect(row.isConnected).toBe(true);
    expect(screen.queryAllByTestId('loading-row')).toHaveLength(0);
    expect(screen.queryByRole('cell', { name: 'Holi' })).not.toBeInTheDocument();
    expect(screen.getAllByRole('row')).toHaveLength(3);

    // A change of a row not on the page, or the account's own, fetches nothing.
    stream.send(change(12, { action: 'changed', id: 99 }));
    stream.send(change(13, { action: 'changed', id: 2, by: ME }));
    await new Promise((resolve) => setTimeout(resolve, 400));
    expect(calls.count).toBe(before + 1);
  });

  it('announces rows created elsewhere instead of pushing them in; Show fetches them', async () => {
    signIn();
    const rows = [category(1, 'Diwali')];
    const calls = categoryList(() => rows);
    const stream = streams();
    renderApp('/category?page=1&sort=name');
    await screen.findByRole('cell', { name: 'Diwali' });
    await waitFor(() => expect(events.state).toBe('live'));
    const before = calls.count;

    rows.push(category(2, 'Holi'), category(3, 'Onam'));
    stream.send(change(11, { action: 'created', id: 2 }));
    stream.send(change(12, { action: 'created', id: 3 }));
    // One's own new row is not announced.
    stream.send(change(13, { action: 'created', id: 4, by: ME }));
    const status = await screen.findByText('2 new categories');
    expect(status.closest('[role="status"]')).toHaveAttribute('aria-live', 'polite');
    expect(screen.getByTestId('new-rows')).toHaveTextContent('by Asha');
    expect(screen.queryByRole('cell', { name: 'Holi' })).not.toBeInTheDocument();
    expect(calls.count).toBe(before);

    await userEvent.click(screen.getByRole('button', { name: 'Show the new categories' }));
    expect(await screen.findByRole('cell', { name: 'Holi' })).toBeInTheDocument();
    expect(screen.queryByTestId('new-rows')).not.toBeInTheDocument();
  });

  it('marks a row deleted elsewhere until the next fetch, without its actions', async () => {
    signIn();
    let gone = false;
    categoryList(() =>
      gone ? [category(1, 'Diwali', 2)] : [category(1, 'Diwali'), category(2, 'Holi')],
    );
    const stream = streams();
    renderApp('/category');
    const row = defined((await screen.findByRole('cell', { name: /Holi/ })).closest('tr'));
    await waitFor(() => expect(events.state).toBe('live'));

    gone = true;
    stream.send(change(11, { action: 'deleted', id: 2 }));
    expect(await within(row).findByText('Deleted by Asha')).toBeInTheDocument();
    expect(row).toHaveAttribute('data-deleted');
    expect(within(row).queryByRole('button', { name: 'Actions for Holi' })).toBeNull();
    // The other rows are as they were.
    expect(screen.getByRole('button', { name: 'Actions for Diwali' })).toBeInTheDocument();
    // A change of another row updates that row in place; the deleted one stays marked.
    stream.send(change(12, { action: 'changed', id: 1, version: 2 }));
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(within(row).getByText('Deleted by Asha')).toBeInTheDocument();
  });

  it('refetches on a reset event', async () => {
    signIn();
    const calls = categoryList(() => [category(1, 'Diwali')]);
    const stream = streams();
    renderApp('/category');
    await screen.findByRole('cell', { name: 'Diwali' });
    await waitFor(() => expect(events.state).toBe('live'));
    const before = calls.count;
    stream.send('event: reset\ndata: {}\n\n');
    await waitFor(() => expect(calls.count).toBe(before + 1));
  });

  it('refetches the open list when the stream is unavailable: at once, then on focus', async () => {
    signIn();
    const calls = categoryList(() => [category(1, 'Diwali')]);
    server.use(http.get(api('/events'), () => new HttpResponse(null, { status: 404 })));
    renderApp('/category');
    await screen.findByRole('cell', { name: 'Diwali' });
    await waitFor(() => expect(events.state).toBe('fallback'));
    const before = calls.count;
    window.dispatchEvent(new Event('focus'));
    await waitFor(() => expect(calls.count).toBe(before + 1));
  });
});

describe('presence', () => {
  it('shows who else edits a row in the list and its dialog, holds and releases its own', async () => {
    signIn();
    categoryList(() => [category(1, 'Diwali'), category(2, 'Holi')]);
    const held: string[] = [];
    server.use(
      http.put(api('/presence'), async ({ request }) => {
        held.push(`PUT ${await request.text()}`);
        return HttpResponse.json({ editors: [ME, ASHA] });
      }),
      http.delete(api('/presence'), async ({ request }) => {
        held.push(`DELETE ${await request.text()}`);
        return HttpResponse.json({ editors: [ASHA] });
      }),
    );
    const stream = streams();
    renderApp('/category');
    const row = defined((await screen.findByRole('cell', { name: /Diwali/ })).closest('tr'));
    await waitFor(() => expect(events.state).toBe('live'));

    // The account's own presence is left out.
    stream.send(presence(1, [ME, ASHA]));
    expect(await within(row).findByText('Asha is editing')).toBeInTheDocument();
    stream.send(presence(2, [ME]));
    const other = defined(screen.getByRole('cell', { name: /Holi/ }).closest('tr'));
    expect(within(other).queryByText(/is editing/)).toBeNull();

    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Diwali' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Diwali' });
    expect(await within(dialog).findByText('Asha is editing')).toBeInTheDocument();
    await until(() => held.length === 1);
    expect(held).toEqual(['PUT {"area":"category","id":1}']);
    // Renewed while it stays open.
    act(() => void vi.advanceTimersByTime(PRESENCE_RENEW_MS));
    await until(() => held.length === 2);
    expect(held[1]).toBe('PUT {"area":"category","id":1}');

    // Someone else saves the row meanwhile: the dialog says so.
    stream.send(change(11, { action: 'changed', id: 1, version: 2 }));
    expect(await within(dialog).findByText(/Changed by Asha a moment ago/)).toBeInTheDocument();
    expect(within(dialog).getByRole('button', { name: 'Review' })).toBeInTheDocument();

    await userEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    await until(() => held.length === 3);
    expect(held.at(-1)).toBe('DELETE {"area":"category","id":1}');
    act(() => void vi.advanceTimersByTime(PRESENCE_RENEW_MS * 2));
    expect(held.filter((h) => h.startsWith('PUT'))).toHaveLength(2);
  });
});

describe('a live dashboard', () => {
  it('refreshes its counts quietly when a user signs up or a poster is downloaded elsewhere', async () => {
    signIn();
    let users = 10;
    let calls = 0;
    server.use(
      http.get(api('/dashboard/getCount'), () => {
        calls += 1;
        return HttpResponse.json({
          totalUser: users,
          totalCategory: 2,
          totalPoster: 3,
          downloadPoster: 4,
        });
      }),
    );
    const stream = streams();
    renderApp('/');
    const stat = await screen.findByTestId('stat-totalUser');
    await waitFor(() => expect(stat).toHaveTextContent('10'));
    await waitFor(() => expect(events.state).toBe('live'));
    const before = calls;

    users = 11;
    // A sign-up in the content app: the end user made it.
    stream.send(
      change(11, {
        area: 'users',
        action: 'created',
        id: 42,
        by: { id: 42, name: '+919800000001' },
      }),
    );
    // Not a figure the dashboard shows: nothing fetched for it.
    stream.send(change(12, { area: 'faqs', action: 'created', id: 5 }));
    await waitFor(() => expect(stat).toHaveTextContent('11'), { timeout: 3_000 });
    expect(calls).toBe(before + 1);
  });
});

describe('grants changed by the owner while a screen is open', () => {
  it('follow on the open screen and in the menu within seconds, with no reload or call', async () => {
    signIn();
    let grants: Record<string, string[]> = { category: ['VIEW', 'CREATE'], faqs: ['VIEW'] };
    server.use(
      http.get(api('/account/me/permissions'), () => HttpResponse.json({ role: 'STAFF', grants })),
    );
    categoryList(() => [category(1)]);
    const stream = streams();
    renderApp('/category');
    expect(await screen.findByRole('button', { name: 'New category' })).toBeInTheDocument();
    await waitFor(() => expect(events.state).toBe('live'));
    const nav = screen.getByRole('navigation', { name: 'Areas' });
    expect(within(nav).queryByRole('link', { name: 'Banners' })).toBeNull();

    // The owner takes CREATE away and grants banners: the stream says so.
    grants = { category: ['VIEW'], faqs: ['VIEW'], banner: ['VIEW'] };
    stream.send('id: 11\nevent: access\ndata: {}\n\n');
    await waitFor(() =>
      expect(screen.queryByRole('button', { name: 'New category' })).not.toBeInTheDocument(),
    );
    expect(await within(nav).findByRole('link', { name: 'Banners' })).toBeInTheDocument();

    // Then VIEW: the open screen says "Access Denied!".
    grants = { faqs: ['VIEW'] };
    stream.send('id: 12\nevent: access\ndata: {}\n\n');
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeInTheDocument();
  });
});

describe('layers and Esc', () => {
  it('one Esc closes only the top layer: the History panel, then the edit dialog asks', async () => {
    signIn();
    categoryList(() => [category(1, 'Diwali')]);
    server.use(
      http.get(api('/audit/history/categories/1'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    const stream = streams();
    renderApp('/category');
    await screen.findByRole('cell', { name: /Diwali/ });
    await waitFor(() => expect(events.state).toBe('live'));
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Diwali' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Rename' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Diwali' });
    const name = within(dialog).getByRole('textbox', { name: /Name/ });
    await userEvent.type(name, ' Special');
    stream.send(change(11, { action: 'changed', id: 1, version: 2 }));
    await userEvent.click(await within(dialog).findByRole('button', { name: 'Review' }));
    const history = await screen.findByRole('dialog', { name: 'History of Diwali' });

    await userEvent.keyboard('{Escape}');
    await waitFor(() => expect(history).not.toBeInTheDocument());
    // The edit dialog is still open, and asks nothing yet.
    expect(screen.getByRole('dialog', { name: 'Rename Diwali' })).toBeInTheDocument();
    expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull();
    expect(name).toHaveValue('Diwali Special');

    // The next Esc asks about the changes, and the one after keeps them (the prompt is on top).
    await userEvent.keyboard('{Escape}');
    expect(await screen.findByRole('dialog', { name: 'Discard changes?' })).toBeInTheDocument();
    await userEvent.keyboard('{Escape}');
    await waitFor(() =>
      expect(screen.queryByRole('dialog', { name: 'Discard changes?' })).toBeNull(),
    );
    expect(screen.getByRole('dialog', { name: 'Rename Diwali' })).toBeInTheDocument();
  });
});
