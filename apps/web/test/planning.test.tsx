import { describe, expect, it } from 'vitest';
import { screen, within } from '@testing-library/react';
import dayjs from 'dayjs';
import { renderApp } from './render';
import { HttpResponse, http, api, server, staffGrants } from './server';

const apps = (festival: number, greetings: number, videos = 0) => [
  { masterAppId: 2, name: 'Festival', posters: festival, videos },
  { masterAppId: 4, name: 'Greetings', posters: greetings, videos: 0 },
];

function withCoverage(seen: string[] = []) {
  server.use(
    http.get(api('/planning/coverage'), ({ request }) => {
      seen.push(new URL(request.url).search);
      return HttpResponse.json({
        days: [
          { date: '2026-12-24', specialDays: [], apps: apps(0, 0) },
          { date: '2026-12-25', specialDays: [{ id: 5, name: 'Christmas' }], apps: apps(3, 0, 1) },
          {
            date: '2026-12-31',
            specialDays: [{ id: 7, name: 'New Year’s Eve' }],
            apps: apps(1, 2),
          },
        ],
      });
    }),
  );
  return seen;
}

describe('the plan', () => {
  it('shows the weeks ahead by day and app: gaps marked with their two shortcuts, covered days quiet', async () => {
    const seen = withCoverage();
    renderApp('/special-day?view=plan', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Plan by day and app' });
    expect(seen[0]).toBe(`?from=${dayjs().format('YYYY-MM-DD')}&days=42`);
    // Only days with special days are planned.
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((r) => within(r).getByRole('rowheader').textContent)).toEqual([
      'Fri 25 DecChristmas',
      'Thu 31 DecNew Year’s Eve',
    ]);
    expect(screen.getByText('2 days with special days, 1 gap')).toBeInTheDocument();

    const [festival, greetings] = within(rows[0]!).getAllByRole('cell');
    expect(festival).toHaveTextContent('3 posters · 1 video');
    expect(within(festival!).queryByRole('link')).toBeNull();
    expect(greetings).toHaveTextContent('No poster');
    expect(
      within(greetings!).getByRole('link', { name: 'Upload posters for Christmas in Greetings' }),
    ).toHaveAttribute('href', '/poster?batch=1&specialDayId=5&masterAppId=4&date=2026-12-25');
    expect(
      within(greetings!).getByRole('link', { name: 'Posters of Christmas in Greetings' }),
    ).toHaveAttribute('href', '/poster?specialDayId=5&masterAppId=4');
    expect(within(rows[1]!).queryByText('No poster')).toBeNull();
  });

  it('offers only the shortcuts the account may use', async () => {
    withCoverage();
    server.use(staffGrants({ specialDay: ['VIEW'], poster: ['VIEW'] }));
    renderApp('/special-day?view=plan', { signedInAs: 'a@b.c' });
    const table = await screen.findByRole('table', { name: 'Plan by day and app' });
    expect(
      await within(table).findByRole('link', { name: 'Posters of Christmas in Greetings' }),
    ).toBeInTheDocument();
    expect(within(table).queryByRole('link', { name: /^Upload posters/ })).toBeNull();
  });

  it('follows the weeks chosen, kept in the URL', async () => {
    const seen = withCoverage();
    const { router } = renderApp('/special-day?view=plan&weeks=12', { signedInAs: 'a@b.c' });
    await screen.findByRole('table', { name: 'Plan by day and app' });
    expect(seen[0]).toContain('&days=84');
    expect(router.state.location.search).toBe('?view=plan&weeks=12');
  });
});
