import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RICH_TEXT_MAX_LENGTH } from '@master-admin/contract';
import './rich-text';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const page = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  title: 'About Us',
  desc: '<p>We make <strong>posters</strong>.</p>',
  masterApp: { id: 2, name: 'Festival' },
  updatedAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

function withApps() {
  server.use(
    http.get(api('/master-app/options'), () =>
      HttpResponse.json({
        result: [
          { id: 2, name: 'Festival', timeZone: 'UTC' },
          { id: 3, name: 'Greetings', timeZone: 'UTC' },
        ],
      }),
    ),
  );
}

describe('pages', () => {
  it('lists pages with their app, and keeps search and the app filter in the URL', async () => {
    withApps();
    const seen: string[] = [];
    server.use(
      http.get(api('/pages/all'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({
          result: [
            page(1),
            page(2, { title: 'Privacy Policy', desc: '' }),
            page(3, { title: 'Terms and Conditions', masterApp: { id: 3, name: 'Greetings' } }),
          ],
          total: 3,
          nextCursor: null,
        });
      }),
    );
    const { router } = renderApp('/pages', { signedInAs: 'a@b.c' });
    expect(await screen.findByRole('link', { name: 'About Us' })).toHaveAttribute(
      'href',
      '/pages/detail/1',
    );
    // A one-line preview of the text, or that the page is empty.
    expect(screen.getAllByText('We make posters.')).toHaveLength(2);
    expect(screen.getByText('Empty page')).toBeInTheDocument();
    expect(screen.getByRole('cell', { name: 'Greetings' })).toBeInTheDocument();
    expect(screen.getByText('1–3 of 3')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=0');

    const app = screen.getByRole('combobox', { name: 'Master app' });
    await waitFor(() => expect(app).toBeEnabled());
    await userEvent.click(app);
    await userEvent.click(await screen.findByRole('option', { name: 'Greetings' }));
    await waitFor(() => expect(router.state.location.search).toBe('?masterAppId=3'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&masterAppId=3'));

    await userEvent.type(screen.getByRole('textbox', { name: 'Search pages' }), 'terms');
    await waitFor(() => expect(router.state.location.search).toBe('?masterAppId=3&q=terms'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=terms&masterAppId=3'));
  });

  it('edits a page: the title is required, the formatted text is sent as HTML', async () => {
    withApps();
    let desc = '<p>Old text</p>';
    let title = 'About Us';
    let body: URLSearchParams | undefined;
    let calls = 0;
    server.use(
      http.get(api('/pages/all'), () =>
        HttpResponse.json({ result: [page(1, { title, desc })], total: 1, nextCursor: null }),
      ),
      http.patch(api('/pages/1'), async ({ request }) => {
        calls += 1;
        body = new URLSearchParams(await request.text());
        desc = body.get('desc')!;
        title = body.get('title')!;
        return HttpResponse.json({
          message: 'Page Updated Successfully',
          result: page(1, { title, desc }),
        });
      }),
    );
    renderApp('/pages', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Actions for About Us of Festival' }),
    );
    await userEvent.click(await screen.findByRole('menuitem', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit About Us' });
    const titleInput = within(dialog).getByRole('textbox', { name: 'Title' });
    expect(titleInput).toHaveValue('About Us');
    const editor = await within(dialog).findByRole('textbox', { name: 'Text' });
    await waitFor(() => expect(editor).toHaveTextContent('Old text'));

    await userEvent.clear(titleInput);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await within(dialog).findByText('Required')).toBeInTheDocument();
    expect(calls).toBe(0);

    await userEvent.type(titleInput, 'About the app');
    await userEvent.click(editor);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Heading 2' }));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Page Updated Successfully')).toBeInTheDocument();
    expect(calls).toBe(1);
    expect(body?.get('title')).toBe('About the app');
    expect(body?.get('desc')).toBe('<h2>Old text</h2>');
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
    expect(await screen.findByRole('link', { name: 'About the app' })).toBeInTheDocument();
  });

  it('keeps an emptied page empty: the text is sent as an empty string', async () => {
    withApps();
    let body: URLSearchParams | undefined;
    server.use(
      http.get(api('/pages/1'), () => HttpResponse.json(page(1))),
      http.patch(api('/pages/1'), async ({ request }) => {
        body = new URLSearchParams(await request.text());
        return HttpResponse.json({
          message: 'Page Updated Successfully',
          result: page(1, { desc: '' }),
        });
      }),
    );
    renderApp('/pages/detail/1', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit About Us' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Text' });
    await waitFor(() => expect(editor).toHaveTextContent('We make posters.'));
    await userEvent.click(editor);
    await userEvent.keyboard('{Control>}a{/Control}{Delete}');
    await waitFor(() => expect(editor).toHaveTextContent(''));
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Page Updated Successfully')).toBeInTheDocument();
    expect(body?.has('desc')).toBe(true);
    expect(body?.get('desc')).toBe('');
  });

  it('counts the text as the server does, its HTML, and says the limit at once past it, cutting nothing', async () => {
    withApps();
    let calls = 0;
    // Three characters short of the limit, as HTML: <p> and </p> count too.
    const desc = `<p>${'x'.repeat(RICH_TEXT_MAX_LENGTH - 10)}</p>`;
    server.use(
      http.get(api('/pages/1'), () => HttpResponse.json(page(1, { desc }))),
      http.patch(api('/pages/1'), () => {
        calls += 1;
        return HttpResponse.json({ message: 'Page Updated Successfully', result: page(1) });
      }),
    );
    renderApp('/pages/detail/1', { signedInAs: 'a@b.c' });
    await userEvent.click(await screen.findByRole('button', { name: 'Edit' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit About Us' });
    const editor = await within(dialog).findByRole('textbox', { name: 'Text' });
    expect(await within(dialog).findByText('99,997 / 100,000')).toBeInTheDocument();
    expect(editor).not.toHaveAttribute('aria-invalid');

    await userEvent.click(editor);
    await userEvent.paste('abcdef');
    expect(await within(dialog).findByText('100,003 / 100,000')).toBeInTheDocument();
    // Still in the editor: the message does not wait for it to lose focus.
    await waitFor(() =>
      expect(editor).toHaveAccessibleDescription(/Must be at most 100000 characters$/),
    );
    expect(editor).toHaveFocus();
    expect(editor.textContent).toHaveLength(RICH_TEXT_MAX_LENGTH - 10 + 6);
    await userEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(within(dialog).getByText('Must be at most 100000 characters')).toBeInTheDocument();
    expect(calls).toBe(0);
  });

  it('shows a page on its detail screen with its formatted text and an Edit button', async () => {
    server.use(
      http.get(api('/pages/7'), () =>
        HttpResponse.json(
          page(7, {
            title: 'Privacy Policy',
            desc: '<h3>What we keep</h3><ol><li><p>Your name</p></li></ol><p><a href="https://example.com" rel="noopener noreferrer nofollow">More</a></p>',
          }),
        ),
      ),
    );
    renderApp('/pages/detail/7', { signedInAs: 'a@b.c' });
    expect(
      await screen.findByRole('heading', { name: 'Privacy Policy', level: 2 }),
    ).toBeInTheDocument();
    expect(screen.getByText('Festival')).toBeInTheDocument();
    const body = screen.getByRole('region', { name: 'Page text' });
    expect(
      within(body).getByRole('heading', { name: 'What we keep', level: 3 }),
    ).toBeInTheDocument();
    expect(within(body).getByRole('listitem')).toHaveTextContent('Your name');
    expect(within(body).getByRole('link', { name: 'More' })).toHaveAttribute(
      'href',
      'https://example.com',
    );
    expect(screen.getByRole('button', { name: 'Edit' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'All pages' })).toHaveAttribute('href', '/pages');
  });

  it('says so when the page does not exist, and when the page is empty', async () => {
    server.use(
      http.get(api('/pages/404'), () => errorJson(404, 'Not Found', 'Page not found')),
      http.get(api('/pages/5'), () => HttpResponse.json(page(5, { desc: '' }))),
    );
    const first = renderApp('/pages/detail/404', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Page not found')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Back to pages' })).toHaveAttribute('href', '/pages');
    first.unmount();

    renderApp('/pages/detail/5', { signedInAs: 'a@b.c' });
    expect(
      await screen.findByText('This page has no text yet. Use Edit to write it.'),
    ).toBeInTheDocument();
  });
});
