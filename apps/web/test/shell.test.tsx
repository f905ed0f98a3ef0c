import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { STORAGE_KEYS } from '@master-admin/contract';
import { renderApp } from './render';
import { EARLY_FACTORS, EARLY_GRANTS } from '../src/lib/early-grants';
import { delay } from 'msw';
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
      'Trash',
      'Audit Log',
      'Login History',
    ]);
    expect(screen.getByTestId('login-id')).toHaveTextContent('boss@example.com');
  });

  it('lands a staff account without the Dashboard grant on the first area it may open', async () => {
    server.use(
      apps(),
      staffGrants({ faqs: ['VIEW'], category: ['VIEW'] }),
      http.get(api('/category/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    const { router } = renderApp('/', { signedInAs: 'clerk@example.com' });
    // Category List comes before FAQs in the menu.
    await waitFor(() => expect(router.state.location.pathname).toBe('/category'));
    expect(await screen.findByRole('heading', { name: 'Categories' })).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Access Denied!' })).toBeNull();
  });

  it('lands a staff account with no area at all on its Account page', async () => {
    server.use(staffGrants({}));
    const { router } = renderApp('/', { signedInAs: 'clerk@example.com' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
  });

  it('lists only the links a staff account may open; a closed screen reached by its address says “Access Denied!”', async () => {
    let bannerCalls = 0;
    let staffCalls = 0;
    server.use(
      apps(),
      staffGrants({ faqs: ['VIEW'], category: ['VIEW', 'CREATE'], banner: [], staff: ['VIEW'] }),
      http.get(api('/banner/list'), () => {
        bannerCalls += 1;
        return HttpResponse.json({ result: [], total: 0, nextCursor: null });
      }),
      http.get(api('/account/stafflist'), () => {
        staffCalls += 1;
        return HttpResponse.json({ result: [], total: 0, nextCursor: null });
      }),
    );
    const { router } = renderApp('/banner', { signedInAs: 'clerk@example.com' });
    const nav = await screen.findByRole('navigation', { name: 'Areas' });
    await waitFor(() => expect(within(nav).queryByRole('link', { name: 'Banners' })).toBeNull());
    const labels = [...nav.querySelectorAll('a, button')].map((el) => el.textContent);
    // The granted menus and the screens anyone signed in may open; staff and menus are the
    // owner's, whatever the grants.
    expect(labels).toEqual(['Category List', 'Account', 'Logout', 'FAQs', 'Login History']);
    expect(within(nav).queryAllByRole('img', { name: 'No access' })).toEqual([]);
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeInTheDocument();
    await router.navigate('/staff-details');
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeInTheDocument();
    await userEvent.click(within(nav).getByRole('link', { name: 'FAQs' }));
    expect(await screen.findByRole('heading', { name: 'FAQs' })).toBeInTheDocument();
    expect(bannerCalls).toBe(0);
    expect(staffCalls).toBe(0);
  });

  it('marks no link for the owner', async () => {
    server.use(dashboard(), apps());
    renderApp('/', { signedInAs: 'boss@example.com' });
    expect(await screen.findByRole('heading', { name: 'Dashboard' })).toBeInTheDocument();
    const nav = screen.getByRole('navigation', { name: 'Areas' });
    // Every area, the trash among them (shown only to an account that may delete somewhere).
    expect(within(nav).getAllByRole('link')).toHaveLength(20);
    expect(within(nav).queryAllByRole('img', { name: 'No access' })).toEqual([]);
  });

  it('reads the grants again when a call is refused, and then denies the screen', async () => {
    let grants: Record<string, Array<'VIEW' | 'CREATE'>> = { category: ['VIEW', 'CREATE'] };
    server.use(
      apps(),
      http.get(api('/account/me/permissions'), () => HttpResponse.json({ role: 'STAFF', grants })),
      http.get(api('/category/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.post(api('/category'), () => errorJson(403, 'Forbidden', 'Access Denied!')),
    );
    renderApp('/category', { signedInAs: 'clerk@example.com' });
    await userEvent.click(await screen.findByRole('button', { name: 'New category' }));
    await userEvent.type(await screen.findByLabelText(/Name/), 'Diwali');
    // The owner took the rights away meanwhile.
    grants = {};
    await userEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeInTheDocument();
  });

  it('shows a screen at once on the grants this sign-in was last told, and reads them again', async () => {
    let asked = 0;
    let answer: () => void = () => undefined;
    server.use(
      apps(),
      http.get(api('/account/me/permissions'), async () => {
        asked += 1;
        await new Promise<void>((resolve) => (answer = resolve));
        return HttpResponse.json({ role: 'STAFF', grants: {} });
      }),
      http.get(api('/faqs/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    localStorage.setItem(
      'grants',
      JSON.stringify({
        token: 'test-token',
        grants: { role: 'STAFF', grants: { faqs: ['VIEW'] } },
      }),
    );
    renderApp('/faqs', { signedInAs: 'clerk@example.com' });
    // Before the server answered: the remembered grants open the screen.
    expect(await screen.findByRole('heading', { name: 'FAQs' })).toBeInTheDocument();
    await waitFor(() => expect(asked).toBe(1));
    // The owner took the right away meanwhile: the fresh answer closes it.
    answer();
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeInTheDocument();
    expect(JSON.parse(localStorage.getItem('grants')!)).toEqual({
      token: 'test-token',
      grants: { role: 'STAFF', grants: {} },
    });
  });

  it('ignores remembered grants of another sign-in', async () => {
    server.use(apps(), staffGrants({}));
    localStorage.setItem(
      'grants',
      JSON.stringify({
        token: 'older-token',
        grants: { role: 'STAFF', grants: { faqs: ['VIEW'] } },
      }),
    );
    renderApp('/faqs', { signedInAs: 'clerk@example.com' });
    expect(await screen.findByRole('heading', { name: 'Access Denied!' })).toBeInTheDocument();
  });

  it('uses the grants the preload script read, without asking for them again', async () => {
    let asked = 0;
    server.use(
      apps(),
      http.get(api('/account/me/permissions'), () => {
        asked += 1;
        return HttpResponse.json({ role: 'STAFF', grants: {} });
      }),
      http.get(api('/faqs/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    (globalThis as Record<string, unknown>)[EARLY_GRANTS] = Promise.resolve({
      role: 'STAFF',
      grants: { faqs: ['VIEW'] },
    });
    renderApp('/faqs', { signedInAs: 'clerk@example.com' });
    expect(await screen.findByRole('heading', { name: 'FAQs' })).toBeInTheDocument();
    expect(asked).toBe(0);
    expect(EARLY_GRANTS in globalThis).toBe(false);
  });

  it('takes the second factors the preload script read too: a required one is asked for at once', async () => {
    server.use(
      apps(),
      // The shell's own read never answers: the preload script's answer is all it has.
      http.get(api('/account/me/factors'), () => delay('infinite')),
      http.get(api('/account/admin-detail'), () =>
        HttpResponse.json({
          id: 4,
          phoneNumber: null,
          email: 'clerk@example.com',
          status: 'ACTIVE',
          createdAt: '2026-01-02T03:04:05.000Z',
        }),
      ),
    );
    (globalThis as Record<string, unknown>)[EARLY_FACTORS] = Promise.resolve({
      totp: false,
      passkeys: 0,
      recoveryCodesLeft: 0,
      enrolmentRequired: true,
    });
    const { router } = renderApp('/faqs', { signedInAs: 'clerk@example.com' });
    await waitFor(() => expect(router.state.location.pathname).toBe('/profile'));
    expect(EARLY_FACTORS in globalThis).toBe(false);
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
