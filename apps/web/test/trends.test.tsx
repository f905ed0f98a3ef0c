import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { renderApp } from './render';
import { evenTicks } from '../src/features/dashboard/chart-axes';
import { HttpResponse, http, api, server, staffGrants } from './server';

const stubObserver = window.IntersectionObserver;

const apps = [
  { id: 1, name: 'Festival' },
  { id: 2, name: 'Wishes' },
];

function dashboardCalls(seen: string[] = []) {
  return [
    http.get(api('/master-app/options'), () => HttpResponse.json({ result: apps })),
    http.get(api('/dashboard/getCount'), () =>
      HttpResponse.json({ totalUser: 1, totalCategory: 2, totalPoster: 3, downloadPoster: 4 }),
    ),
    http.get(api('/dashboard/trends'), ({ request }) => {
      seen.push(new URL(request.url).search);
      return HttpResponse.json({
        bucket: 'week',
        from: '2026-03-01',
        to: '2026-03-10',
        points: [
          { start: '2026-02-23', downloads: 1200, posters: 3, users: 5 },
          { start: '2026-03-02', downloads: 34567, posters: 0, users: 7 },
          { start: '2026-03-09', downloads: 0, posters: 2, users: 0 },
        ],
      });
    }),
    http.get(api('/dashboard/top'), () =>
      HttpResponse.json({
        categories: [
          { id: 7, name: 'Diwali', downloads: 9000 },
          { id: 8, name: 'Quotes', downloads: 120 },
        ],
        posters: [
          {
            id: 41,
            poster: '/media/posters/ab/ab.webp',
            category: { id: 7, name: 'Diwali' },
            masterApp: apps[0],
            specialDay: { id: 3, name: 'Diwali day' },
            downloads: 5000,
          },
        ],
      }),
    ),
    http.get(api('/dashboard/special-days'), () =>
      HttpResponse.json({
        result: [
          {
            id: 3,
            name: 'Diwali day',
            month: 11,
            day: 8,
            status: 'ACTIVE',
            date: '2026-11-08',
            activePosters: 4,
            apps: [
              { id: 1, name: 'Festival', activePosters: 4 },
              { id: 2, name: 'Wishes', activePosters: 0 },
            ],
          },
          {
            id: 5,
            name: 'Bhai Dooj',
            month: 11,
            day: 10,
            status: 'ACTIVE',
            date: '2026-11-10',
            activePosters: 0,
            apps: [
              { id: 1, name: 'Festival', activePosters: 0 },
              { id: 2, name: 'Wishes', activePosters: 0 },
            ],
          },
        ],
      }),
    ),
  ];
}

describe('dashboard charts below the counts', () => {
  it('wait below the counts until their place scrolls into view', async () => {
    const seen: string[] = [];
    server.use(...dashboardCalls(seen));
    renderApp('/', { signedInAs: 'a@b.c' });
    await waitFor(() => expect(screen.getByTestId('stat-totalUser')).toHaveTextContent('1'));
    // Time enough for the charts' chunk to load, were it asked for.
    await new Promise((r) => setTimeout(r, 500));
    expect(screen.queryByRole('heading', { name: 'Trends' })).toBeNull();
    expect(seen).toEqual([]);
  });
});

