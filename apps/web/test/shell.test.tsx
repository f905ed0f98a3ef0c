import { describe, expect, it } from 'vitest';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@master-admin/contract';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const dashboard = () =>
  http.get(api('/dashboard/getCount'), () =>
    HttpResponse.json({ totalUser: 1, totalCategory: 2, totalPoster: 3, downloadPoster: 4 }),
  );
const apps = () => http.get(api('/master-app/options'), () => HttpResponse.json({ result: [] }));

describe('the shell', () => {
  it('sends a visitor without a token to sign-in', async () => {
    const { router } = renderApp('/masterApp');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/sign-in'));
    expect(await screen.findByRole('button', { name: 'Sign in' })).toBeInTheDocument();
  });

  it('lists the areas in the spec’s order, then the other areas, and shows the login id', async () => {
    server.use(dashboard(), apps());
    renderApp('/', { signedInAs: 'boss@example.com' });
    const nav = await screen.findByRole('navigation', { name: 'Areas' });
    const labels = [...nav.querySelectorAll('a, button')].map((el) => el.textContent);
    expect(labels).toEqual([
      'Dashboard',
      'Master Apps',
      'Staff List',
      'Banners',
      'Users List',
      'Notification',
      'Category List',
      'Posters',
      'Videos',
      'Pages',
      'Settings',
      'Account',
      'Logout',
      'Blogs',
      'FAQs',
      'Special Days',
      'Contact Us',
      'Menus',
      'Login History',
    ]);
    expect(screen.getByTestId('login-id')).toHaveTextContent('boss@example.com');
  });

  it('shows the not-found screen for an unknown path', async () => {
    server.use(apps());
    renderApp('/no-such-area', { signedInAs: 'boss@example.com' });
    expect(await screen.findByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
  });

  it('logs out: the session ends on the server, the token is removed, sign-in shows', async () => {
    let loggedOut = false;
    server.use(
      dashboard(),
      apps(),
      http.post(api('/auth/admin/logout'), () => {
        loggedOut = true;
        return HttpResponse.json({ message: 'Logged out successfully' });
      }),
    );
    const { router } = renderApp('/', { signedInAs: 'boss@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'Logout' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/sign-in'));
    expect(loggedOut).toBe(true);
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });

  it('goes to sign-in when the server no longer accepts the token, and returns after', async () => {
    server.use(
      apps(),
      http.get(api('/dashboard/getCount'), () => errorJson(401, 'Unauthorized', 'Please sign in')),
    );
    const { router } = renderApp('/?inDays=7', { signedInAs: 'boss@example.com' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/sign-in'));
    expect(router.state.location.state).toEqual({ from: '/?inDays=7' });
    expect(localStorage.getItem(STORAGE_KEYS.token)).toBeNull();
  });
});
