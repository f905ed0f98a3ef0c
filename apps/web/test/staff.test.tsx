import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { BUILT_IN_MENUS, PERMISSION_KINDS } from '@master-admin/contract';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const staffRow = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  phoneNumber: '+919876500001',
  roles: 'Editor',
  status: 'ACTIVE',
  createdAt: '2026-11-20T10:00:00.000Z',
  secondFactor: false,
  staffDetail: [{ id, name: `Person ${id}`, email: `p${id}@example.com` }],
  ...overrides,
});

const menus = BUILT_IN_MENUS.map((m, i) => ({
  id: i + 1,
  version: 1,
  name: m.name,
  title: m.title,
}));

/** Permission groups of account 5: row id = menu * 10 + kind, all off but those given. */
function perms(on: number[] = []) {
  return menus.map((m) => ({
    ...m,
    userPermission: PERMISSION_KINDS.map((kind, k) => ({
      id: m.id * 10 + k,
      accountId: 5,
      menuId: m.id,
      permissionId: k + 1,
      status: on.includes(m.id * 10 + k),
      updatedAt: '2026-11-20T10:00:00.000Z',
      permission: { id: k + 1, name: kind },
    })),
  }));
}

describe('staff list', () => {
  it('shows who has a second factor, and who lacks one the owner requires', async () => {
    server.use(
      http.get(api('/account/stafflist'), () =>
        HttpResponse.json({
          result: [staffRow(5, { secondFactor: true }), staffRow(6)],
          total: 2,
          nextCursor: null,
        }),
      ),
      http.get(api('/account/security'), () => HttpResponse.json({ requireSecondFactor: true })),
    );
    renderApp('/staff-details', { signedInAs: 'owner@example.com' });
    const table = await screen.findByRole('table', { name: 'Staff' });
    expect(within(table).getByRole('columnheader', { name: 'Second factor' })).toBeInTheDocument();
    const rowOf = async (name: string) =>
      (await within(table).findByRole('link', { name })).closest('tr')!;
    expect(within(await rowOf('Person 5')).getByText('Set up')).toBeInTheDocument();
    expect(within(await rowOf('Person 6')).getByText('Missing')).toBeInTheDocument();
  });

  it('lists staff with search and status in the URL; a name opens the profile', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/account/stafflist'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ result: [staffRow(5)], total: 1, nextCursor: null });
      }),
      http.get(api('/account/staff/profile/5'), () =>
        HttpResponse.json({ ...staffRow(5), perms: perms() }),
      ),
    );
    const { router } = renderApp('/staff-details?q=person&status=ACTIVE', {
      signedInAs: 'owner@example.com',
    });
    const link = await screen.findByRole('link', { name: 'Person 5' });
    expect(seen[0]).toBe('?limit=20&offset=0&keyword=person&status=ACTIVE');
    const row = link.closest('tr')!;
    expect(within(row).getByText('p5@example.com')).toBeInTheDocument();
    expect(within(row).getByText('Editor')).toBeInTheDocument();
    await userEvent.click(link);
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/staff/profile/5'));
    expect(await screen.findByRole('heading', { name: 'Person 5' })).toBeInTheDocument();
  });

  it('creates a staff member, marking the field the server refuses', async () => {
    const bodies: string[] = [];
    server.use(
      http.get(api('/account/stafflist'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.post(api('/account/add-staff'), async ({ request }) => {
        const body = await request.text();
        bodies.push(body);
        if (bodies.length === 1) {
          return errorJson(409, 'Conflict', 'An account with this email already exists', 'email');
        }
        return HttpResponse.json({ message: 'Staff Created Successfully', result: staffRow(9) });
      }),
    );
    renderApp('/staff-details', { signedInAs: 'owner@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'New staff member' }));
    const dialog = await screen.findByRole('dialog', { name: 'New staff member' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Asha Rao');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Email' }), 'asha@x.io');
    await userEvent.type(
      within(dialog).getByRole('textbox', { name: 'Phone number' }),
      '+919876500001',
    );
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Job title' }), 'Editor');
    await userEvent.type(within(dialog).getByLabelText(/^Password/), 'short');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Must be at least 8 characters')).toBeInTheDocument();
    expect(bodies).toEqual([]);

    await userEvent.type(within(dialog).getByLabelText(/^Password/), '-and-more');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await within(dialog).findByText('An account with this email already exists'),
    ).toBeInTheDocument();
    expect(bodies[0]).toBe(
      'name=Asha+Rao&email=asha%40x.io&phoneNumber=%2B919876500001&password=short-and-more&roles=Editor',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('Staff Created Successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('deletes only after confirming', async () => {
    let deleted = false;
    server.use(
      http.get(api('/account/stafflist'), () =>
        HttpResponse.json({
          result: deleted ? [] : [staffRow(5)],
          total: deleted ? 0 : 1,
          nextCursor: null,
        }),
      ),
      http.delete(api('/account/remove-staff/5'), () => {
        deleted = true;
        return HttpResponse.json({ message: 'Staff deleted successfully', result: { id: 5 } });
      }),
    );
    renderApp('/staff-details', { signedInAs: 'owner@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Person 5' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this staff member?' });
    expect(deleted).toBe(false);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Staff deleted successfully')).toBeInTheDocument();
    expect(await screen.findByText('No staff yet')).toBeInTheDocument();
  });
});

describe('the permission grid', () => {
  it('keeps changes in a draft, then saves them in one bulk call', async () => {
    let stored = perms([70]);
    let sent: unknown;
    server.use(
      http.get(api('/account/staff/profile/5'), () =>
        HttpResponse.json({ ...staffRow(5), perms: stored }),
      ),
      http.put(api('/user-permissions/bulk/5'), async ({ request }) => {
        sent = await request.json();
        const items = (sent as { items: Array<{ id: number; status: boolean }> }).items;
        const on = stored
          .flatMap((g) => g.userPermission)
          .filter((e) => (items.find((i) => i.id === e.id)?.status ?? e.status) === true)
          .map((e) => e.id);
        stored = perms(on);
        return HttpResponse.json({ message: 'Successfully Updated.', perms: stored });
      }),
    );
    renderApp('/account/staff/profile/5', { signedInAs: 'owner@example.com' });
    const view = await screen.findByRole('switch', { name: 'Categories: View' });
    expect(view).toBeChecked();
    await userEvent.click(view);
    await userEvent.click(screen.getByRole('switch', { name: 'Banners: Create' }));
    expect(screen.getByText('2 unsaved changes')).toBeInTheDocument();
    // Grant all on a row.
    await userEvent.click(screen.getByRole('button', { name: 'Actions for FAQs' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Grant all on FAQs' }));
    expect(screen.getByText('6 unsaved changes')).toBeInTheDocument();
    expect(sent).toBeUndefined();

    await userEvent.click(screen.getByRole('button', { name: 'Save changes' }));
    expect(await screen.findByText('Successfully Updated.')).toBeInTheDocument();
    expect(sent).toEqual({
      items: [
        { id: 70, status: false },
        { id: 41, status: true },
        { id: 130, status: true },
        { id: 131, status: true },
        { id: 132, status: true },
        { id: 133, status: true },
      ],
    });
    await waitFor(() => expect(screen.getByText('No unsaved changes')).toBeInTheDocument());
    expect(screen.getByRole('switch', { name: 'Categories: View' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'FAQs: Delete' })).toBeChecked();
  });

  it('revokes a kind on every menu at once with “Save each change at once”', async () => {
    let sent: unknown;
    let single: unknown;
    server.use(
      http.get(api('/account/staff/profile/5'), () =>
        HttpResponse.json({ ...staffRow(5), perms: perms([10, 20, 30]) }),
      ),
      http.put(api('/user-permissions/bulk/5'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ message: 'Successfully Updated.', perms: perms() });
      }),
      http.put(api('/user-permissions/status/11'), async ({ request }) => {
        single = await request.text();
        return HttpResponse.json({
          message: 'Status Updated Successfully',
          result: perms([11])[0]!.userPermission[1],
        });
      }),
    );
    renderApp('/account/staff/profile/5', { signedInAs: 'owner@example.com' });
    await userEvent.click(await screen.findByRole('switch', { name: 'Save each change at once' }));
    await userEvent.click(screen.getByRole('switch', { name: 'Dashboard: Create' }));
    expect(await screen.findByText('Status Updated Successfully')).toBeInTheDocument();
    expect(single).toBe('status=true');

    await userEvent.click(
      screen.getByRole('button', { name: 'View: grant or revoke for every menu' }),
    );
    await userEvent.click(
      await screen.findByRole('menuitem', { name: 'Revoke View on every menu' }),
    );
    expect(await screen.findByText('Successfully Updated.')).toBeInTheDocument();
    expect(sent).toEqual({
      items: [
        { id: 10, status: false },
        { id: 20, status: false },
        { id: 30, status: false },
      ],
    });
  });

  it('shows the not-found state for an account that is not staff', async () => {
    server.use(
      http.get(api('/account/staff/profile/1'), () =>
        errorJson(404, 'Not Found', 'Staff not found'),
      ),
    );
    renderApp('/account/staff/profile/1', { signedInAs: 'owner@example.com' });
    expect(await screen.findByText('Staff member not found')).toBeInTheDocument();
  });
});

describe('menus', () => {
  it('lists menus; built-in ones cannot be deleted, added ones can after confirming', async () => {
    let list = [...menus, { id: 40, version: 1, name: 'reports', title: 'Reports' }];
    server.use(
      http.get(api('/menus/all'), () => HttpResponse.json(list)),
      http.delete(api('/menus/remove/40'), () => {
        list = list.filter((m) => m.id !== 40);
        return HttpResponse.json({ message: 'Menu deleted successfully', result: { id: 40 } });
      }),
    );
    renderApp('/menus', { signedInAs: 'owner@example.com' });
    expect(await screen.findByText('Reports')).toBeInTheDocument();
    expect(screen.getByText(/Built-in menus cannot be deleted/)).toBeInTheDocument();

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Dashboard' }));
    expect(await screen.findByRole('menuitem', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).not.toBeInTheDocument();
    await userEvent.keyboard('{Escape}');

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Reports' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this menu?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Delete' }));
    expect(await screen.findByText('Menu deleted successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByText('Reports')).not.toBeInTheDocument());
  });

  it('keeps a built-in menu’s name when retitling it', async () => {
    let body: string | undefined;
    server.use(
      http.get(api('/menus/all'), () => HttpResponse.json(menus)),
      http.patch(api('/menus/7'), async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({
          message: 'Menu Updated Successfully',
          result: { id: 7, version: 2, name: 'category', title: 'Poster categories' },
        });
      }),
    );
    renderApp('/menus', { signedInAs: 'owner@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Categories' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Categories' });
    expect(within(dialog).getByRole('textbox', { name: 'Name' })).toHaveAttribute('readonly');
    const title = within(dialog).getByRole('textbox', { name: 'Title' });
    await userEvent.clear(title);
    await userEvent.type(title, 'Poster categories');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Menu Updated Successfully')).toBeInTheDocument();
    expect(body).toBe('title=Poster+categories');
  });
});

describe('one menu’s permissions', () => {
  it('saves each switch with permissions/status, and says Access Denied! on a 403', async () => {
    let body: string | undefined;
    server.use(
      http.get(api('/permissions/7/5'), () =>
        HttpResponse.json({ result: perms()[6]!.userPermission }),
      ),
      http.get(api('/account/staff/profile/5'), () =>
        HttpResponse.json({ ...staffRow(5), perms: perms() }),
      ),
      http.get(api('/menus/all'), () => HttpResponse.json(menus)),
      http.put(api('/permissions/status/72'), async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({
          message: 'Status Updated Successfully',
          result: perms([72])[6]!.userPermission[2],
        });
      }),
      http.get(api('/permissions/8/5'), () => errorJson(403, 'Forbidden', 'Access Denied!')),
    );
    const { unmount } = renderApp('/permissions/7/5', { signedInAs: 'owner@example.com' });
    expect(await screen.findByRole('heading', { name: 'Categories: permissions' })).toBeVisible();
    await userEvent.click(screen.getByRole('switch', { name: 'Categories: Update' }));
    expect(await screen.findByText('Status Updated Successfully')).toBeInTheDocument();
    expect(body).toBe('status=true');
    unmount();

    renderApp('/permissions/8/5', { signedInAs: 'owner@example.com' });
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeInTheDocument();
  });
});

describe('staff security', () => {
  it('lists a staff member’s sessions on the profile, and ends one after confirming', async () => {
    let sessions = [
      {
        id: 31,
        device: 'Edge 141 on Windows',
        ip: '192.0.2.10',
        createdAt: '2026-11-20T08:00:00.000Z',
        lastSeenAt: null,
        current: false,
        method: 'totp',
      },
      {
        id: 32,
        device: 'Chrome on Android',
        ip: null,
        createdAt: '2026-11-19T08:00:00.000Z',
        lastSeenAt: null,
        current: false,
        method: null,
      },
    ];
    const ended: string[] = [];
    server.use(
      http.get(api('/account/staff/profile/5'), () =>
        HttpResponse.json({ ...staffRow(5), perms: perms() }),
      ),
      http.get(api('/account/staff/sessions/5'), () => HttpResponse.json({ result: sessions })),
      http.delete(api('/account/staff/sessions/5/:id'), ({ params }) => {
        ended.push(String(params.id));
        sessions = sessions.filter((s) => String(s.id) !== params.id);
        return HttpResponse.json({ message: 'Session ended' });
      }),
    );
    renderApp('/account/staff/profile/5', { signedInAs: 'owner@example.com' });
    const list = await screen.findByRole('list', { name: 'Sessions of Person 5' });
    expect(within(list).getAllByRole('listitem')).toHaveLength(2);
    expect(
      within(list).getByText('192.0.2.10 · Password and authenticator app'),
    ).toBeInTheDocument();
    expect(within(list).getByText('Address unknown')).toBeInTheDocument();
    // Nobody else's session is "this device".
    expect(within(list).queryByText('This device')).toBeNull();
    await userEvent.click(
      within(list).getByRole('button', { name: 'End the session on Edge 141 on Windows' }),
    );
    const confirm = await screen.findByRole('dialog', { name: 'End this session?' });
    expect(confirm).toHaveTextContent('Person 5 is signed out of Edge 141 on Windows');
    expect(ended).toEqual([]);
    await userEvent.click(within(confirm).getByRole('button', { name: 'End session' }));
    expect(await screen.findByText('Session ended')).toBeInTheDocument();
    await waitFor(() => expect(within(list).getAllByRole('listitem')).toHaveLength(1));
    expect(ended).toEqual(['31']);
  });

  it('resets a staff member’s second factors after confirming, saying what was removed', async () => {
    let reset = 0;
    server.use(
      http.get(api('/account/staff/profile/5'), () =>
        HttpResponse.json({ ...staffRow(5), perms: perms() }),
      ),
      http.get(api('/account/staff/sessions/5'), () =>
        HttpResponse.json({
          result:
            reset > 0
              ? []
              : [
                  {
                    id: 31,
                    device: 'Edge 141 on Windows',
                    ip: '192.0.2.10',
                    createdAt: '2026-11-20T08:00:00.000Z',
                    lastSeenAt: null,
                    current: false,
                    method: 'passkey',
                  },
                ],
        }),
      ),
      http.delete(api('/account/staff/5/factors'), () => {
        reset += 1;
        return HttpResponse.json({
          message: 'Second factors reset',
          result: { id: 5, totp: true, passkeys: 2 },
        });
      }),
    );
    renderApp('/account/staff/profile/5', { signedInAs: 'owner@example.com' });
    await screen.findByRole('list', { name: 'Sessions of Person 5' });
    await userEvent.click(screen.getByRole('button', { name: 'Actions for Person 5' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Reset second factors' }));
    const confirm = await screen.findByRole('dialog', { name: 'Reset second factors?' });
    expect(confirm).toHaveTextContent('every session of theirs ends');
    expect(reset).toBe(0);
    await userEvent.click(within(confirm).getByRole('button', { name: 'Reset second factors' }));
    expect(
      await screen.findByText('Second factors reset: removed the authenticator app and 2 passkeys'),
    ).toBeInTheDocument();
    expect(await screen.findByText('Not signed in anywhere.')).toBeInTheDocument();
    expect(reset).toBe(1);
  });

  it('lets the owner require a second factor for all staff, after saying what it does', async () => {
    let required = false;
    const sent: string[] = [];
    server.use(
      http.get(api('/account/stafflist'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.get(api('/account/security'), () =>
        HttpResponse.json({ requireSecondFactor: required }),
      ),
      http.put(api('/account/security'), async ({ request }) => {
        const body = await request.text();
        sent.push(body);
        required = new URLSearchParams(body).get('requireSecondFactor') === 'true';
        return HttpResponse.json({ message: 'Security settings updated' });
      }),
    );
    renderApp('/staff-details', { signedInAs: 'owner@example.com' });
    const toggle = await screen.findByRole('switch', {
      name: 'Require a second factor for all staff',
    });
    expect(toggle).not.toBeChecked();
    await userEvent.click(toggle);
    const confirm = await screen.findByRole('dialog', {
      name: 'Require a second factor for all staff?',
    });
    expect(confirm).toHaveTextContent('must set one up when they next sign in');
    // Cancelled: nothing sent, still off.
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(sent).toEqual([]);
    expect(toggle).not.toBeChecked();

    await userEvent.click(toggle);
    await userEvent.click(
      within(
        await screen.findByRole('dialog', { name: 'Require a second factor for all staff?' }),
      ).getByRole('button', { name: 'Require it' }),
    );
    expect(await screen.findByText('Security settings updated')).toBeInTheDocument();
    expect(sent).toEqual(['requireSecondFactor=true']);
    await waitFor(() => expect(toggle).toBeChecked());
  });

  it('shows a new staff member’s password strength, checked against the details typed', async () => {
    server.use(
      http.get(api('/account/stafflist'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    renderApp('/staff-details', { signedInAs: 'owner@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'New staff member' }));
    const dialog = await screen.findByRole('dialog', { name: 'New staff member' });
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Asha Rao');
    const password = within(dialog).getByLabelText(/^Password/);
    await userEvent.type(password, 'asharao12');
    await waitFor(() =>
      expect(password).toHaveAccessibleDescription(
        /Must not be built from the account’s name, email or phone/,
      ),
    );
    await userEvent.clear(password);
    await userEvent.type(password, 'correct horse battery staple');
    await waitFor(() => expect(password).toHaveAccessibleDescription(/Strong enough\./));
  });
});
