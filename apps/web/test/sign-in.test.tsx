import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@master-admin/contract';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const emptyDashboard = () =>
  http.get(api('/dashboard/getCount'), () =>
    HttpResponse.json({ totalUser: 0, totalCategory: 0, totalPoster: 0, downloadPoster: 0 }),
  );
const noApps = () => http.get(api('/master-app/options'), () => HttpResponse.json({ result: [] }));

async function signIn(email: string, password: string) {
  await userEvent.type(await screen.findByLabelText('Email or phone number'), email);
  await userEvent.type(screen.getByLabelText('Password', { selector: 'input' }), password);
  await userEvent.click(screen.getByRole('button', { name: 'Sign in' }));
}

describe('sign-in', () => {
  it('shows the server’s message on a wrong password and stays signed out', async () => {
    server.use(
      http.post(api('/auth/admin/login'), () =>
        errorJson(401, 'Unauthorized', 'Invalid email or password'),
      ),
    );
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'wrong');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid email or password');
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('says "Invalid credentials or somthing went wrong!" when the server cannot be reached', async () => {
    server.use(http.post(api('/auth/admin/login'), () => HttpResponse.error()));
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'whatever');
    expect(await screen.findByRole('alert')).toHaveTextContent(
      'Invalid credentials or somthing went wrong!',
    );
  });

  it('says "Invalid response from server" when the answer has no token', async () => {
    server.use(http.post(api('/auth/admin/login'), () => HttpResponse.json({ loginId: 'x' })));
    renderApp('/auth/sign-in');
    await signIn('admin@example.com', 'whatever');
    expect(await screen.findByRole('alert')).toHaveTextContent('Invalid response from server');
  });

  it('checks the fields before sending', async () => {
    renderApp('/auth/sign-in');
    await userEvent.click(await screen.findByRole('button', { name: 'Sign in' }));
    expect(await screen.findAllByText('Required')).toHaveLength(2);
  });

  it('stores the token and login id, sends JSON, and goes back where the user was going', async () => {
    let sent: unknown;
    server.use(
      http.post(api('/auth/admin/login'), async ({ request }) => {
        sent = await request.json();
        return HttpResponse.json({ token: 'new-token', loginId: 'admin@example.com' });
      }),
      http.get(api('/master-app/list'), () => HttpResponse.json({ result: [], total: 0 })),
    );
    const { router } = renderApp('/masterApp?page=1&q=fest');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/sign-in'));
    await signIn('admin@example.com', 'secret123');
    await waitFor(() => expect(router.state.location.pathname).toBe('/masterApp'));
    expect(router.state.location.search).toBe('?page=1&q=fest');
    expect(sent).toEqual({ email: 'admin@example.com', password: 'secret123' });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBe('new-token');
    expect(localStorage.getItem(STORAGE_KEYS.loginId)).toBe('admin@example.com');
  });

  it('sends a user who already has a token to the dashboard', async () => {
    server.use(emptyDashboard(), noApps());
    const { router } = renderApp('/auth/sign-in', { signedInAs: 'admin@example.com' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/'));
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
  });
});
