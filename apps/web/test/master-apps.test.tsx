import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server, staffGrants } from './server';

const app = (id: number, name: string) => ({
  id,
  version: 1,
  name,
  timeZone: 'UTC',
  timeZoneIsDefault: true,
  createdAt: '2026-11-20T10:00:00.000Z',
});

describe('master apps', () => {
  it('lists the apps with the total and pages through them, Next and Previous by cursor', async () => {
    const seen: string[] = [];
    const mac = 's'.repeat(22);
    server.use(
      http.get(api('/master-app/list'), ({ request }) => {
        const url = new URL(request.url);
        seen.push(url.search);
        // The position of the page: its offset, or the one its cursor names.
        const cursor = url.searchParams.get('cursor');
        const at =
          cursor === null ? Number(url.searchParams.get('offset')) : Number(cursor.split('.')[0]);
        return HttpResponse.json({
          result: [app(50 - at, `App ${50 - at}`)],
          total: 45,
          nextCursor: at + 20 < 45 ? `${at + 20}.${mac}` : null,
        });
      }),
    );
    const { router } = renderApp('/masterApp', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('App 50')).toBeInTheDocument();
    expect(screen.getByText('1–20 of 45')).toBeInTheDocument();
    expect(seen.at(-1)).toBe('?limit=20&offset=0');
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('App 30')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
    expect(seen.at(-1)).toBe(`?limit=20&cursor=20.${mac}`);
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('App 10')).toBeInTheDocument();
    expect(seen.at(-1)).toBe(`?limit=20&cursor=40.${mac}`);
    expect(screen.getByText('41–45 of 45')).toBeInTheDocument();
    // Back to page 2: the cursor it was reached with.
    await userEvent.click(screen.getByRole('button', { name: 'Previous page' }));
    expect(await screen.findByText('App 30')).toBeInTheDocument();
    expect(seen.at(-1)).toBe(`?limit=20&cursor=20.${mac}`);
    // A page reached by its number, or by a link, is read by offset.
    await userEvent.click(screen.getByRole('button', { name: '1' }));
    expect(await screen.findByText('App 50')).toBeInTheDocument();
    expect(seen.at(-1)).toBe('?limit=20&offset=0');
  });

  it('searches as the user types, once typing pauses, from page 1', async () => {
    const keywords: (string | null)[] = [];
    server.use(
      http.get(api('/master-app/list'), ({ request }) => {
        keywords.push(new URL(request.url).searchParams.get('keyword'));
        return HttpResponse.json({ result: [], total: 0, nextCursor: null });
      }),
    );
    const { router } = renderApp('/masterApp?page=3', { signedInAs: 'a@b.c' });
    await userEvent.type(await screen.findByLabelText('Search apps'), 'fest');
    await waitFor(() => expect(keywords.at(-1)).toBe('fest'));
    expect(keywords).not.toContain('fes');
    expect(router.state.location.search).toBe('?q=fest');
    expect(await screen.findByText('Nothing matches')).toBeInTheDocument();
  });

  it('creates an app: form-encoded, success toast, dialog closes, list refreshes', async () => {
    let created = false;
    let body = '';
    server.use(
      http.get(api('/master-app/list'), () =>
        HttpResponse.json({
          result: created ? [app(1, 'Festival')] : [],
          total: created ? 1 : 0,
          nextCursor: null,
        }),
      ),
      http.post(api('/master-app'), async ({ request }) => {
        body = await request.text();
        created = true;
        return HttpResponse.json({
          message: 'App Created Successfully',
          result: app(1, 'Festival'),
        });
      }),
    );
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No master apps yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New app' }));
    const dialog = await screen.findByRole('dialog', { name: 'New master app' });
    await userEvent.type(within(dialog).getByLabelText('Name'), 'Festival');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await screen.findByText('App Created Successfully')).toBeInTheDocument();
    // No zone chosen: sent empty, the server's default.
    expect(body).toBe('name=Festival&timeZone=');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('cell', { name: 'Festival' })).toBeInTheDocument();
  });

  it('keeps the dialog open and shows the server’s message on the name when it is taken', async () => {
    server.use(
      http.get(api('/master-app/list'), () =>
        HttpResponse.json({ result: [app(1, 'Festival')], total: 1, nextCursor: null }),
      ),
      http.patch(api('/master-app/update/1'), () =>
        errorJson(409, 'Conflict', 'A master app with this name already exists', 'name'),
      ),
    );
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit Festival' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit Festival' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Festival');
    await userEvent.clear(name);
    await userEvent.type(name, 'Other');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // On the field (its description), and not again in a toast.
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(
        'A master app with this name already exists',
      ),
    );
    expect(screen.getAllByText('A master app with this name already exists')).toHaveLength(1);
    expect(screen.getByRole('dialog', { name: 'Edit Festival' })).toBeInTheDocument();
  });

  it('refuses an empty name before sending anything', async () => {
    let posted = false;
    server.use(
      http.get(api('/master-app/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.post(api('/master-app'), () => {
        posted = true;
        return HttpResponse.json({});
      }),
    );
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'New app' }));
    const dialog = await screen.findByRole('dialog');
    await userEvent.type(within(dialog).getByLabelText('Name'), '   ');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(posted).toBe(false);
  });

  it('offers no create or rename to staff who may only view', async () => {
    server.use(
      staffGrants({ masterApp: ['VIEW'] }),
      http.get(api('/master-app/list'), () =>
        HttpResponse.json({ result: [app(1, 'Festival')], total: 1, nextCursor: null }),
      ),
    );
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('cell', { name: 'Festival' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New app' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Edit Festival' })).not.toBeInTheDocument();
  });

  it('shows the error, no rows and a total of 0 when the list fails, and "Access Denied!" on 403', async () => {
    server.use(
      http.get(api('/master-app/list'), () => errorJson(403, 'Forbidden', 'Access Denied!')),
    );
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Could not load the list')).toBeInTheDocument();
    expect(screen.getAllByText('Access Denied!').length).toBeGreaterThan(0);
    expect(screen.getByText('0 of 0')).toBeInTheDocument();
  });

  it('shows the owner an app’s key to copy, and rotates it after saying what happens', async () => {
    const first = `mak_${'a'.repeat(32)}`;
    const second = `mak_${'b'.repeat(32)}`;
    let rotations = 0;
    server.use(
      http.get(api('/master-app/list'), () =>
        HttpResponse.json({ result: [app(1, 'Festival')], total: 1, nextCursor: null }),
      ),
      http.get(api('/master-app/1/app-key'), () =>
        HttpResponse.json({
          message: 'The app key',
          result: { key: first, createdAt: '2026-11-20T10:00:00.000Z', previous: null },
        }),
      ),
      http.post(api('/master-app/1/app-key'), () => {
        rotations += 1;
        return HttpResponse.json({
          message: 'A new app key is issued; the old one works for 24 more hours',
          result: {
            key: second,
            createdAt: '2026-11-21T09:00:00.000Z',
            previous: { key: first, until: '2026-11-22T09:00:00.000Z' },
          },
        });
      }),
    );
    const user = userEvent.setup();
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    await user.click(await screen.findByRole('button', { name: 'App key of Festival' }));
    const panel = await screen.findByRole('dialog', { name: 'App key of Festival' });
    const current = await within(panel).findByRole('textbox', { name: 'Current key' });
    expect(current).toHaveValue(first);
    expect(current).toHaveAttribute('readonly');
    expect(current).toHaveAccessibleDescription('Issued 20 Nov 2026, 10:00');
    expect(within(panel).queryByRole('textbox', { name: 'Previous key' })).not.toBeInTheDocument();
    await user.click(within(panel).getByRole('button', { name: 'Copy the current key' }));
    expect(await navigator.clipboard.readText()).toBe(first);
    expect(await within(panel).findByRole('button', { name: 'Copied' })).toBeInTheDocument();

    // Rotating asks first, saying what it does to the installed apps; Cancel changes nothing.
    await user.click(within(panel).getByRole('button', { name: 'Rotate key…' }));
    let question = await screen.findByRole('dialog', { name: 'Rotate the key of Festival?' });
    expect(question).toHaveTextContent(
      'Installed apps keep working with the current key for 24 hours only',
    );
    await user.click(within(question).getByRole('button', { name: 'Cancel' }));
    await waitFor(() => expect(question).not.toBeInTheDocument());
    expect(rotations).toBe(0);
    expect(screen.getByRole('dialog', { name: 'App key of Festival' })).toBeInTheDocument();

    await user.click(within(panel).getByRole('button', { name: 'Rotate key…' }));
    question = await screen.findByRole('dialog', { name: 'Rotate the key of Festival?' });
    await user.click(within(question).getByRole('button', { name: 'Rotate key' }));
    expect(
      await screen.findByText('A new app key is issued; the old one works for 24 more hours'),
    ).toBeInTheDocument();
    expect(rotations).toBe(1);
    // The new key, and the old one with the time it stops working.
    await waitFor(() =>
      expect(within(panel).getByRole('textbox', { name: 'Current key' })).toHaveValue(second),
    );
    const previous = within(panel).getByRole('textbox', { name: 'Previous key' });
    expect(previous).toHaveValue(first);
    expect(previous).toHaveAccessibleDescription(
      'Still works until 22 Nov 2026, 09:00, for apps not yet updated',
    );
    expect(within(panel).getByRole('status')).toHaveTextContent(
      'installed apps still sending the previous key stop working on 22 Nov 2026, 09:00',
    );
  });

  it('offers app keys to the owner only, not to staff who may do everything else', async () => {
    server.use(
      staffGrants({ masterApp: ['VIEW', 'CREATE', 'UPDATE', 'DELETE'] }),
      http.get(api('/master-app/list'), () =>
        HttpResponse.json({ result: [app(1, 'Festival')], total: 1, nextCursor: null }),
      ),
    );
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('button', { name: 'Edit Festival' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'App key of Festival' })).not.toBeInTheDocument();
  });
});
