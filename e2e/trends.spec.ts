/**
 * Dashboard trends and the special-day calendar in Chromium: rows written straight into the
 * database (the posters' per-day downloads, users, special days; the posters themselves uploaded
 * through the API, so that their images exist), then the charts, their table views and the
 * calendar must show them, and lead to the posters behind them.
 */
import type { Page } from '@playwright/test';
import {
  adminApi,
  createPoster,
  expect,
  expectNoA11yViolations,
  now,
  openSignedIn,
  test,
  unique,
  type ApiCall,
  type Sql,
} from './fixtures.ts';

const DAY_MS = 86_400_000;
const dayAfter = (n: number) => new Date(Date.now() + n * DAY_MS).toISOString().slice(0, 10);

async function insert(sql: Sql, text: string, params: unknown[]): Promise<number> {
  return Number((await sql.one<{ id: number }>(`${text} returning id`, params)).id);
}

/**
 * Two apps, a category, two special days soon (one without posters), posters and downloads. The
 * posters are uploaded through the API (their images exist, as any poster's do); the rest is SQL.
 */
async function seed(sql: Sql, api: ApiCall) {
  const at = now();
  const apps = [unique('Trend App'), unique('Trend App')];
  const appIds = [];
  for (const name of apps) {
    appIds.push(
      await insert(sql, 'insert into master_apps (name, created_at, updated_at) values (?, ?, ?)', [
        name,
        at,
        at,
      ]),
    );
  }
  const category = unique('Trend Category');
  const categoryId = await insert(
    sql,
    `insert into categories (name, download_count, status, created_at, updated_at)
     values (?, 0, 'ACTIVE', ?, ?)`,
    [category, at, at],
  );
  // Special days a few days ahead (UTC), so they are among the next ones.
  const soon = dayAfter(2);
  const days: Array<{ id: number; name: string; date: string }> = [];
  for (const date of [soon, dayAfter(3)]) {
    const name = unique('Trend Day');
    const id = await insert(
      sql,
      `insert into special_days (name, month, day, year, status, created_at, updated_at)
       values (?, ?, ?, null, 'ACTIVE', ?, ?)`,
      [name, Number(date.slice(5, 7)), Number(date.slice(8, 10)), at, at],
    );
    days.push({ id, name, date });
  }
  const posterIds = [];
  for (const appId of appIds) {
    posterIds.push(
      await createPoster(api, { masterAppId: appId, categoryId, specialDayId: days[0]!.id }),
    );
  }
  // Downloads on each of the last five days: 10, 20, 30, 40, 50 for the first poster.
  for (let i = 1; i <= 5; i++) {
    await sql.all('insert into poster_downloads (poster_id, day, n) values (?, ?, ?)', [
      posterIds[0],
      dayAfter(-i),
      i * 10,
    ]);
  }
  return { apps, appIds, category, categoryId, days };
}

async function openTrends(page: Page) {
  await openSignedIn(page, '/', { heading: 'Dashboard' });
  await expect(page.getByTestId('trend-downloads').locator('.recharts-surface')).toBeVisible();
}

test('the dashboard charts the database’s downloads and links to the posters behind them', async ({
  page,
  request,
  sql,
}) => {
  const data = await seed(sql, await adminApi(request));
  await page.goto('/');
  await openTrends(page);
  await page.getByRole('button', { name: 'Last N days' }).click();
  await expect(page).toHaveURL(/inDays=30/);

  // The table view holds the same numbers, day by day.
  const downloads = page.getByTestId('trend-downloads');
  await downloads.getByRole('button', { name: 'Show downloads as a table' }).click();
  const threeDaysAgo = await sql.one<{ n: number | string }>(
    'select sum(n) as n from poster_downloads where day = ?',
    [dayAfter(-3)],
  );
  const label = new Date(`${dayAfter(-3)}T00:00:00Z`).toLocaleDateString('en-GB', {
    day: 'numeric',
    month: 'short',
    timeZone: 'UTC',
  });
  await expect(downloads.getByRole('row', { name: new RegExp(`^${label} `) })).toContainText(
    Number(threeDaysAgo.n).toLocaleString('en-US'),
  );
  await expect(page.getByTestId('trend-new').locator('.recharts-surface')).toBeVisible();

  // Next special days: ours with one active poster per app, the other flagged.
  const upcoming = page.getByTestId('upcoming-days');
  const flagged = upcoming.getByRole('listitem').filter({ hasText: data.days[1]!.name });
  await expect(flagged).toContainText('No active posters');
  await expect(
    upcoming.getByRole('listitem').filter({ hasText: data.days[0]!.name }),
  ).toContainText('2 active posters');
  await expectNoA11yViolations(page);

  // The top category of its app leads to its posters (over all apps, the demo's lead).
  await page.goto(`/?inDays=30&masterAppId=${data.appIds[0]}`);
  const top = page.getByTestId('top-categories');
  await top.getByRole('button', { name: 'Show top categories as a table' }).click();
  await top.getByRole('link', { name: data.category }).click();
  await expect(page).toHaveURL(new RegExp(`/poster\\?categoryId=${data.categoryId}&`));
  await expect(page.getByTestId('list-range')).toHaveText('1–1 of 1');
});

