import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, http, api, server } from './server';

const notification = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  masterAppId: 2,
  accountId: null,
  title: `Sale ${id}`,
  desc: 'Fifty percent off every poster this weekend only.',
  type: 'OFFER',
  read: false,
  readCount: 0,
  logo: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  masterApp: { id: 2, name: 'Festival' },
  ...overrides,
});

function withApps() {
  server.use(
    http.get(api('/master-app/options'), () =>
      HttpResponse.json({
        result: [
          { id: 2, name: 'Festival', timeZone: 'UTC' },
          { id: 3, name: 'Cricket', timeZone: 'UTC' },
        ],
      }),
    ),
  );
}

async function openCreate() {
  await userEvent.click(await screen.findByRole('button', { name: 'New notification' }));
  const dialog = await screen.findByRole('dialog', { name: 'New notification' });
  const select = within(dialog).getByRole('combobox', { name: 'Master app' });
  await waitFor(() => expect(select).toBeEnabled());
  return dialog;
}

async function fill(dialog: HTMLElement) {
  await userEvent.click(within(dialog).getByRole('combobox', { name: 'Master app' }));
  await userEvent.click(await screen.findByRole('option', { name: 'Festival' }));
  await userEvent.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Diwali');
  await userEvent.type(
    within(dialog).getByRole('textbox', { name: 'Description' }),
    'New festival posters',
  );
}

