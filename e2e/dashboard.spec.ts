/**
 * The dashboard's four counts equal the database's: rows are written straight into the database
 * (posters are uploaded through the API, so that their images exist, then given their uploader
 * and downloads by SQL), the expected numbers are counted there with SQL, and the cards must show
 * them (with thousands separators), for all apps and for one master app.
 */
import type { Page } from '@playwright/test';
import {
  adminApi,
  createPoster,
  expect,
  now,
  signIn,
  test,
  unique,
  type ApiCall,
  type Sql,
} from './fixtures.ts';

type Counts = {
  totalUser: number;
  totalCategory: number;
  totalPoster: number;
  downloadPoster: number;
};

/** What the dashboard should show, counted in the database the way the spec defines it. */
async function expectedCounts(sql: Sql, masterAppId?: number): Promise<Counts> {
  const app = masterAppId === undefined ? '' : ' and master_app_id = ?';
  const appParams = masterAppId === undefined ? [] : [masterAppId];
  const users = await sql.one<{ n: number | string }>(
    `select count(*) as n from accounts where role = 'USER' and status <> 'DELETED'${app}`,
    appParams,
  );
  const categories = await sql.one<{ n: number | string }>('select count(*) as n from categories');
  const posters = await sql.one<{ n: number | string; downloads: number | string }>(
    `select count(*) as n, coalesce(sum(download_count), 0) as downloads from posters
     where 1 = 1${app}`,
    appParams,
  );
  return {
    totalUser: Number(users.n),
    totalCategory: Number(categories.n),
    totalPoster: Number(posters.n),
    downloadPoster: Number(posters.downloads),
  };
}

async function expectCards(page: Page, counts: Counts) {
  for (const [key, value] of Object.entries(counts)) {
    await expect(page.getByTestId(`stat-${key}`).getByTestId('stat-value')).toHaveText(
      value.toLocaleString('en-US'),
    );
  }
}

async function insertApp(sql: Sql, name: string): Promise<number> {
  const at = now();
  const row = await sql.one<{ id: number }>(
    'insert into master_apps (name, created_at, updated_at) values (?, ?, ?) returning id',
    [name, at, at],
  );
  return Number(row.id);
}

async function insertUser(sql: Sql, masterAppId: number, status: string): Promise<number> {
  const at = now();
  const phone = String(Math.floor(1e9 + Math.random() * 9e9));
  const row = await sql.one<{ id: number }>(
    `insert into accounts (role, name, phone_number, status, master_app_id, created_at, updated_at)
     values ('USER', ?, ?, ?, ?, ?, ?) returning id`,
    [unique('User'), phone, status, masterAppId, at, at],
  );
  return Number(row.id);
}

async function insertCategory(sql: Sql): Promise<number> {
  const at = now();
  const row = await sql.one<{ id: number }>(
    `insert into categories (name, download_count, status, created_at, updated_at)
     values (?, 0, 'ACTIVE', ?, ?) returning id`,
    [unique('Category'), at, at],
  );
  return Number(row.id);
}

/** A poster (its image stored through the API), then its uploader and downloads set by SQL. */
async function addPoster(
  api: ApiCall,
  sql: Sql,
  p: { masterAppId: number; categoryId: number; accountId: number; downloads: number },
) {
  const id = await createPoster(api, p);
  await sql.all('update posters set account_id = ?, download_count = ? where id = ?', [
    p.accountId,
    p.downloads,
    id,
  ]);
}