describe('dashboard trends', () => {
  // The charts wait for their place to scroll into view: here it is at once.
  const stub = window.IntersectionObserver;
  beforeEach(() => {
    window.IntersectionObserver = class {
      readonly callback: IntersectionObserverCallback;
      constructor(callback: IntersectionObserverCallback) {
        this.callback = callback;
      }
      observe() {
        this.callback(
          [{ isIntersecting: true } as IntersectionObserverEntry],
          this as unknown as IntersectionObserver,
        );
      }
      unobserve() {}
      disconnect() {}
    } as unknown as typeof IntersectionObserver;
  });
  afterEach(() => {
    window.IntersectionObserver = stub;
  });

  it('give every chart a table view with the same numbers, and link each card to its list', async () => {
    const seen: string[] = [];
    server.use(...dashboardCalls(seen));
    const { router } = renderApp('/?masterAppId=1', { signedInAs: 'a@b.c' });

    // Always there for screen readers, visually hidden.
    const downloads = await screen.findByTestId('trend-downloads');
    const hidden = await within(downloads).findByRole('table', {
      name: 'Poster downloads per period',
    });
    const rows = within(hidden).getAllByRole('row').slice(1);
    expect(rows.map((r) => r.textContent)).toEqual([
      'Week of 23 Feb1,200',
      'Week of 2 Mar34,567',
      'Week of 9 Mar0',
    ]);
    expect(seen[0]).toBe('?masterAppId=1');

    // Shown on demand.
    await userEvent.click(
      within(downloads).getByRole('button', { name: 'Show downloads as a table' }),
    );
    const region = within(downloads).getByRole('region', { name: 'Poster downloads per period' });
    expect(within(region).getAllByRole('row')).toHaveLength(4);
    expect(
      within(downloads).getByRole('link', { name: 'Most downloaded posters' }),
    ).toHaveAttribute('href', '/poster?masterAppId=1&sort=-downloadCount');

    const fresh = screen.getByTestId('trend-new');
    const newRows = within(
      within(fresh).getByRole('table', { name: 'New posters and new users per period' }),
    ).getAllByRole('row');
    expect(newRows[2]!.textContent).toBe('Week of 2 Mar07');
    expect(within(fresh).getByRole('link', { name: 'Newest users' })).toHaveAttribute(
      'href',
      '/users?masterAppId=1',
    );

    const categories = screen.getByTestId('top-categories');
    await within(categories).findByRole('link', { name: 'Diwali' });
    expect(within(categories).getByRole('link', { name: 'Diwali' })).toHaveAttribute(
      'href',
      '/poster?categoryId=7&masterAppId=1&sort=-downloadCount',
    );
    const posters = screen.getByTestId('top-posters');
    expect(within(posters).getByText('5,000')).toBeInTheDocument();

    const upcoming = screen.getByTestId('upcoming-days');
    await within(upcoming).findByText('Bhai Dooj');
    const [diwali, dooj] = within(upcoming).getAllByRole('listitem');
    expect(within(diwali!).getByRole('link', { name: 'Diwali day' })).toHaveAttribute(
      'href',
      '/poster?specialDayId=3&masterAppId=1',
    );
    expect(diwali).toHaveTextContent('4 active posters');
    expect(dooj).toHaveTextContent('No active posters');

    // The bucket is the URL's; the counts' call never carries it.
    await userEvent.click(screen.getByRole('button', { name: 'Month' }));
    await waitFor(() => expect(seen.at(-1)).toBe('?masterAppId=1&bucket=month'));
    expect(router.state.location.search).toBe('?masterAppId=1&bucket=month');
  });
  it('show a staff member only what their grants open: no users, no links into closed areas', async () => {
    // The server leaves the users out for such an account; the screen must not show them even
    // were they sent.
    server.use(...dashboardCalls(), staffGrants({ dashboard: ['VIEW'], category: ['VIEW'] }));
    renderApp('/', { signedInAs: 'staff@b.c' });
    await waitFor(() => expect(screen.getByTestId('stat-totalPoster')).toHaveTextContent('3'));
    expect(screen.queryByTestId('stat-totalUser')).toBeNull();

    const fresh = await screen.findByTestId('trend-new');
    expect(within(fresh).queryByRole('link', { name: 'Newest users' })).toBeNull();
    expect(within(fresh).queryByRole('link', { name: 'Newest posters' })).toBeNull();
    const table = within(fresh).getByRole('table', { name: 'New posters per period' });
    expect(within(table).queryByRole('columnheader', { name: 'New users' })).toBeNull();
    const downloads = screen.getByTestId('trend-downloads');
    expect(within(downloads).queryByRole('link')).toBeNull();

    // Category VIEW: its list is linked; the posters behind a category are not.
    const categories = screen.getByTestId('top-categories');
    await within(categories).findByText('Diwali');
    expect(within(categories).getByRole('link', { name: 'All categories' })).toBeInTheDocument();
    expect(within(categories).queryByRole('link', { name: 'Diwali' })).toBeNull();
    expect(within(screen.getByTestId('top-posters')).queryByRole('link')).toBeNull();
    const upcoming = screen.getByTestId('upcoming-days');
    await within(upcoming).findByText('Bhai Dooj');
    expect(within(upcoming).queryByRole('link')).toBeNull();
  });
});