describe('notifications', () => {
  it('lists notifications with their recipient and who read them, and keeps the filters in the URL', async () => {
    withApps();
    const seen: string[] = [];
    server.use(
      http.get(api('/notifications/admin'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [
            notification(7, {
              logo: `/media/notifications/ab/${'b'.repeat(64)}.webp`,
              readCount: 1234,
            }),
            notification(8, { accountId: 41, read: true, readCount: 1, type: 'Launch day' }),
            notification(9, { accountId: 42 }),
          ],
          total: 3,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/notification?masterAppId=2', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Notifications' });
    await within(table).findByText('User #41');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(4);
    expect(within(rows[1]!).getByRole('img', { name: 'Logo of notification #7' })).toHaveAttribute(
      'src',
      `/media/notifications/ab/${'b'.repeat(64)}.thumb.webp`,
    );
    expect(within(rows[1]!).getByText('All users')).toBeInTheDocument();
    // To every user: how many read it; to one user: whether they did.
    expect(within(rows[1]!).getByText('Read by 1,234')).toBeInTheDocument();
    expect(within(rows[2]!).getByLabelText('No logo')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('User #41')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Launch day')).toBeInTheDocument();
    expect(within(rows[2]!).getByText('Read')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('User #42')).toBeInTheDocument();
    expect(within(rows[3]!).getByText('Unread')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&masterAppId=2');

    await userEvent.type(screen.getByRole('textbox', { name: 'Search notifications' }), 'posters');
    await waitFor(() => expect(router.state.location.search).toBe('?masterAppId=2&q=posters'));
    await waitFor(() =>
      expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=posters&masterAppId=2'),
    );
  });

  it('creates one for every user, with a logo, as multipart', async () => {
    withApps();
    let created = false;
    let sent: string | undefined;
    server.use(
      http.get(api('/notifications/admin'), () =>
        HttpResponse.json({
          result: created ? [notification(1, { title: 'Diwali' })] : [],
          total: created ? 1 : 0,
          nextCursor: null,
        }),
      ),
      http.post(api('/notifications/single'), async ({ request }) => {
        sent = await request.text();
        created = true;
        return HttpResponse.json({
          message: 'Notification Created Successfully',
          result: notification(1),
        });
      }),
    );
    renderApp('/notification', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
    const dialog = await openCreate();

    // GENERAL is offered first; the title, description and app are required.
    expect(within(dialog).getByRole('combobox', { name: 'Type' })).toHaveValue('GENERAL');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Choose a master app')).toBeInTheDocument();
    expect(within(dialog).getAllByText('Required')).toHaveLength(2);
    expect(sent).toBeUndefined();

    await fill(dialog);
    const type = within(dialog).getByRole('combobox', { name: 'Type' });
    await userEvent.clear(type);
    await userEvent.type(type, 'FEST');
    await userEvent.click(await screen.findByRole('option', { name: 'FESTIVAL' }));
    expect(type).toHaveValue('FESTIVAL');
    const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'bell.png', {
      type: 'image/png',
    });
    await userEvent.upload(dialog.querySelector('input[type=file]')!, file);
    expect(
      await within(dialog).findByRole('img', { name: 'Preview of bell.png' }),
    ).toBeInTheDocument();
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Notification Created Successfully')).toBeInTheDocument();
    expect(sent).toContain('name="logo"; filename="bell.png"');
    expect(sent).toMatch(/name="masterAppId"\r\n\r\n2\r\n/);
    expect(sent).toMatch(/name="title"\r\n\r\nDiwali\r\n/);
    expect(sent).toMatch(/name="desc"\r\n\r\nNew festival posters\r\n/);
    expect(sent).toMatch(/name="type"\r\n\r\nFESTIVAL\r\n/);
    expect(sent).not.toContain('name="accountId"');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByText('Diwali')).toBeInTheDocument();
  });

  it('takes a free type and one user; a user not of that app marks the field', async () => {
    withApps();
    const sent: string[] = [];
    server.use(
      http.get(api('/notifications/admin'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.post(api('/notifications/single'), async ({ request }) => {
        const body = await request.text();
        sent.push(body);
        if (/name="accountId"\r\n\r\n99\r\n/.test(body)) {
          return HttpResponse.json(
            {
              statusCode: 404,
              error: 'Not Found',
              message: 'User not found',
              details: [{ path: 'accountId', message: 'User not found' }],
            },
            { status: 404 },
          );
        }
        return HttpResponse.json({
          message: 'Notification Created Successfully',
          result: notification(2, { accountId: 41 }),
        });
      }),
    );
    renderApp('/notification', { signedInAs: 'a@b.c' });
    const dialog = await openCreate();
    await fill(dialog);
    const type = within(dialog).getByRole('combobox', { name: 'Type' });
    await userEvent.clear(type);
    await userEvent.type(type, 'Launch day');
    const user = within(dialog).getByRole('textbox', { name: 'User id' });
    await userEvent.type(user, '99');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    await waitFor(() => expect(user).toHaveAttribute('aria-invalid', 'true'));
    expect(within(dialog).getByText('User not found')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'New notification' })).toBeInTheDocument();
    expect(sent[0]).toMatch(/name="type"\r\n\r\nLaunch day\r\n/);
    expect(sent[0]).not.toContain('name="logo"');

    await userEvent.clear(user);
    await userEvent.type(user, '41');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Notification Created Successfully')).toBeInTheDocument();
    expect(sent[1]).toMatch(/name="accountId"\r\n\r\n41\r\n/);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('asks before deleting', async () => {
    withApps();
    let deletes = 0;
    let gone = false;
    server.use(
      http.get(api('/notifications/admin'), () =>
        HttpResponse.json(
          gone
            ? { result: [], total: 0, nextCursor: null }
            : { result: [notification(4)], total: 1, nextCursor: null },
        ),
      ),
      http.delete(api('/notifications/remove/4'), () => {
        deletes += 1;
        gone = true;
        return HttpResponse.json({
          message: 'notification deleted successfully',
          result: { id: 4 },
        });
      }),
    );
    renderApp('/notification', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Actions for Notification #4' }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this notification?' });
    expect(within(confirm).getByText(/“Sale 4”/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(deletes).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Notification #4' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete this notification?' })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    );
    expect(await screen.findByText('notification deleted successfully')).toBeInTheDocument();
    expect(deletes).toBe(1);
    expect(await screen.findByText('No notifications yet')).toBeInTheDocument();
  });
});
