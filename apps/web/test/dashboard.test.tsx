import { describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { HttpResponse, http, api, server } from './server';

describe('dashboard', () => {
  it('shows the four counts and narrows them by master app and last N days', async () => {
    const queries: string[] = [];
    server.use(
      http.get(api('/master-app/options'), () =>
        HttpResponse.json({ result: [{ id: 2, name: 'Festival', timeZone: 'UTC' }] }),
      ),
      http.get(api('/dashboard/getCount'), ({ request }) => {
        const search = new URL(request.url).search;
        queries.push(search);
        const narrowed = search.includes('masterAppId=2');
        return HttpResponse.json({
          totalUser: narrowed ? 5 : 1234,
          totalCategory: 7,
          totalPoster: narrowed ? 3 : 1234567,
          downloadPoster: narrowed ? 9 : 56789,
        });
      }),
    );
    const { router } = renderApp('/', { signedInAs: 'a@b.c' });
    const users = await screen.findByTestId('stat-totalUser');
    await waitFor(() => expect(users).toHaveTextContent('1,234'));
    expect(screen.getByTestId('stat-downloadPoster')).toHaveTextContent('56,789');
    expect(screen.getByTestId('stat-totalPoster')).toHaveTextContent('1,234,567');

    const appFilter = screen.getByRole('combobox', { name: 'Master app' });
    await waitFor(() => expect(appFilter).toBeEnabled());
    await userEvent.click(appFilter);
    await userEvent.click(await screen.findByRole('option', { name: 'Festival' }));
    await waitFor(() => expect(within(users).getByTestId('stat-value')).toHaveTextContent('5'));
    expect(router.state.location.search).toBe('?masterAppId=2');

    await userEvent.click(screen.getByRole('button', { name: 'Last N days' }));
    await waitFor(() => expect(queries.at(-1)).toBe('?inDays=30&masterAppId=2'));
    expect(await screen.findByRole('textbox', { name: 'Days' })).toHaveValue('30');
  });
});