const calendarDay = (id: number, name: string, day: number, counts: [number, number]) => ({
  id,
  name,
  month: 2,
  day,
  status: 'ACTIVE',
  activePosters: counts[0] + counts[1],
  apps: [
    { id: 1, name: 'Festival', activePosters: counts[0] },
    { id: 2, name: 'Wishes', activePosters: counts[1] },
  ],
});

describe('dashboard trend buckets', () => {
  it('offer no bucket size the period has too many of', async () => {
    server.use(...dashboardCalls());
    window.IntersectionObserver = undefined as unknown as typeof IntersectionObserver;
    try {
      renderApp('/?inDays=500', { signedInAs: 'a@b.c' });
      await screen.findByRole('heading', { name: 'Trends' });
      expect(screen.getByRole('button', { name: 'Day' })).toBeDisabled();
      expect(screen.getByRole('button', { name: 'Week' })).toBeEnabled();
    } finally {
      window.IntersectionObserver = stubObserver;
    }
  });
});

describe('the unfinished period and the axes', () => {
  it('name the period under way as counted "so far" in every chart’s table', async () => {
    const today = new Date().toISOString().slice(0, 10);
    const yesterday = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);
    // Before the shared calls: the first handler of a path answers.
    server.use(
      http.get(api('/dashboard/trends'), () =>
        HttpResponse.json({
          bucket: 'day',
          from: yesterday,
          to: today,
          points: [
            { start: yesterday, downloads: 900, posters: 4, users: 6 },
            { start: today, downloads: 20, posters: 1, users: 0 },
          ],
        }),
      ),
      ...dashboardCalls(),
    );
    window.IntersectionObserver = undefined as unknown as typeof IntersectionObserver;
    try {
      renderApp('/?inDays=1', { signedInAs: 'a@b.c' });
      const downloads = await screen.findByTestId('trend-downloads');
      const table = await within(downloads).findByRole('table', {
        name: 'Poster downloads per period',
      });
      const rows = within(table).getAllByRole('row').slice(1);
      expect(rows[0]!.textContent).not.toMatch(/so far/);
      expect(rows[1]!.textContent).toMatch(/\(so far\)20$/);
      const fresh = within(screen.getByTestId('trend-new')).getByRole('table', {
        name: 'New posters and new users per period',
      });
      expect(within(fresh).getAllByRole('row').at(-1)!.textContent).toMatch(/so far/);
    } finally {
      window.IntersectionObserver = stubObserver;
    }
  });

  it('step the top categories’ value axis evenly, each tick named', () => {
    expect(evenTicks(24_000)).toEqual([0, 6_000, 12_000, 18_000, 24_000]);
    expect(evenTicks(23_001)).toEqual([0, 6_000, 12_000, 18_000, 24_000]);
    expect(evenTicks(9_000)).toEqual([0, 2_500, 5_000, 7_500, 10_000]);
    expect(evenTicks(120)).toEqual([0, 30, 60, 90, 120]);
    expect(evenTicks(0)).toEqual([0, 1]);
    for (const max of [7, 95, 1_234, 56_789, 2_000_000]) {
      const ticks = evenTicks(max);
      const steps = new Set(ticks.slice(1).map((t, i) => t - ticks[i]!));
      expect(steps.size, String(max)).toBe(1);
      expect(ticks.at(-1)!, String(max)).toBeGreaterThanOrEqual(max);
      expect(ticks.length, String(max)).toBeLessThanOrEqual(6);
    }
  });
});

/** The coverage of February 2027: Vasant Panchami (the 14th) has posters in Festival, none in Wishes. */
function februaryCoverage(seen: string[] = []) {
  return http.get(api('/planning/coverage'), ({ request }) => {
    seen.push(new URL(request.url).search);
    return HttpResponse.json({
      days: Array.from({ length: 28 }, (_, i) => {
        const date = `2027-02-${String(i + 1).padStart(2, '0')}`;
        const on14 = i + 1 === 14;
        return {
          date,
          specialDays: on14 ? [{ id: 1, name: 'Vasant Panchami' }] : [],
          apps: [
            { masterAppId: 1, name: 'Festival', posters: on14 ? 2 : 0, videos: 0 },
            { masterAppId: 2, name: 'Wishes', posters: 0, videos: 0 },
          ],
        };
      }),
    });
  });
}

