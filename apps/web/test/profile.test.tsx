import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const me = () =>
  http.get(api('/account/admin-detail'), () =>
    HttpResponse.json({
      id: 1,
      phoneNumber: null,
      email: 'a@b.c',
      status: 'ACTIVE',
      createdAt: '2026-01-02T03:04:05.000Z',
    }),
  );

async function fill(old: string, next: string, again: string) {
  await userEvent.type(
    await screen.findByLabelText('Current password', { selector: 'input' }),
    old,
  );
  await userEvent.type(screen.getByLabelText('New password', { selector: 'input' }), next);
  await userEvent.type(
    screen.getByLabelText('Repeat the new password', { selector: 'input' }),
    again,
  );
  await userEvent.click(screen.getByRole('button', { name: 'Change password' }));
}

describe('account', () => {
  it('shows the own profile', async () => {
    server.use(me());
    renderApp('/profile', { signedInAs: 'a@b.c' });
    const email = await screen.findByRole('row', { name: /Email/ });
    expect(email).toHaveTextContent('a@b.c');
    expect(screen.getByRole('row', { name: /Status/ })).toHaveTextContent('Active');
  });

  it('names the account for the browser’s password manager, unseen', async () => {
    server.use(me());
    renderApp('/profile', { signedInAs: 'a@b.c' });
    const form = (await screen.findByRole('button', { name: 'Change password' })).closest('form')!;
    const username = form.querySelector('input[autocomplete="username"]');
    await waitFor(() => expect(username).toHaveValue('a@b.c'));
    expect(username).not.toBeVisible();
  });

  it('refuses two different new passwords and a short one before sending', async () => {
    server.use(me());
    renderApp('/profile', { signedInAs: 'a@b.c' });
    await fill('old-password', 'new-password-1', 'new-password-2');
    expect(await screen.findByText('The two new passwords differ')).toBeInTheDocument();
  });

  it('shows "old password not matched!!" when the server refuses the old password', async () => {
    server.use(
      me(),
      http.post(api('/auth/admin/pass-reset'), () =>
        errorJson(409, 'Conflict', 'old password not matched!!', 'oldPassword'),
      ),
    );
    renderApp('/profile', { signedInAs: 'a@b.c' });
    await fill('wrong-old', 'new-password-1', 'new-password-1');
    // On the old password field, and not again in a toast (one message per failure).
    await waitFor(() =>
      expect(screen.getByLabelText('Current password')).toHaveAccessibleDescription(
        'old password not matched!!',
      ),
    );
    expect(screen.getByLabelText('Current password')).toHaveAttribute('aria-invalid', 'true');
    await new Promise((r) => setTimeout(r, 100));
    expect(screen.getAllByText('old password not matched!!')).toHaveLength(1);
  });

  it('changes the password and says so', async () => {
    let body = '';
    server.use(
      me(),
      http.post(api('/auth/admin/pass-reset'), async ({ request }) => {
        body = await request.text();
        return HttpResponse.json({
          message: 'Password reset successfully',
          result: { id: 1, email: 'a@b.c' },
        });
      }),
    );
    renderApp('/profile', { signedInAs: 'a@b.c' });
    await fill('old-password', 'new-password-1', 'new-password-1');
    expect(await screen.findByText('Password reset successfully')).toBeInTheDocument();
    expect(body).toBe('oldPassword=old-password&newPassword=new-password-1');
    expect(screen.getByLabelText('Current password', { selector: 'input' })).toHaveValue('');
  });
});
