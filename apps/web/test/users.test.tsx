import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server, staffGrants } from './server';
import { user } from './users-rows';
import { poster } from './poster-rows';

const media = (n: number) => `/media/users/ab/${'c'.repeat(62)}${String(n).padStart(2, '0')}.webp`;

const image = (id: number, defNum: number, extra: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  accountId: 7,
  defNum,
  image: media(id),
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...extra,
});

function withApps() {
  server.use(
    http.get(api('/master-app/options'), () =>
      HttpResponse.json({
        result: [
          { id: 2, name: 'Festival', timeZone: 'UTC' },
          { id: 4, name: 'Greetings', timeZone: 'UTC' },
        ],
      }),
    ),
  );
}

/** The poster the preview's picker offers (ACTIVE, no date or special day). */
const PREVIEW_POSTER = poster(31, {
  poster: '/media/posters/aa/x.webp',
  date: null,
  downloadCount: 0,
  specialDayId: null,
  specialDay: null,
});

describe('users list', () => {
  it('shows users with their banners; search and filters go to the URL and the server', async () => {
    withApps();
    const seen: string[] = [];
    server.use(
      http.get(api('/account/user/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [
            user(7, {
              dateLimit: '2027-03-31',
              userDetail: {
                ...user(7).userDetail,
                top: media(1),
                bottom: media(2),
                email: 'a@b.c',
              },
            }),
            user(8),
          ],
          total: 2,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/users', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('img', { name: 'Top banner of User 7' })).toHaveAttribute(
      'src',
      media(1).replace('.webp', '.thumb.webp'),
    );
    const table = screen.getByRole('table', { name: 'Users' });
    const row = within(table).getAllByRole('row')[1]!;
    expect(within(row).getByRole('link', { name: 'User 7' })).toHaveAttribute('href', '/users/7');
    expect(within(row).getByText('987654327 · a@b.c')).toBeInTheDocument();
    expect(within(row).getByText('31 Mar 2027')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0');

    await userEvent.type(screen.getByRole('textbox', { name: 'Search users' }), 'asha');
    await waitFor(() => expect(router.state.location.search).toBe('?q=asha'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=asha'));

    await userEvent.click(screen.getByRole('combobox', { name: 'Status' }));
    await userEvent.click(await screen.findByRole('option', { name: 'Deleted' }));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=asha&status=DELETED'));
  });

  it('registers a user: checks the form, sends it, marks a taken phone number', async () => {
    withApps();
    const bodies: URLSearchParams[] = [];
    server.use(
      http.get(api('/account/user/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.post(api('/auth/user/register'), async ({ request }) => {
        const body = new URLSearchParams(await request.text());
        bodies.push(body);
        if (bodies.length === 1) {
          return errorJson(
            409,
            'Conflict',
            'A user with this phone number already exists in this app',
            'phoneNumber',
          );
        }
        return HttpResponse.json({ message: 'User Created Successfully', result: user(9) });
      }),
    );
    renderApp('/users', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New user' }));
    const dialog = await screen.findByRole('dialog', { name: 'New user' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Choose a master app')).toBeInTheDocument();
    expect(bodies).toHaveLength(0);

    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Name' }), 'Asha Verma');
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Phone number' }), 'abc');
    const app = within(dialog).getByRole('combobox', { name: 'Master app' });
    await waitFor(() => expect(app).toBeEnabled());
    await userEvent.click(app);
    await userEvent.click(await screen.findByRole('option', { name: 'Greetings' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await within(dialog).findByText('Must be 6 to 20 digits, with an optional leading +'),
    ).toBeInTheDocument();

    const phone = within(dialog).getByRole('textbox', { name: 'Phone number' });
    await userEvent.clear(phone);
    await userEvent.type(phone, '9876543210');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(
      await within(dialog).findAllByText(
        'A user with this phone number already exists in this app',
      ),
    ).not.toHaveLength(0);
    expect(Object.fromEntries(bodies[0]!)).toMatchObject({
      name: 'Asha Verma',
      phoneNumber: '9876543210',
      masterAppId: '4',
    });
    // An empty optional field is not sent.
    expect(bodies[0]!.has('email')).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('User Created Successfully')).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'New user' })).toBeNull());
  });

  it('hides New user and the row actions from staff who may only view', async () => {
    server.use(
      staffGrants({ users: ['VIEW'] }),
      http.get(api('/master-app/options'), () => HttpResponse.json({ result: [] })),
      http.get(api('/account/user/list'), () =>
        HttpResponse.json({ result: [user(7)], total: 1, nextCursor: null }),
      ),
    );
    renderApp('/users', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('link', { name: 'User 7' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New user' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Actions for User 7' }));
    expect(await screen.findByRole('menuitem', { name: 'Open' })).toBeInTheDocument();
    expect(screen.queryByRole('menuitem', { name: 'Edit details' })).toBeNull();
    expect(screen.queryByRole('menuitem', { name: 'Delete' })).toBeNull();
  });
});

describe('a user’s row', () => {
  it('clears the date limit, and deletes only after confirming', async () => {
    let current = user(7, { dateLimit: '2027-01-15' });
    let limitBody = '';
    let deleted = false;
    server.use(
      http.get(api('/master-app/options'), () => HttpResponse.json({ result: [] })),
      http.get(api('/account/user/list'), () =>
        HttpResponse.json({
          result: deleted ? [] : [current],
          total: deleted ? 0 : 1,
          nextCursor: null,
        }),
      ),
      http.patch(api('/account/update-datelimit/7'), async ({ request }) => {
        limitBody = await request.text();
        current = user(7, { dateLimit: null });
        return HttpResponse.json({ message: 'Date Limit Updated Successfully', result: current });
      }),
      http.delete(api('/account/delete-user/7'), () => {
        deleted = true;
        return HttpResponse.json({ message: 'User deleted successfully', result: { id: 7 } });
      }),
    );
    renderApp('/users', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('15 Jan 2027')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Actions for User 7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Change date limit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Date limit of User 7' });
    await userEvent.click(within(dialog).getByRole('button', { name: 'Clear the date' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Date Limit Updated Successfully')).toBeInTheDocument();
    expect(limitBody).toBe('dateLimit=');
    await waitFor(() => expect(screen.queryByText('15 Jan 2027')).toBeNull());

    await userEvent.click(screen.getByRole('button', { name: 'Actions for User 7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this user?' });
    expect(within(confirm).getByText(/setting another status restores/)).toBeInTheDocument();
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(deleted).toBe(false);
    await userEvent.click(screen.getByRole('button', { name: 'Actions for User 7' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete this user?' })).getByRole('button', {
        name: 'Delete',
      }),
    );
    expect(await screen.findByText('User deleted successfully')).toBeInTheDocument();
    expect(await screen.findByText('No users yet')).toBeInTheDocument();
  });
});

describe("a user's images", () => {
  it('shows the gallery by number, uploads with a number, and toasts a taken one', async () => {
    let rows = [image(1, 1), image(2, 5)];
    const sent: string[] = [];
    server.use(
      http.get(api('/account/user/7'), () => HttpResponse.json(user(7))),
      http.get(api('/top/7'), () =>
        HttpResponse.json({ result: rows, total: rows.length, nextCursor: null }),
      ),
      http.post(api('/top/7'), async ({ request }) => {
        const body = await request.text();
        sent.push(body);
        if (/name="defNum"\r\n\r\n5\r\n/.test(body)) {
          return errorJson(
            409,
            'Conflict',
            'This default number already exists for this user!',
            'defNum',
          );
        }
        rows = [...rows, image(3, 9)];
        return HttpResponse.json({
          message: 'Top image uploaded successfully',
          result: image(3, 9),
        });
      }),
    );
    renderApp('/top/7', { signedInAs: 'a@b.c' });
    expect(
      await screen.findByRole('heading', { name: 'Top images of User 7' }),
    ).toBeInTheDocument();
    const cards = await screen.findAllByRole('article');
    expect(cards.map((c) => c.getAttribute('aria-label'))).toEqual([
      'Top image No. 1',
      'Top image No. 5',
    ]);
    expect(screen.getByText('2 top images, by number')).toBeInTheDocument();

    const upload = async (n: string) => {
      await userEvent.click(screen.getByRole('button', { name: 'Upload top image' }));
      const dialog = await screen.findByRole('dialog', { name: 'Upload a top image' });
      const number = within(dialog).getByRole('textbox', { name: 'Default number' });
      await userEvent.clear(number);
      await userEvent.type(number, n);
      const file = new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'top.png', {
        type: 'image/png',
      });
      await userEvent.upload(dialog.querySelector('input[type=file]') as HTMLInputElement, file);
      await userEvent.click(
        within(dialog).getByRole('button', { name: 'Upload', exact: true } as never),
      );
      return dialog;
    };
    const taken = await upload('5');
    expect(
      (await screen.findAllByText('This default number already exists for this user!')).length,
    ).toBeGreaterThan(0);
    expect(within(taken).getByRole('textbox', { name: 'Default number' })).toHaveAttribute(
      'aria-invalid',
      'true',
    );
    await userEvent.click(within(taken).getByRole('button', { name: 'Cancel' }));

    await upload('9');
    expect(await screen.findByText('Top image uploaded successfully')).toBeInTheDocument();
    expect(await screen.findByRole('article', { name: 'Top image No. 9' })).toBeInTheDocument();
    expect(sent.at(-1)).toMatch(/name="file"; filename="top.png"/);
  });

  it('self images show their side and filter by it', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/account/user/7'), () => HttpResponse.json(user(7))),
      http.get(api('/self/7'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [image(4, 2, { position: 'RIGHT' })],
          total: 1,
          nextCursor: null,
        });
      }),
    );
    renderApp('/self/7', { signedInAs: 'a@b.c' });
    const card = await screen.findByRole('article', { name: 'Self image No. 2' });
    expect(within(card).getByText('Right')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('radio', { name: 'Left' }));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&position=LEFT'));
  });

  it('a missing user shows the not-found state', async () => {
    server.use(
      http.get(api('/account/user/99'), () => errorJson(404, 'Not Found', 'User not found')),
      http.get(api('/bottom/99'), () => errorJson(404, 'Not Found', 'User not found')),
    );
    renderApp('/bottom/99', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('User not found')).toBeInTheDocument();
  });
});

describe("the user's page", () => {
  it('shows details, the wallet and login history each with its own page, and a poster preview', async () => {
    const wallet: string[] = [];
    const history: string[] = [];
    server.use(
      http.get(api('/account/user/7'), () =>
        HttpResponse.json(
          user(7, {
            userDetail: { ...user(7).userDetail, designation: 'Shop owner', top: media(1) },
          }),
        ),
      ),
      http.get(api('/wallets/all/7'), ({ request }) => {
        wallet.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [
            {
              id: 1,
              reward: 50,
              depositFor: 'REGISTER',
              status: 'DEPOSIT',
              feed: 'Welcome bonus',
              createdAt: '2026-10-01T10:00:00.000Z',
            },
            {
              id: 2,
              reward: 3,
              depositFor: 'DELETE_COMMENT',
              status: 'FINED',
              feed: null,
              createdAt: '2026-10-02T10:00:00.000Z',
            },
          ],
          total: 2,
          nextCursor: null,
        });
      }),
      http.get(api('/login-history/all/7'), ({ request }) => {
        history.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [
            {
              id: 5,
              ip: '49.36.12.10',
              latitude: 18.5204,
              longitude: 73.8567,
              status: 'IN',
              device: 'Pixel 8 (android)',
              createdAt: '2026-11-01T09:00:00.000Z',
            },
          ],
          total: 1,
          nextCursor: null,
        });
      }),
      // As the server filters: a deactivated poster (#32) is listed unless the call asks for
      // ACTIVE ones.
      http.get(api('/poster/list'), ({ request }) => {
        const status = new URL(request.url).searchParams.get('status');
        const active = PREVIEW_POSTER;
        const inactive = { ...active, id: 32, status: 'DEACTIVE' };
        const result = [active, inactive].filter((p) => !status || p.status === status);
        return HttpResponse.json({ result, total: result.length, nextCursor: null });
      }),
      http.get(
        api('/poster/preview/31/7'),
        () =>
          new HttpResponse(new Uint8Array([82, 73, 70, 70]), {
            headers: { 'content-type': 'image/webp', 'x-preview-missing': 'self' },
          }),
      ),
    );
    const { router } = renderApp('/users/7', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('heading', { name: 'User 7' })).toBeInTheDocument();
    expect(screen.getByText('Shop owner')).toBeInTheDocument();
    expect(screen.getByRole('img', { name: 'Top banner' })).toHaveAttribute('src', media(1));
    expect(screen.getByRole('link', { name: 'Self images' })).toHaveAttribute('href', '/self/7');
    const walletTable = await screen.findByRole('table', { name: 'Wallet' });
    // Rows are drawn a moment after the table (DataTable defers them).
    expect(await within(walletTable).findByText('Welcome bonus')).toBeInTheDocument();
    expect(within(walletTable).getByText('−3')).toBeInTheDocument();
    expect(screen.getByText('1–2 of 2')).toBeInTheDocument();

    await userEvent.type(screen.getByRole('textbox', { name: 'Search the wallet' }), 'bonus');
    await waitFor(() => expect(router.state.location.search).toBe('?w.q=bonus'));
    await waitFor(() => expect(wallet.at(-1)).toBe('?limit=20&offset=0&keyword=bonus'));

    await userEvent.click(screen.getByRole('tab', { name: 'Login history' }));
    const historyTable = await screen.findByRole('table', { name: 'Login history' });
    expect(await within(historyTable).findByText('49.36.12.10')).toBeInTheDocument();
    expect(within(historyTable).getByText('Signed in')).toBeInTheDocument();
    expect(within(historyTable).getByRole('columnheader', { name: 'Device' })).toBeInTheDocument();
    expect(within(historyTable).getByText('Pixel 8 (android)')).toBeInTheDocument();
    expect(history[0]).toBe('?limit=20&offset=0');

    await userEvent.click(screen.getByRole('button', { name: 'Preview a poster' }));
    const dialog = await screen.findByRole('dialog', { name: 'A poster as User 7 gets it' });
    const picker = within(dialog).getByRole('combobox', { name: 'Poster' });
    await waitFor(() => expect(picker).toBeEnabled());
    await userEvent.click(picker);
    const option = await screen.findByRole('option', { name: '#31 · Festivals (1/2/3)' });
    // Only ACTIVE posters are offered: the deactivated #32 is not.
    expect(screen.queryByRole('option', { name: /^#32/ })).not.toBeInTheDocument();
    await userEvent.click(option);
    const composed = await within(dialog).findByRole('img', {
      name: 'The poster as the user gets it',
    });
    expect(composed.getAttribute('src')).toMatch(/^blob:/);
    expect(within(dialog).getByText(/has no self image/)).toBeInTheDocument();
  });
});

describe("a user's app sessions and activity", () => {
  const session = (id: number, device: string, extra: Record<string, unknown> = {}) => ({
    id,
    device,
    ip: '49.36.12.10',
    createdAt: '2026-11-20T08:00:00.000Z',
    lastSeenAt: '2026-11-20T09:00:00.000Z',
    current: false,
    method: 'otp',
    ...extra,
  });
  const activity = (id: number, kind: string, extra: Record<string, unknown> = {}) => ({
    id,
    activity: kind,
    posterId: null,
    detail: null,
    ip: '49.36.12.10',
    device: 'Pixel 8 (android)',
    createdAt: '2026-11-20T10:00:00.000Z',
    ...extra,
  });
  const withUser = () =>
    server.use(
      http.get(api('/account/user/7'), () => HttpResponse.json(user(7))),
      http.get(api('/wallets/all/7'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );

  it('lists where the user is signed in to the app, and ends a session after asking', async () => {
    withUser();
    let live = [session(11, 'Pixel 8 (android)'), session(12, 'iPhone 15 (ios)', { ip: null })];
    const ended: string[] = [];
    server.use(
      http.get(api('/account/user/7/sessions'), () => HttpResponse.json({ result: live })),
      http.delete(api('/account/user/7/sessions/:id'), ({ params }) => {
        ended.push(String(params.id));
        live = live.filter((s) => String(s.id) !== params.id);
        return HttpResponse.json({ message: 'Session ended', result: { id: Number(params.id) } });
      }),
    );
    renderApp('/users/7', { signedInAs: 'a@b.c' });
    const sessions = await screen.findByRole('list', { name: 'App sessions of User 7' });
    const items = within(sessions).getAllByRole('listitem');
    expect(items).toHaveLength(2);
    expect(within(items[0]!).getByText('Pixel 8 (android)')).toBeInTheDocument();
    expect(within(items[0]!).getByText('49.36.12.10 · Code sent to the phone')).toBeInTheDocument();
    expect(within(items[0]!).getByText(/^Signed in 20 Nov 2026, 08:00 · last seen/)).toBeVisible();
    expect(within(items[1]!).getByText('Address unknown · Code sent to the phone')).toBeVisible();

    await userEvent.click(
      within(items[0]!).getByRole('button', { name: 'End the session on Pixel 8 (android)' }),
    );
    const question = await screen.findByRole('dialog', { name: 'End this session?' });
    expect(question).toHaveTextContent(
      'User 7 is signed out of the app on Pixel 8 (android) (49.36.12.10) at once',
    );
    await userEvent.click(within(question).getByRole('button', { name: 'End session' }));
    expect(await screen.findByText('Session ended')).toBeInTheDocument();
    expect(ended).toEqual(['11']);
    await waitFor(() => expect(within(sessions).getAllByRole('listitem')).toHaveLength(1));
    expect(within(sessions).getByText('iPhone 15 (ios)')).toBeInTheDocument();
  });

  it('shows the sessions but offers no End to staff who may only view users', async () => {
    withUser();
    server.use(
      staffGrants({ users: ['VIEW'] }),
      http.get(api('/account/user/7/sessions'), () =>
        HttpResponse.json({ result: [session(11, 'Pixel 8 (android)')] }),
      ),
    );
    renderApp('/users/7', { signedInAs: 'a@b.c' });
    const sessions = await screen.findByRole('list', { name: 'App sessions of User 7' });
    expect(within(sessions).getByText('Pixel 8 (android)')).toBeInTheDocument();
    expect(within(sessions).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says so when the user is signed in nowhere', async () => {
    withUser();
    renderApp('/users/7', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Not signed in to the app anywhere.')).toBeInTheDocument();
  });

  it('lists the activity in its own tab, pages it by cursor, and opens a poster it names', async () => {
    withUser();
    const seen: string[] = [];
    const mac = 's'.repeat(22);
    const firstPage = [
      activity(40, 'SHARED', { posterId: 31, detail: 'whatsapp' }),
      activity(39, 'LIKE', { posterId: 31 }),
      activity(38, 'LOGIN', { ip: null, device: null }),
      ...Array.from({ length: 17 }, (_, i) => activity(37 - i, 'LOGIN')),
    ];
    server.use(
      http.get(api('/account/user/7/activities'), ({ request }) => {
        const url = new URL(request.url);
        seen.push(url.search);
        return url.searchParams.get('cursor') === null
          ? HttpResponse.json({ result: firstPage, total: 21, nextCursor: `20.${mac}` })
          : HttpResponse.json({
              result: [activity(1, 'REGISTER')],
              total: 21,
              nextCursor: null,
            });
      }),
      http.get(
        api('/poster/preview/31/7'),
        () =>
          new HttpResponse(new Uint8Array([82, 73, 70, 70]), {
            headers: { 'content-type': 'image/webp' },
          }),
      ),
    );
    const { router } = renderApp('/users/7', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('tab', { name: 'Activity' }));
    expect(router.state.location.search).toBe('?tab=activity');
    const table = await screen.findByRole('table', { name: 'Activity' });
    await within(table).findByText('Shared');
    const rows = within(table).getAllByRole('row');
    expect(rows).toHaveLength(21);
    expect(rows[0]).toHaveTextContent('ActivityPosterDetailDeviceIP addressWhen');
    expect(rows[1]).toHaveTextContent(
      'Shared#31whatsappPixel 8 (android)49.36.12.1020 Nov 2026, 10:00',
    );
    expect(rows[2]).toHaveTextContent('Liked#31—Pixel 8 (android)49.36.12.10');
    expect(rows[3]).toHaveTextContent('Signed in———');
    expect(screen.getByText('1–20 of 21')).toBeInTheDocument();
    expect(seen).toEqual(['?limit=20&offset=0']);
    // Exported as every list is.
    expect(screen.getByRole('button', { name: /Export CSV/ })).toBeInTheDocument();

    // The next page follows the cursor the first answered; its page stays in the address.
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await within(table).findByText('Signed up')).toBeInTheDocument();
    expect(seen.at(-1)).toBe(`?limit=20&cursor=20.${mac}`);
    expect(router.state.location.search).toBe('?tab=activity&a.page=2');

    // A poster the activity names opens as this user gets it, no picker.
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    await userEvent.click((await within(table).findAllByRole('button', { name: '#31' }))[0]!);
    const dialog = await screen.findByRole('dialog', { name: 'Poster #31 as User 7 gets it' });
    expect(
      await within(dialog).findByRole('img', { name: 'The poster as the user gets it' }),
    ).toBeInTheDocument();
    expect(within(dialog).queryByRole('combobox')).not.toBeInTheDocument();
  });

  it('shows a poster’s number as text to staff who may not view posters', async () => {
    withUser();
    server.use(
      staffGrants({ users: ['VIEW'] }),
      http.get(api('/account/user/7/activities'), () =>
        HttpResponse.json({
          result: [activity(2, 'LIKE', { posterId: 31 })],
          total: 1,
          nextCursor: null,
        }),
      ),
    );
    renderApp('/users/7?tab=activity', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Activity' });
    expect(await within(table).findByText('#31')).toBeInTheDocument();
    expect(within(table).queryByRole('button', { name: '#31' })).not.toBeInTheDocument();
  });
});

describe('login history', () => {
  it('lists the signed-in account’s own sign-ins', async () => {
    server.use(
      http.get(api('/login-history/own'), () =>
        HttpResponse.json({
          result: [
            {
              id: 1,
              ip: '127.0.0.1',
              latitude: null,
              longitude: null,
              status: 'OUT',
              // The back-office's own sign-ins name no device.
              device: null,
              createdAt: '2026-11-01T09:00:00.000Z',
            },
          ],
          total: 1,
          nextCursor: null,
        }),
      ),
    );
    renderApp('/login-history', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Login history' });
    expect(await within(table).findByText('Signed out')).toBeInTheDocument();
    expect(within(table).getByText('127.0.0.1')).toBeInTheDocument();
  });
});

describe('a poster previewed as a user', () => {
  it('the poster list’s “Preview as user…” picks a user of the poster’s app', async () => {
    const users: string[] = [];
    server.use(
      http.get(api('/master-app/options'), () => HttpResponse.json({ result: [] })),
      http.get(api('/category/options'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.get(api('/special-day/options'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.get(api('/poster/list'), () =>
        HttpResponse.json({
          result: [PREVIEW_POSTER],
          total: 1,
          nextCursor: null,
        }),
      ),
      http.get(api('/account/user/list'), ({ request }) => {
        users.push(new URL(request.url).search);
        return HttpResponse.json({ result: [user(7)], total: 1, nextCursor: null });
      }),
      http.get(
        api('/poster/preview/31/7'),
        () =>
          new HttpResponse(new Uint8Array([82, 73, 70, 70]), {
            headers: { 'content-type': 'image/webp', 'x-preview-missing': '' },
          }),
      ),
    );
    renderApp('/poster', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Poster #31' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Preview as user…' }));
    const dialog = await screen.findByRole('dialog', {
      name: 'Preview poster #31 as a user gets it',
    });
    const picker = within(dialog).getByRole('combobox', { name: 'User' });
    await waitFor(() => expect(picker).toBeEnabled());
    expect(users[0]).toContain('masterAppId=2');
    await userEvent.click(picker);
    await userEvent.click(await screen.findByRole('option', { name: 'User 7 · 987654327' }));
    expect(
      await within(dialog).findByRole('img', { name: 'The poster as the user gets it' }),
    ).toBeInTheDocument();
    expect(within(dialog).queryByText(/has no/)).toBeNull();
  });
});
