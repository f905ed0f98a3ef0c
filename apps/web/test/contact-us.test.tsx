import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, errorJson, http, api, server } from './server';

const LONG_QUERY = `My posters do not download.\n\n${'I tried again and again. '.repeat(30)}The end.`;

const enquiry = (id: number, overrides: Record<string, unknown> = {}) => ({
  id,
  version: 1,
  fName: 'Asha',
  lName: 'Rao',
  email: `asha${id}@example.com`,
  phoneNumber: '+919876543210',
  query: LONG_QUERY,
  createdAt: '2026-11-20T10:00:00.000Z',
  ...overrides,
});

describe('contact us', () => {
  it('lists enquiries with a mailto link, and keeps the search and page in the URL', async () => {
    const seen: string[] = [];
    server.use(
      http.get(api('/contact-us/all'), ({ request }) => {
        seen.push(new URL(request.url).search);
        return HttpResponse.json({ result: [enquiry(21)], total: 21, nextCursor: null });
      }),
    );
    const { router } = renderApp('/contact-us?q=rao&page=2', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Enquiries' });
    expect(await within(table).findByText('Asha Rao')).toBeInTheDocument();
    expect(within(table).getByRole('link', { name: 'asha21@example.com' })).toHaveAttribute(
      'href',
      'mailto:asha21@example.com',
    );
    expect(within(table).getByText('+919876543210')).toBeInTheDocument();
    expect(seen[0]).toBe('?limit=20&offset=20&keyword=rao');
    expect(screen.getByText('21–21 of 21')).toBeInTheDocument();
    // List only: nothing to create.
    expect(screen.queryByRole('button', { name: /new/i })).not.toBeInTheDocument();

    const search = screen.getByRole('textbox', { name: 'Search enquiries' });
    await userEvent.clear(search);
    await userEvent.type(search, 'asha21');
    await waitFor(() => expect(router.state.location.search).toBe('?q=asha21'));
    await waitFor(() => expect(seen.at(-1)).toBe('?limit=20&offset=0&keyword=asha21'));
  });

  it('shows the whole query in a dialog', async () => {
    server.use(
      http.get(api('/contact-us/all'), () =>
        HttpResponse.json({ result: [enquiry(4)], total: 1, nextCursor: null }),
      ),
    );
    renderApp('/contact-us', { signedInAs: 'a@b.c' });
    await userEvent.click(
      await screen.findByRole('button', { name: 'Read the query from Asha Rao' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Query from Asha Rao' });
    expect(
      within(dialog).getByText((_, el) => el?.textContent === LONG_QUERY && el.tagName === 'P'),
    ).toBeInTheDocument();
    expect(within(dialog).getByRole('link', { name: 'Reply by email' })).toHaveAttribute(
      'href',
      'mailto:asha4@example.com',
    );
    await userEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).not.toBeInTheDocument());
  });

  it('links an address holding ?, & or # as that one address, not as headers', async () => {
    const email = "o'neil&co?cc=x#y@example.com";
    server.use(
      http.get(api('/contact-us/all'), () =>
        HttpResponse.json({ result: [enquiry(5, { email })], total: 1, nextCursor: null }),
      ),
    );
    renderApp('/contact-us', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Enquiries' });
    const href = (await within(table).findByRole('link', { name: email })).getAttribute('href');
    expect(href).toBe("mailto:o'neil%26co%3Fcc%3Dx%23y@example.com");
    expect(new URL(href!).search).toBe('');
  });

  it('shows the empty and error states', async () => {
    let fail = true;
    server.use(
      http.get(api('/contact-us/all'), () =>
        fail
          ? errorJson(403, 'Forbidden', 'Access Denied!')
          : HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
    );
    renderApp('/contact-us', { signedInAs: 'a@b.c' });
    expect(await screen.findByText('Could not load the list')).toBeInTheDocument();
    expect(screen.getByText('Access Denied!')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('No enquiries yet')).toBeInTheDocument();
  });
});
