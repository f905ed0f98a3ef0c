import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server, staffGrants } from './server';

const app = (id: number, name: string) => ({
  id,
  version: 1,
  name,
  createdAt: '2026-11-20T10:00:00.000Z',
});

describe('master apps', () => {
  it('lists the apps with the total and pages through them', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/master-app/list'), ({ request }) => {
        const url = new URL(request.url);
        seen.push(url.search);
        const offset = Number(url.searchParams.get('offset'));
        return HttpResponse.json({ result: [app(50 - offset, `App ${50 - offset}`)], total: 45 });
      }),
    );
    const { router } = renderApp('/masterApp', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('App 50')).toBeInTheDocument();
    expect(screen.getByText('1–20 of 45')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('App 30')).toBeInTheDocument();
    expect(router.state.location.search).toBe('?page=2');
    expect(seen.at(-1)).toBe('?limit=20&offset=20');
  });

  it('searches as the user types, once typing pauses, from page 1', async () => {
    const keywords: (string | null)[] = [];
    server.use(
      http.get(api('/master-app/list'), ({ request }) => {
        keywords.push(new URL(request.url).searchParams.get('keyword'));
        return HttpResponse.json({ result: [], total: 0 });
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
        HttpResponse.json({ result: created ? [app(1, 'Festival')] : [], total: created ? 1 : 0 }),
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
    expect(body).toBe('name=Festival');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('cell', { name: 'Festival' })).toBeInTheDocument();
  });

  it('keeps the dialog open and shows the server’s message on the name when it is taken', async () => {
    server.use(
      http.get(api('/master-app/list'), () =>
        HttpResponse.json({ result: [app(1, 'Festival')], total: 1 }),
      ),
      http.patch(api('/master-app/update/1'), () =>
        errorJson(409, 'Conflict', 'A master app with this name already exists', 'name'),
      ),
    );
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Rename Festival' }));
    const dialog = await screen.findByRole('dialog', { name: 'Rename Festival' });
    const name = within(dialog).getByLabelText('Name');
    expect(name).toHaveValue('Festival');
    await userEvent.clear(name);
    await userEvent.type(name, 'Other');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    // On the field (its description) and in the toast.
    await waitFor(() =>
      expect(within(dialog).getByLabelText('Name')).toHaveAccessibleDescription(
        'A master app with this name already exists',
      ),
    );
    expect(screen.getAllByText('A master app with this name already exists')).toHaveLength(2);
    expect(screen.getByRole('dialog', { name: 'Rename Festival' })).toBeInTheDocument();
  });

  it('refuses an empty name before sending anything', async () => {
    let posted = false;
    server.use(
      http.get(api('/master-app/list'), () => HttpResponse.json({ result: [], total: 0 })),
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
        HttpResponse.json({ result: [app(1, 'Festival')], total: 1 }),
      ),
    );
    renderApp('/masterApp', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('cell', { name: 'Festival' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'New app' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Rename Festival' })).not.toBeInTheDocument();
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
});
