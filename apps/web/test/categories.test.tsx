import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server, staffGrants } from './server';

const category = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  name: `Category ${id}`,
  downloadCount: 1234,
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

async function openActions(name: string, item: string) {
  await userEvent.click(await screen.findByRole('button', { name: `Actions for ${name}` }));
  await userEvent.click(await screen.findByRole('menuitem', { name: item }));
}

describe('categories', () => {
  it('lists categories with downloads and status, and keeps the filters in the URL', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/category/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [category(2, { status: 'DEACTIVE' })],
          total: 1,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/category?q=fest&status=DEACTIVE', { signedInAs: 'a@b.c' });
    const row = (await screen.findByRole('cell', { name: 'Category 2' })).closest('tr')!;
    expect(within(row).getByText('1,234')).toBeInTheDocument();
    expect(within(row).getByText('Deactivated')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&keyword=fest&status=DEACTIVE');

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Active' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=fest&status=ACTIVE'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=fest&status=ACTIVE'));
  });

  it('creates a category: form body, toast, dialog closes, list refreshes', async () => {
    let created = false;
    let body: string | undefined;
    server.use(
      http.get(api('/category/list'), () =>
        HttpResponse.json({
          result: created ? [category(1, { name: 'Festivals', downloadCount: 0 })] : [],
          total: created ? 1 : 0,
          nextCursor: null,
        }),
      ),
      http.post(api('/category'), async ({ request }) => {
        body = await request.text();
        created = true;
        return HttpResponse.json({
          message: 'Category Created Successfully',
          result: category(1, { name: 'Festivals', downloadCount: 0 }),
        });
      }),
    );
    renderApp('/category', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No categories yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New category' }));
    const dialog = await screen.findByRole('dialog', { name: 'New category' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(body).toBeUndefined();

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), ' Festivals ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Category Created Successfully')).toBeInTheDocument();
    expect(body).toBe('name=Festivals');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('cell', { name: 'Festivals' })).toBeInTheDocument();
  });

  it('renames, keeping the dialog open with the server’s 409 on the name', async () => {
    const bodies: string[] = [];
    server.use(
      http.get(api('/category/list'), () =>
        HttpResponse.json({ result: [category(4)], total: 1, nextCursor: null }),
      ),
      http.patch(api('/category/4'), async ({ request }) => {
        bodies.push(await request.text());
        return errorJson(409, 'Conflict', 'A category with this name already exists', 'name');
      }),
    );
    renderApp('/category', { signedInAs: 'a@b.c' });
    await openActions('Category 4', 'Rename');
    const dialog = await screen.findByRole('dialog', { name: 'Rename Category 4' });
    const name = within(dialog).getByRole('textbox', { name: 'Name' });
    expect(name).toHaveValue('Category 4');
    await userEvent.clear(name);
    await userEvent.type(name, 'Taken');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() =>
      expect(name).toHaveAccessibleDescription('A category with this name already exists'),
    );
    // On the field alone: one message per failure.
    expect(screen.getAllByText('A category with this name already exists')).toHaveLength(1);
    expect(bodies).toEqual(['name=Taken']);
    expect(screen.getByRole('dialog', { name: 'Rename Category 4' })).toBeInTheDocument();
  });

  it('changes the status', async () => {
    let body: string | undefined;
    server.use(
      http.get(api('/category/list'), () =>
        HttpResponse.json({ result: [category(6)], total: 1, nextCursor: null }),
      ),
      http.put(api('/category/status/6'), async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({
          message: 'Status Updated Successfully',
          result: category(6, { status: 'DEACTIVE' }),
        });
      }),
    );
    renderApp('/category', { signedInAs: 'a@b.c' });
    await openActions('Category 6', 'Change status');
    const dialog = await screen.findByRole('dialog', { name: 'Status of Category 6' });
    await userEvent.click(within(dialog).getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Deactivated' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Status Updated Successfully')).toBeInTheDocument();
    expect(body).toBe('status=DEACTIVE');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('changes the status in two clicks from the row', async () => {
    let body: string | undefined;
    server.use(
      http.get(api('/category/list'), () =>
        HttpResponse.json({
          result: [category(6, body ? { status: 'SUSPENDED' } : {})],
          total: 1,
          nextCursor: null,
        }),
      ),
      http.put(api('/category/status/6'), async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({
          message: 'Status Updated Successfully',
          result: category(6, { status: 'SUSPENDED' }),
        });
      }),
    );
    renderApp('/category', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Status of Category 6: Active. Change' }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Suspended' }));
    expect(await screen.findByText('Status Updated Successfully')).toBeInTheDocument();
    expect(body).toBe('status=SUSPENDED');
    expect(
      await screen.findByRole('button', { name: 'Status of Category 6: Suspended. Change' }),
    ).toBeInTheDocument();
  });

  it('shows staff who may only view the rows, without changes', async () => {
    server.use(
      staffGrants({ category: ['VIEW'] }),
      http.get(api('/category/list'), () =>
        HttpResponse.json({ result: [category(3)], total: 1, nextCursor: null }),
      ),
    );
    renderApp('/category', { signedInAs: 'a@b.c' });
    const row = (await screen.findByRole('cell', { name: 'Category 3' })).closest('tr')!;
    expect(within(row).getByText('Active')).toBeInTheDocument();
    // Viewing the rows is enough to read their history; nothing else is offered.
    expect(
      within(row)
        .getAllByRole('button')
        .map((b) => b.getAttribute('aria-label')),
    ).toEqual(['Actions for Category 3']);
    await userEvent.click(within(row).getByRole('button', { name: 'Actions for Category 3' }));
    expect((await screen.findAllByRole('menuitem')).map((i) => i.textContent)).toEqual(['History']);
    expect(screen.queryByRole('button', { name: 'New category' })).not.toBeInTheDocument();
  });

  it('offers the first category from the empty list', async () => {
    server.use(
      http.get(api('/category/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    renderApp('/category', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Add the first category' }));
    expect(await screen.findByRole('dialog', { name: 'New category' })).toBeInTheDocument();
  });

  it('asks before deleting; a category posters use gets the server’s 409 as a toast', async () => {
    let deletes = 0;
    server.use(
      http.get(api('/category/list'), () =>
        HttpResponse.json({ result: [category(9)], total: 1, nextCursor: null }),
      ),
      http.delete(api('/category/remove/9'), () => {
        deletes += 1;
        return errorJson(
          409,
          'Conflict',
          'This category still has posters: move or delete them first',
        );
      }),
    );
    renderApp('/category', { signedInAs: 'a@b.c' });
    await openActions('Category 9', 'Delete');
    const confirm = await screen.findByRole('dialog', { name: 'Delete this category?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(deletes).toBe(0);

    await openActions('Category 9', 'Delete');
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete this category?' })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    );
    expect(
      await screen.findByText('This category still has posters: move or delete them first'),
    ).toBeInTheDocument();
    expect(deletes).toBe(1);
    expect(screen.getByRole('cell', { name: 'Category 9' })).toBeInTheDocument();
  });
});
