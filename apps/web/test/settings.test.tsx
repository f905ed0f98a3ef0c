import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const settings = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  title: `Festival ${id}`,
  user_domain: 'app.example.com',
  admin_domain: null,
  mobile_domain: 'https://m.example.com',
  logo: `/media/settings/ab/${'a'.repeat(63)}${id}.webp`,
  updatedAt: '2026-11-20T10:00:00.000Z',
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

const png = () =>
  new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'logo.png', { type: 'image/png' });

async function chooseApp(dialog: HTMLElement, name: string) {
  const select = within(dialog).getByRole('combobox', { name: 'Master app' });
  await waitFor(() => expect(select).toBeEnabled());
  await userEvent.click(select);
  await userEvent.click(await screen.findByRole('option', { name }));
}

describe('settings', () => {
  it('lists settings with logo, title, app and domains, and keeps the filters in the URL', async () => {
    withApps();
    const seen: string[] = [];
    server.use(
      http.get(api('/settings/admin'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ result: [settings(7)], total: 1, nextCursor: null });
      }),
    );
    const { router } = renderApp('/settings?q=fest', { signedInAs: 'a@b.c' });
    const thumb = await screen.findByRole('img', { name: 'Logo of Festival' });
    expect(thumb).toHaveAttribute('src', settings(7).logo.replace('.webp', '.thumb.webp'));
    const table = screen.getByRole('table', { name: 'Settings' });
    expect(within(table).getByText('Festival 7')).toBeInTheDocument();
    expect(within(table).getByText('app.example.com')).toBeInTheDocument();
    expect(within(table).getByText('https://m.example.com')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0&keyword=fest');

    await userEvent.click(screen.getByRole('combobox', { name: 'Master app' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Cricket' }));
    await waitFor(() => expect(router.state.location.search).toBe('?q=fest&masterAppId=3'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=fest&masterAppId=3'));

    // The full image opens from the thumbnail.
    await userEvent.click(screen.getByRole('button', { name: 'Show Logo of Festival' }));
    const full = await screen.findByRole('dialog', { name: 'Logo of Festival' });
    expect(within(full).getByRole('img')).toHaveAttribute('src', settings(7).logo);
  });

  it('creates settings: needs an app, a logo and a title, checks domains, sends multipart', async () => {
    withApps();
    let created = false;
    let sent: string | undefined;
    let url = '';
    server.use(
      http.get(api('/settings/admin'), () =>
        HttpResponse.json({
          result: created ? [settings(1)] : [],
          total: created ? 1 : 0,
          nextCursor: null,
        }),
      ),
      http.post(api('/settings/:appId'), async ({ request }) => {
        url = new URL(request.url).pathname;
        sent = await request.text();
        created = true;
        return HttpResponse.json({ message: 'Logo Created Successfully', result: settings(1) });
      }),
    );
    renderApp('/settings', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No settings yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'New settings' });

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'User domain' }), 'ftp://x');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Choose an image')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a master app')).toBeInTheDocument();
    expect(within(dialog).getByText('Required')).toBeInTheDocument();
    expect(
      within(dialog).getByText('Must be a host name (app.example.com) or an http(s) URL'),
    ).toBeInTheDocument();
    expect(sent).toBeUndefined();

    await chooseApp(dialog, 'Festival');
    await userEvent.upload(dialog.querySelector('input[type=file]')!, png());
    expect(
      await within(dialog).findByRole('img', { name: 'Preview of logo.png' }),
    ).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Festival');
    const user = within(dialog).getByRole('textbox', { name: 'User domain' });
    await userEvent.clear(user);
    await userEvent.type(user, 'app.example.com');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Mobile domain' }),
      'https://m.example.com',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Logo Created Successfully')).toBeInTheDocument();
    expect(url).toBe('/api/v1/settings/2');
    expect(sent).toContain('name="logo"; filename="logo.png"');
    expect(sent).toMatch(/name="title"\r\n\r\nFestival\r\n/);
    expect(sent).toMatch(/name="user_domain"\r\n\r\napp\.example\.com\r\n/);
    expect(sent).toMatch(/name="mobile_domain"\r\n\r\nhttps:\/\/m\.example\.com\r\n/);
    expect(sent).not.toContain('name="admin_domain"');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('img', { name: 'Logo of Festival' })).toBeInTheDocument();
  });

  it('shows the 409 for a second settings row of the same app on the field, and stays open', async () => {
    withApps();
    const taken = 'This master app already has its settings';
    server.use(
      http.get(api('/settings/admin'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.post(api('/settings/2'), () =>
        HttpResponse.json(
          {
            statusCode: 409,
            error: 'Conflict',
            message: taken,
            details: [{ path: 'masterAppId', message: taken }],
          },
          { status: 409 },
        ),
      ),
    );
    renderApp('/settings', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'New settings' }));
    const dialog = await screen.findByRole('dialog', { name: 'New settings' });
    await chooseApp(dialog, 'Festival');
    await userEvent.upload(dialog.querySelector('input[type=file]')!, png());
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Title' }), 'Again');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    // The field says it, and no toast again.
    await waitFor(() => expect(within(dialog).getByText(taken)).toBeInTheDocument());
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getAllByText(taken)).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'New settings' })).toBeInTheDocument();
  });

  it('edits title and domains; an emptied domain is cleared with a JSON null', async () => {
    withApps();
    const bodies: { type: string | null; body: string }[] = [];
    server.use(
      http.get(api('/settings/admin'), () =>
        HttpResponse.json({ result: [settings(5)], total: 1, nextCursor: null }),
      ),
      http.put(api('/settings/update/5'), async ({ request }) => {
        bodies.push({ type: request.headers.get('content-type'), body: await request.text() });
        return HttpResponse.json({ message: 'Logo Updated Successfully', result: settings(5) });
      }),
    );
    renderApp('/settings', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Actions for Settings of Festival' }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    let dialog = await screen.findByRole('dialog', { name: 'Edit settings of Festival' });
    expect(within(dialog).getByRole('textbox', { name: 'Title' })).toHaveValue('Festival 5');
    const admin = within(dialog).getByRole('textbox', { name: 'Admin domain' });
    await userEvent.type(admin, 'admin.example.com');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Logo Updated Successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(bodies[0]!.type).toContain('application/x-www-form-urlencoded');
    expect(new URLSearchParams(bodies[0]!.body).get('admin_domain')).toBe('admin.example.com');

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Settings of Festival' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    dialog = await screen.findByRole('dialog', { name: 'Edit settings of Festival' });
    await userEvent.clear(within(dialog).getByRole('textbox', { name: 'User domain' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    await waitFor(() => expect(bodies).toHaveLength(2));
    expect(bodies[1]!.type).toContain('application/json');
    expect(JSON.parse(bodies[1]!.body)).toEqual({
      title: 'Festival 5',
      user_domain: null,
      admin_domain: null,
      mobile_domain: 'https://m.example.com',
    });
  });

  it('changes the logo with a multipart upload', async () => {
    withApps();
    let sent: string | undefined;
    server.use(
      http.get(api('/settings/admin'), () =>
        HttpResponse.json({ result: [settings(6)], total: 1, nextCursor: null }),
      ),
      http.put(api('/settings/update/6'), async ({ request }) => {
        sent = await request.text();
        return HttpResponse.json({ message: 'Logo Updated Successfully', result: settings(6) });
      }),
    );
    renderApp('/settings', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Actions for Settings of Festival' }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change logo' }));
    const dialog = await screen.findByRole('dialog', { name: 'Change logo of Festival' });
    expect(within(dialog).getByRole('img', { name: 'Current logo' })).toHaveAttribute(
      'src',
      settings(6).logo,
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await within(dialog).findByText('Choose an image')).toBeInTheDocument();
    await userEvent.upload(dialog.querySelector('input[type=file]')!, png());
    await userEvent.click(within(dialog).getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Logo Updated Successfully')).toBeInTheDocument();
    expect(sent).toContain('name="logo"; filename="logo.png"');
    expect(sent).not.toContain('name="title"');
  });

  it('shows "Access Denied!" when the list is forbidden', async () => {
    withApps();
    server.use(http.get(api('/settings/admin'), () => errorJson(403, 'Forbidden', 'Forbidden')));
    renderApp('/settings', { signedInAs: 'staff@b.c' });
    const alert = (await screen.findByText('Could not load the list')).closest('[role=alert]');
    expect(alert).not.toBeNull();
    expect(within(alert as HTMLElement).getByText('Access Denied!')).toBeInTheDocument();
    expect(screen.getByText('0 of 0')).toBeInTheDocument();
  });
});