describe('special-day calendar', () => {
  it('shows a month’s days with counts per app, links to posters and moves a day by dialog', async () => {
    const months: string[] = [];
    const patches: unknown[] = [];
    const planned: string[] = [];
    server.use(
      februaryCoverage(planned),
      http.get(api('/special-day/calendar'), ({ request }) => {
        months.push(new URL(request.url).search);
        return HttpResponse.json({
          month: 2,
          result: [
            calendarDay(1, 'Vasant Panchami', 14, [2, 1]),
            calendarDay(2, 'Leap Fair', 29, [0, 0]),
          ],
        });
      }),
      http.get(api('/special-day/list'), () =>
        HttpResponse.json({ result: [], total: 0, nextCursor: null }),
      ),
      http.patch(api('/special-day/1'), async ({ request }) => {
        patches.push(Object.fromEntries(new URLSearchParams(await request.text())));
        const at = '2026-01-01T00:00:00.000Z';
        return HttpResponse.json({
          message: 'Special Day Updated Successfully',
          result: {
            id: 1,
            version: 2,
            name: 'Vasant Panchami',
            month: 2,
            day: 16,
            year: null,
            status: 'ACTIVE',
            createdAt: at,
            updatedAt: at,
          },
        });
      }),
    );
    const { router } = renderApp('/special-day?view=calendar&month=2027-02', {
      signedInAs: 'a@b.c',
    });
    const cell = await screen.findByTestId('calendar-day-14');
    // One line from the coverage: the app without a live poster that day, linking to the plan
    // (no paragraph of every app's count).
    const gap = await within(cell).findByRole('link', { name: 'No poster in Wishes' });
    expect(gap).toHaveAttribute('href', '/special-day?view=plan');
    expect(cell).not.toHaveTextContent('Festival');
    expect(planned[0]).toBe('?from=2027-02-01&days=28');
    expect(within(cell).getByRole('link', { name: 'Vasant Panchami' })).toHaveAttribute(
      'href',
      '/poster?specialDayId=1',
    );
    expect(months[0]).toBe('?month=2');
    // 2027 has no 29 February: its special days are listed apart, flagged without posters.
    expect(screen.queryByTestId('calendar-day-29')).toBeNull();
    expect(screen.getByText('29 February (leap years only)')).toBeInTheDocument();
    expect(screen.getByText('Leap Fair')).toBeInTheDocument();

    await userEvent.click(
      within(cell).getByRole('button', { name: 'Move Vasant Panchami to another date' }),
    );
    const dialog = await screen.findByRole('dialog', { name: 'Move Vasant Panchami' });
    expect(within(dialog).queryByRole('textbox', { name: 'Name' })).toBeNull();
    const dayInput = within(dialog).getByRole('textbox', { name: 'Day' });
    await userEvent.clear(dayInput);
    await userEvent.type(dayInput, '16');
    await userEvent.click(within(dialog).getByRole('button', { name: 'Move' }));
    await waitFor(() =>
      expect(patches).toEqual([{ name: 'Vasant Panchami', month: '2', day: '16' }]),
    );
    // Refetched after the move.
    await waitFor(() => expect(months.length).toBeGreaterThan(1));

    await userEvent.click(screen.getByRole('button', { name: 'Next month' }));
    expect(router.state.location.search).toBe('?view=calendar&month=2027-03');
    await userEvent.click(screen.getByRole('radio', { name: 'List' }));
    expect(router.state.location.search).toBe('');
  });

  it('offers no move without UPDATE on special days', async () => {
    server.use(
      staffGrants({ specialDay: ['VIEW'] }),
      februaryCoverage(),
      http.get(api('/special-day/calendar'), () =>
        HttpResponse.json({ month: 2, result: [calendarDay(1, 'Vasant Panchami', 14, [1, 0])] }),
      ),
    );
    renderApp('/special-day?view=calendar&month=2028-02', { signedInAs: 'a@b.c' });
    const cell = await screen.findByTestId('calendar-day-14');
    expect(within(cell).getByRole('link', { name: 'Vasant Panchami' })).toBeInTheDocument();
    expect(within(cell).queryByRole('button', { name: /^Move / })).toBeNull();
    expect(within(cell).getByText('Vasant Panchami').closest('[draggable="true"]')).toBeNull();
  });
});