test('a calendar day shows its special days and opens their posters; a move by dialog and by drag', async ({
  page,
  request,
  sql,
}) => {
  const data = await seed(sql, await adminApi(request));
  const [first, second] = data.days as [(typeof data.days)[0], (typeof data.days)[0]];
  await openSignedIn(page, `/special-day?view=calendar&month=${first.date.slice(0, 7)}`);
  const cell = page.getByTestId(`calendar-day-${Number(first.date.slice(8, 10))}`);
  await expect(cell).toContainText(first.name);
  // The day's coverage line names the apps with no poster live for it: ours has one.
  await expect(cell).toContainText('No poster in');
  await expect(cell).not.toContainText(data.apps[0]!);
  await expectNoA11yViolations(page);

  // Moving the second day onto the first's date, by the dialog.
  await page.goto(`/special-day?view=calendar&month=${second.date.slice(0, 7)}`);
  await page.getByRole('button', { name: `Move ${second.name} to another date` }).click();
  const dialog = page.getByRole('dialog', { name: `Move ${second.name}` });
  await dialog.getByRole('textbox', { name: 'Day' }).fill(String(Number(first.date.slice(8, 10))));
  await dialog.getByRole('combobox', { name: 'Month' }).click();
  await page
    .getByRole('option', {
      name: new Date(`${first.date}T00:00:00Z`).toLocaleDateString('en-GB', {
        month: 'long',
        timeZone: 'UTC',
      }),
      exact: true,
    })
    .click();
  await dialog.getByRole('button', { name: 'Move' }).click();
  await page.goto(`/special-day?view=calendar&month=${first.date.slice(0, 7)}`);
  await expect(cell).toContainText(second.name);

  // And by dragging it onto the next or previous day of the same week: a drag that scrolls to
  // reach its target makes Chromium start it from whatever entry then lies under the pressed point
  // (seen when a day held three entries, and when other tests' apps made the weeks tall).
  await page.setViewportSize({ width: 1280, height: 2400 });
  const day = Number(first.date.slice(8, 10));
  const row = (await cell.boundingBox())?.y;
  let target = page.getByTestId(`calendar-day-${day + 1}`);
  if ((await target.count()) === 0 || (await target.boundingBox())?.y !== row) {
    target = page.getByTestId(`calendar-day-${day - 1}`);
  }
  await target.scrollIntoViewIfNeeded();
  await cell.getByRole('link', { name: second.name }).dragTo(target);
  await expect(page.getByText('Special Day Updated Successfully')).toBeVisible();
  await expect(target).toContainText(second.name);
  await expect(cell).not.toContainText(second.name);

  await cell.getByRole('link', { name: first.name }).click();
  await expect(page).toHaveURL(new RegExp(`/poster\\?specialDayId=${first.id}$`));
  await expect(page.getByTestId('list-range')).toHaveText('1–2 of 2');
});

test('the demo business fills the dashboard: an app’s charts and top categories agree with the database', async ({
  page,
  sql,
}) => {
  // The global setup ran `npm run admin -- demo`, as a new user would.
  const app = await sql.one<{ id: number }>(
    "select id from master_apps where name = 'Utsav Posters'",
  );
  const top = await sql.one<{ name: string; n: number | string }>(
    `select c.name as name, sum(d.n) as n from poster_downloads d
     join posters p on p.id = d.poster_id join categories c on c.id = p.category_id
     where p.master_app_id = ? group by c.id, c.name order by sum(d.n) desc, c.id limit 1`,
    [app.id],
  );
  expect(Number(top.n)).toBeGreaterThan(0);
  await openSignedIn(page, `/?masterAppId=${app.id}`);
  for (const chart of ['trend-downloads', 'trend-new', 'top-categories']) {
    await expect(page.getByTestId(chart).locator('.recharts-surface')).toBeVisible();
  }
  const categories = page.getByTestId('top-categories');
  await categories.getByRole('button', { name: 'Show top categories as a table' }).click();
  const first = categories.getByRole('row').nth(1);
  await expect(first).toContainText(top.name);
  await expect(first).toContainText(Number(top.n).toLocaleString('en-US'));
});
