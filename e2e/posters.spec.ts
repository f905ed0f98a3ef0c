/**
 * Posters: upload a real image for every app and see one row per app, filter by app in the URL,
 * change the status of several rows through the bulk bar, and delete one after confirming while
 * the other apps' rows keep the shared image.
 */
import type { Locator, Page } from '@playwright/test';
import {
  adminApi,
  createMasterApp,
  expect,
  expectNoA11yViolations,
  expectToast,
  listRange,
  loadedWidth,
  mediaBase,
  openSignedIn,
  pngFile,
  rowAction,
  test,
  unique,
} from './fixtures.ts';

function posterTable(page: Page) {
  return page.getByRole('table', { name: 'Posters' });
}

/** Picks `option` in a searchable select, typing it first (the list may be longer than a page). */
async function choose(page: Page, scope: Page | Locator, label: string, option: string) {
  const select = scope.getByRole('combobox', { name: label });
  await expect(select).toBeEnabled();
  await select.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

test('upload a poster for every app, filter by app, change status in bulk, delete one', async ({
  page,
  request,
  sql,
}) => {
  const api = await adminApi(request);
  const appA = await createMasterApp(request, unique('Poster App A'));
  const appB = await createMasterApp(request, unique('Poster App B'));
  const categoryName = unique('Poster Category');
  const category = await api<{ id: number }>('post', '/category', {
    form: { name: categoryName },
  });
  await openSignedIn(page, '/poster', { heading: 'Posters' });

  // New poster, for all apps (the default), with a portrait image and the self photo on the right.
  await page.getByRole('button', { name: 'New poster' }).click();
  const dialog = page.getByRole('dialog', { name: 'New poster' });
  await expect(dialog.getByRole('radio', { name: 'All apps' })).toBeChecked();
  await choose(page, dialog, 'Category', categoryName);
  await dialog
    .locator('input[type=file]')
    .first()
    .setInputFiles(await pngFile('poster.png', '#aa3355', 600, 900));
  await expect(dialog.getByRole('img', { name: 'Preview of poster.png' })).toBeVisible();
  await dialog.getByRole('radio', { name: 'Right' }).check();
  await dialog.getByRole('textbox', { name: 'Top number' }).fill('2');
  await expectNoA11yViolations(page, '[role="dialog"]');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expectToast(page, 'Poster uploaded to all apps successfully');
  await expect(dialog).toBeHidden();

  // One row per master app, all sharing the stored image.
  const apps = await sql.one<{ n: number | string }>('select count(*) as n from master_apps');
  const rows = await sql.all<{ id: number; master_app_id: number; poster: string }>(
    'select id, master_app_id, poster from posters where category_id = ? order by id',
    [category.id],
  );
  expect(rows).toHaveLength(Number(apps.n));
  expect(new Set(rows.map((r) => r.poster)).size).toBe(1);
  const idOf = (appId: number) => rows.find((r) => r.master_app_id === appId)!.id;
  const [idA, idB] = [idOf(appA.id), idOf(appB.id)];

  await choose(page, page, 'Category', categoryName);
  await expect(page).toHaveURL(new RegExp(`[?&]categoryId=${category.id}(&|$)`));
  await expect(listRange(page)).toContainText(`of ${Number(apps.n)}`);
  const rowA = posterTable(page).getByRole('row').filter({ hasText: appA.name });
  await expect(rowA).toContainText(categoryName);
  await expect(rowA).toContainText('2 / 1 / 1');
  await expect(rowA).toContainText('Self photo right');
  await expect(posterTable(page).getByRole('row').filter({ hasText: appB.name })).toBeVisible();
  const thumb = rowA.getByRole('img', { name: `Poster #${idA}` });
  await expect(thumb).toHaveAttribute(
    'src',
    `${mediaBase()}/${rows[0]!.poster.replace(/\.webp$/, '.thumb.webp')}`,
  );
  await expect.poll(() => loadedWidth(thumb)).toBeGreaterThan(0);
  await expectNoA11yViolations(page);

  // Filtered by one app: only its row, and the filter is in the URL.
  await choose(page, page, 'Master app', appA.name);
  await expect(page).toHaveURL(new RegExp(`[?&]masterAppId=${appA.id}(&|$)`));
  await expect(listRange(page)).toHaveText('1–1 of 1');
  await expect(rowA).toBeVisible();
  await page.goBack();
  await expect(page).not.toHaveURL(/masterAppId=/);
  await expect(listRange(page)).toContainText(`of ${Number(apps.n)}`);

  // Two rows selected, their status changed at once.
  await page.getByRole('checkbox', { name: `Select Poster #${idA}` }).check();
  await page.getByRole('checkbox', { name: `Select Poster #${idB}` }).check();
  const bar = page.getByRole('region', { name: 'Selected rows' });
  await expect(bar).toContainText('2 selected');
  await bar.getByRole('button', { name: 'Change status' }).click();
  const status = page.getByRole('dialog', { name: 'Status of 2 posters' });
  await status.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Deactivated' }).click();
  await status.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Status Updated Successfully');
  await expect(bar).toBeHidden();
  for (const id of [idA, idB]) {
    await expect(
      page.getByRole('button', { name: `Status of poster #${id}: Deactivated. Change` }),
    ).toBeVisible();
  }
  const changed = await sql.all<{ status: string }>(
    'select status from posters where category_id = ? order by id',
    [category.id],
  );
  expect(changed.filter((r) => r.status === 'DEACTIVE')).toHaveLength(2);

  // Delete asks first; the other apps' rows keep the shared image.
  await rowAction(page, `Poster #${idA}`, 'Delete');
  const confirm = page.getByRole('dialog', { name: 'Delete this poster?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Poster deleted successfully');
  await expect(page.getByRole('button', { name: `Actions for Poster #${idA}` })).toHaveCount(0);
  expect((await sql.all('select id from posters where id = ?', [idA])).length).toBe(0);
  expect((await page.request.get(`${mediaBase()}/${rows[0]!.poster}`)).status()).toBe(200);
});
