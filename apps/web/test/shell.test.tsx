import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@master-admin/contract';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server, staffGrants } from './server';

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
    await within(nav).findByRole('link', { name: 'Dashboard' });
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

  it('shows a staff account the same menu as everyone (the spec keeps it one for all)', async () => {
    server.use(
      apps(),
      staffGrants({ banner: ['VIEW'], faqs: ['VIEW', 'CREATE'] }),
      http.get(api('/banner/list'), () => HttpResponse.json({ result: [], total: 0 })),
    );
    renderApp('/banner', { signedInAs: 'clerk@example.com' });
    const nav = await screen.findByRole('navigation', { name: 'Areas' });
    await within(nav).findByRole('link', { name: 'Banners' });
    const labels = [...nav.querySelectorAll('a, button')].map((el) => el.textContent);
    expect(labels).toContain('Staff List');
    expect(labels).toContain('Menus');
    expect(labels).toHaveLength(19);
  });

  it('offers a skip link first, which moves focus past the menu to the page', async () => {
    server.use(dashboard(), apps());
    renderApp('/', { signedInAs: 'boss@example.com' });
    await screen.findByRole('heading', { name: 'Dashboard' });
    await userEvent.tab();
    const skip = screen.getByRole('link', { name: 'Skip to content' });
    expect(skip).toHaveFocus();
    expect(skip).toHaveAttribute('href', '#main');
    expect(document.getElementById('main')).toBe(screen.getByRole('main'));
  });

  it('switches between light and dark from the header and remembers the choice', async () => {
    server.use(dashboard(), apps());
    renderApp('/', { signedInAs: 'boss@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'Switch to dark mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'dark');
    expect(localStorage.getItem('mantine-color-scheme-value')).toBe('dark');
    await userEvent.click(screen.getByRole('button', { name: 'Switch to light mode' }));
    expect(document.documentElement).toHaveAttribute('data-mantine-color-scheme', 'light');
    expect(localStorage.getItem('mantine-color-scheme-value')).toBe('light');
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
