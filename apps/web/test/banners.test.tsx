import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const banner = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  image: `/media/banners/ab/${'a'.repeat(63)}${id}.webp`,
  status: 'ACTIVE',
  link: `https://example.com/${id}`,
  linkType: 'EXTERNAL',
  liveFrom: null,
  liveUntil: null,
  createdAt: '2026-11-20T10:00:00.000Z',
  updatedAt: '2026-11-20T10:00:00.000Z',
  masterApp: { id: 2, name: 'Festival' },
  ...overrides,
});

function withApps() {
  server.use(
    http.get(api('/master-app/options'), () =>
      HttpResponse.json({ result: [{ id: 2, name: 'Festival', timeZone: 'UTC' }] }),
    ),
  );
}

describe('banners', () => {
  it('lists banners with their thumbnail, and keeps the filters in the URL', async () => {
    withApps();
    const seen: string[] = [];
    server.use(
      http.get(api('/banner/list'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ result: [banner(7)], total: 1, nextCursor: null });
      }),
    );
    const { router } = renderApp('/banner?status=DEACTIVE', { signedInAs: 'a@b.c' });
    const thumb = await screen.findByRole('img', { name: 'Banner #7' });
    expect(thumb).toHaveAttribute('src', banner(7).image.replace('.webp', '.thumb.webp'));
    expect(screen.getByRole('link', { name: 'https://example.com/7' })).toHaveAttribute(
      'target',
      '_blank',
    );
    expect(seen[0]).toBe('?limit=20&offset=0&status=DEACTIVE');

    await userEvent.click(screen.getByRole('combobox', { name: 'Link type' }));
    await userEvent.click(await screen.findByRole('option', { name: 'INTERNAL' }));
    await waitFor(() =>
      expect(router.state.location.search).toBe('?status=DEACTIVE&linkType=INTERNAL'),
    );
    await waitFor(() =>
      expect(seen.at(-1)).toBe('?limit=20&offset=0&status=DEACTIVE&linkType=INTERNAL'),
    );
  });

  it('creates a banner: needs an app and an image, uploads them as multipart', async () => {
    withApps();
    let created = false;
    // jsdom's File is not Node's, so the multipart body is read as text.
    let sent: string | undefined;
    let url = '';
    server.use(
      http.get(api('/banner/list'), () =>
        HttpResponse.json({
          result: created ? [banner(1)] : [],
          total: created ? 1 : 0,
          nextCursor: null,
        }),
      ),
      http.post(api('/banner/:appId'), async ({ request }) => {
        url = new URL(request.url).pathname;
        sent = await request.text();
        created = true;
        return HttpResponse.json({ message: 'Banner Created Successfully', result: banner(1) });
      }),
    );
    renderApp('/banner', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('No banners yet')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'New banner' }));
    const dialog = await screen.findByRole('dialog', { name: 'New banner' });

    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));
    expect(await within(dialog).findByText('Choose an image')).toBeInTheDocument();
    expect(within(dialog).getByText('Choose a master app')).toBeInTheDocument();
    expect(sent).toBeUndefined();

    const appSelect = within(dialog).getByRole('combobox', { name: 'Master app' });
    await waitFor(() => expect(appSelect).toBeEnabled());
    await userEvent.click(appSelect);
    await userEvent.click(await screen.findByRole('option', { name: 'Festival' }));
    const file = new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'sale.jpg', {
      type: 'image/jpeg',
    });
    await userEvent.upload(dialog.querySelector('input[type=file]')!, file);
    expect(
      await within(dialog).findByRole('img', { name: 'Preview of sale.jpg' }),
    ).toBeInTheDocument();
    await userEvent.type(within(dialog).getByRole('textbox', { name: 'Link' }), '/offers');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Create' }));

    expect(await screen.findByText('Banner Created Successfully')).toBeInTheDocument();
    expect(url).toBe('/api/v1/banner/2');
    expect(sent).toContain('name="file"; filename="sale.jpg"');
    expect(sent).toMatch(/name="link"\r\n\r\n\/offers\r\n/);
    expect(sent).toMatch(/name="linkType"\r\n\r\nDEFAULT\r\n/);
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('img', { name: 'Banner #1' })).toBeInTheDocument();
  });

  it('refuses an EXTERNAL link that is not a web address before sending', async () => {
    withApps();
    let calls = 0;
    server.use(
      http.get(api('/banner/list'), () =>
        HttpResponse.json({ result: [banner(3)], total: 1, nextCursor: null }),
      ),
      http.put(api('/banner/linktype/3'), () => {
        calls += 1;
        return HttpResponse.json({ message: 'Banner Updated Successfully', result: banner(3) });
      }),
    );
    renderApp('/banner', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Banner #3' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit link' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit link' });
    const link = within(dialog).getByRole('textbox', { name: 'Link' });
    await userEvent.clear(link);
    await userEvent.type(link, 'javascript:alert(1)');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(
      await within(dialog).findByText('An EXTERNAL link must be an http:// or https:// URL'),
    ).toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('asks before deleting, and shows the server’s refusal', async () => {
    withApps();
    let deletes = 0;
    server.use(
      http.get(api('/banner/list'), () =>
        HttpResponse.json({ result: [banner(4)], total: 1, nextCursor: null }),
      ),
      http.delete(api('/banner/remove/4'), () => {
        deletes += 1;
        return errorJson(403, 'Forbidden', 'Access Denied!');
      }),
    );
    renderApp('/banner', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Actions for Banner #4' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    const confirm = await screen.findByRole('dialog', { name: 'Delete this banner?' });
    await userEvent.click(within(confirm).getByRole('button', { name: 'Cancel' }));
    expect(deletes).toBe(0);

    await userEvent.click(screen.getByRole('button', { name: 'Actions for Banner #4' }));
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Delete' }));
    await userEvent.click(
      within(await screen.findByRole('dialog', { name: 'Delete this banner?' })).getByRole(
        'button',
        { name: 'Delete' },
      ),
    );
    expect(await screen.findByText('Access Denied!')).toBeInTheDocument();
    expect(deletes).toBe(1);
  });
});
