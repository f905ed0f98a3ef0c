/**
 * The users list's sort headings, and the bulk status change of the shared selection: the rows
 * picked, or every row matching the search and filters ("Select all N matching"), read page by
 * page and sent BULK_MAX ids at a time after the count was confirmed.
 */
import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';
import { user } from './users-rows';

/**
 * A users list of `count()` users (ids 1..count), paged as the server pages; answers the query
 * strings it was asked, and the bodies of the bulk calls.
 */
function withUsers(count: () => number) {
  const seen: URLSearchParams[] = [];
  const bulk: Array<{ ids: number[]; status: string }> = [];
  server.use(
    http.get(api('/master-app/options'), () =>
      HttpResponse.json({ result: [{ id: 2, name: 'Festival', timeZone: 'UTC' }] }),
    ),
    http.get(api('/account/user/list'), ({ request }) => {
      const q = new URL(request.url).searchParams;
      seen.push(q);
      const total = count();
      // As the server pages: by offset, or past the position a cursor names (here, an id).
      const cursor = q.get('cursor');
      const offset = cursor === null ? Number(q.get('offset')) : Number(cursor.split('.')[0]);
      const limit = Number(q.get('limit'));
      const ids = Array.from({ length: Math.max(0, Math.min(limit, total - offset)) }, (_, i) => {
        return offset + i + 1;
      });
      const last = ids.at(-1);
      const nextCursor = ids.length === limit && last! < total ? `${last}.${'s'.repeat(22)}` : null;
      return HttpResponse.json({ result: ids.map((id) => user(id)), total, nextCursor });
    }),
    http.put(api('/account/user/bulk-status'), async ({ request }) => {
      const body = (await request.json()) as { ids: number[]; status: string };
      bulk.push(body);
      return HttpResponse.json({
        message: 'Status Updated Successfully',
        result: { ids: body.ids, count: body.ids.length },
      });
    }),
  );
  return { seen, bulk };
}

describe('users list: sorts and bulk status', () => {
  it('sorts by name, date limit, status and registration from the headings', async () => {
    const { seen } = withUsers(() => 3);
    const { router } = renderApp('/users', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Users' });
    await within(table).findByRole('link', { name: 'User 1' });
    for (const [heading, sort] of [
      ['User', 'name'],
      ['Date limit', 'dateLimit'],
      ['Status', 'status'],
      ['Registered', 'createdAt'],
    ] as const) {
      await userEvent.click(within(table).getByRole('button', { name: heading }));
      await waitFor(() => expect(router.state.location.search).toBe(`?sort=${sort}`));
      await waitFor(() => expect(seen.at(-1)?.get('sort')).toBe(sort));
    }
    await userEvent.click(within(table).getByRole('button', { name: 'Registered' }));
    await waitFor(() => expect(seen.at(-1)?.get('sort')).toBe('-createdAt'));
  });

  it('changes the status of every matching user: confirms the count, then 500 ids a call', async () => {
    const { seen, bulk } = withUsers(() => 1234);
    renderApp('/users?status=ACTIVE', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Select every row on this page' }),
    );
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    expect(within(bar).getByText('20 selected')).toBeInTheDocument();
    await userEvent.click(within(bar).getByRole('button', { name: 'Select all 1,234 matching' }));
    expect(within(bar).getByText('All 1,234 matching selected')).toBeInTheDocument();
    // Every row shows as picked; the page's box too.
    expect(screen.getByRole('checkbox', { name: 'Select User 5' })).toBeChecked();

    await userEvent.click(within(bar).getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status of 1,234 users' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    // Deleting is its own action: not a status a bulk change sets.
    expect(screen.queryByRole('option', { name: 'Deleted' })).toBeNull();
    await userEvent.click(await screen.findByRole('option', { name: 'Suspended' }));
    const before = seen.length;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));

    expect(await screen.findByText('Status Updated Successfully')).toBeInTheDocument();
    // The ids were read with the list's own filter, a hundred at a time, following the cursors.
    const reads = seen.slice(before).filter((q) => q.get('limit') === '100');
    expect(reads.map((q) => q.get('cursor')?.split('.')[0] ?? null)).toEqual([
      null,
      ...Array.from({ length: 12 }, (_, i) => String((i + 1) * 100)),
    ]);
    expect(reads.every((q) => q.get('status') === 'ACTIVE')).toBe(true);
    expect(bulk.map((b) => b.ids.length)).toEqual([500, 500, 234]);
    expect(bulk.every((b) => b.status === 'SUSPENDED')).toBe(true);
    expect(new Set(bulk.flatMap((b) => b.ids)).size).toBe(1234);
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Selected rows' })).toBeNull());
  });

  it('changes nothing when the list no longer holds the count confirmed', async () => {
    let total = 45;
    const { bulk } = withUsers(() => total);
    renderApp('/users', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Select every row on this page' }),
    );
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Select all 45 matching' }));
    await userEvent.click(within(bar).getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status of 45 users' });
    // Someone registers a user meanwhile.
    total = 46;
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText(/The list changed: 46 match now, not 45\. Nothing was changed/),
    ).toBeInTheDocument();
    expect(bulk).toEqual([]);
  });

  it('says how many were changed when a later call of several fails', async () => {
    const { bulk, seen } = withUsers(() => 1234);
    server.use(
      http.put(api('/account/user/bulk-status'), async ({ request }) => {
        const body = (await request.json()) as { ids: number[]; status: string };
        bulk.push(body);
        if (bulk.length === 2) return errorJson(404, 'Not Found', 'No user with id 777');
        return HttpResponse.json({
          message: 'Status Updated Successfully',
          result: { ids: body.ids, count: body.ids.length },
        });
      }),
    );
    renderApp('/users', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Select every row on this page' }),
    );
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Select all 1,234 matching' }));
    await userEvent.click(within(bar).getByRole('button', { name: 'Change status' }));
    const dialog = await screen.findByRole('dialog', { name: 'Status of 1,234 users' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await screen.findByText('500 of 1,234 were changed, then: No user with id 777'),
    ).toBeInTheDocument();
    // The calls stop at the failure; the dialog stays open to try again.
    expect(bulk).toHaveLength(2);
    // The list is read again, showing the rows that did change.
    await waitFor(() => expect(seen.at(-1)?.get('limit')).toBe('20'));
    expect(screen.getByRole('dialog', { name: 'Status of 1,234 users' })).toBeInTheDocument();
  });

  it('unticking a row after "all matching" keeps the rest of the page picked', async () => {
    withUsers(() => 60);
    renderApp('/users', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('checkbox', { name: 'Select every row on this page' }),
    );
    const bar = screen.getByRole('region', { name: 'Selected rows' });
    await userEvent.click(within(bar).getByRole('button', { name: 'Select all 60 matching' }));
    await userEvent.click(screen.getByRole('checkbox', { name: 'Select User 3' }));
    expect(within(bar).getByText('19 selected')).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Select User 3' })).not.toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Select User 4' })).toBeChecked();
  });
});