test('the dashboard shows the database’s counts, for all apps and for one master app', async ({
  page,
  request,
  sql,
}) => {
  const appName = unique('Dashboard app');
  const appId = await insertApp(sql, appName);
  const otherId = await insertApp(sql, unique('Other app'));

  // In the chosen app: 3 users who count (ACTIVE, PENDING, SUSPENDED) and 2 DELETED who do not.
  const userIds = [
    await insertUser(sql, appId, 'ACTIVE'),
    await insertUser(sql, appId, 'PENDING'),
    await insertUser(sql, appId, 'SUSPENDED'),
  ];
  await insertUser(sql, appId, 'DELETED');
  await insertUser(sql, appId, 'DELETED');
  // In the other app: 2 users who count, 1 who does not.
  const otherUser = await insertUser(sql, otherId, 'ACTIVE');
  await insertUser(sql, otherId, 'DEACTIVE');
  await insertUser(sql, otherId, 'DELETED');

  const categories = [await insertCategory(sql), await insertCategory(sql)];
  // 2 posters in the chosen app (1,200 + 345 downloads), 1 in the other (98,765).
  const api = await adminApi(request);
  await addPoster(api, sql, {
    masterAppId: appId,
    categoryId: categories[0]!,
    accountId: userIds[0]!,
    downloads: 1200,
  });
  await addPoster(api, sql, {
    masterAppId: appId,
    categoryId: categories[1]!,
    accountId: userIds[1]!,
    downloads: 345,
  });
  await addPoster(api, sql, {
    masterAppId: otherId,
    categoryId: categories[0]!,
    accountId: otherUser,
    downloads: 98_765,
  });

  const all = await expectedCounts(sql);
  expect(all.downloadPoster).toBeGreaterThanOrEqual(100_310);
  const forApp = await expectedCounts(sql, appId);
  // The SQL above agrees with what was just written for this app.
  expect(forApp).toEqual({
    totalUser: 3,
    totalCategory: all.totalCategory,
    totalPoster: 2,
    downloadPoster: 1545,
  });

  await signIn(page);
  await expectCards(page, all);
  await expect(page.getByTestId('stat-downloadPoster').getByTestId('stat-value')).toHaveText(
    /^\d{1,3}(,\d{3})+$/,
  );

  // Narrowed to one master app: its users and posters only; categories are shared.
  const select = page.getByRole('combobox', { name: 'Master app' });
  await select.click();
  await select.fill(appName);
  await page.getByRole('option', { name: appName, exact: true }).click();
  await expect(page).toHaveURL(new RegExp(`[?&]masterAppId=${appId}(&|$)`));
  await expectCards(page, forApp);
  await expect(page.getByTestId('stat-downloadPoster').getByTestId('stat-value')).toHaveText(
    '1,545',
  );

  // Clearing the filter shows every app's counts again.
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page).not.toHaveURL(/masterAppId=/);
  await expectCards(page, all);
});

test('a signed-in visit gets the shell and dashboard in one file, asked for at once; sign-in does not', async ({
  page,
}) => {
  const scripts: string[] = [];
  page.on('request', (r) => {
    if (r.resourceType() === 'script') scripts.push(new URL(r.url()).pathname);
  });
  await page.goto('/auth/sign-in');
  await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  // Someone signing in downloads none of the signed-in screens' code.
  expect(scripts.filter((s) => s.includes('/signed-in-'))).toEqual([]);

  await signIn(page);
  // A screen as short as the counts: the charts below them load only once scrolled into view.
  await page.setViewportSize({ width: 1280, height: 250 });
  scripts.length = 0;
  await page.reload();
  await expect(page.getByTestId('stat-totalUser').getByTestId('stat-value')).toBeVisible();
  // The entry's files, the preload script and one chunk for the shell and the dashboard, each
  // fetched once (not some twenty-five files in two rounds).
  expect(scripts.filter((s) => s.includes('/signed-in-'))).toHaveLength(1);
  expect(new Set(scripts).size).toBe(scripts.length);
  expect(scripts.length).toBeLessThanOrEqual(6);
  expect(scripts.filter((s) => s.includes('/Trends-'))).toEqual([]);

  await page.mouse.wheel(0, 2000);
  await expect(page.getByRole('heading', { name: 'Trends', level: 3 })).toBeVisible();
  expect(scripts.filter((s) => s.includes('/Trends-'))).toHaveLength(1);
});
