/**
 * Master Apps: create, rename, names taken (the server's 409 message), and search.
 */
import type { Page } from '@playwright/test';
import { expect, expectToast, signIn, test, unique } from './fixtures.ts';

const TAKEN = 'A master app with this name already exists';

function table(page: Page) {
  return page.getByRole('table', { name: 'Master apps' });
}

function cell(page: Page, name: string) {
  return table(page).getByRole('cell', { name, exact: true });
}

async function openMasterApps(page: Page) {
  await signIn(page);
  await page
    .getByRole('navigation', { name: 'Areas' })
    .getByRole('link', { name: 'Master Apps' })
    .click();
  await expect(page).toHaveURL(/\/masterApp$/);
  await expect(page.getByRole('heading', { name: 'Master Apps', level: 2 })).toBeVisible();
}

async function create(page: Page, name: string) {
  await page.getByRole('button', { name: 'New app' }).click();
  const dialog = page.getByRole('dialog', { name: 'New master app' });
  await expect(dialog).toBeVisible();
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByRole('button', { name: 'Create' }).click();
  return dialog;
}

test('create a master app, then rename it', async ({ page }) => {
  const name = unique('E2E App');
  const renamed = unique('E2E Renamed');
  await openMasterApps(page);

  const dialog = await create(page, name);
  await expectToast(page, 'App Created Successfully');
  await expect(dialog).toBeHidden();
  // Newest first: the new app heads the list.
  await expect(table(page).locator('tbody tr').first()).toContainText(name);
  await expect(cell(page, name)).toBeVisible();

  await page.getByRole('button', { name: `Rename ${name}`, exact: true }).click();
  const rename = page.getByRole('dialog', { name: `Rename ${name}` });
  await expect(rename.getByLabel('Name')).toHaveValue(name);
  await rename.getByLabel('Name').fill(renamed);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Successfully Updated.');
  await expect(rename).toBeHidden();
  await expect(cell(page, renamed)).toBeVisible();
  await expect(cell(page, name)).toHaveCount(0);

  // The change is the server's, not only the screen's.
  await page.reload();
  await expect(cell(page, renamed)).toBeVisible();
  await expect(cell(page, name)).toHaveCount(0);
});

test('a taken name is refused with the server’s message, on create and on rename', async ({
  page,
}) => {
  const first = unique('E2E Taken');
  const second = unique('E2E Second');
  await openMasterApps(page);
  await create(page, first);
  await expect(cell(page, first)).toBeVisible();
  await create(page, second);
  await expect(cell(page, second)).toBeVisible();

  // Names are unique whatever the letter case.
  const again = await create(page, first.toUpperCase());
  await expectToast(page, TAKEN);
  await expect(again).toBeVisible();
  await expect(again.getByLabel('Name')).toHaveValue(first.toUpperCase());
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();
  await expect(cell(page, first.toUpperCase())).toHaveCount(0);

  await page.getByRole('button', { name: `Rename ${second}`, exact: true }).click();
  const rename = page.getByRole('dialog', { name: `Rename ${second}` });
  await rename.getByLabel('Name').fill(first);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, TAKEN);
  await expect(rename).toBeVisible();
  await rename.getByRole('button', { name: 'Cancel' }).click();
  await expect(rename).toBeHidden();
  await expect(cell(page, second)).toBeVisible();
  await expect(cell(page, first)).toHaveCount(1);
});

test('search finds apps by part of the name', async ({ page }) => {
  const token = unique('zq').replace(' ', '');
  const alpha = `Alpha ${token}`;
  const beta = `Beta ${token.toUpperCase()}`;
  const other = unique('E2E Unrelated');
  await openMasterApps(page);
  for (const name of [alpha, beta, other]) {
    await create(page, name);
    await expect(cell(page, name)).toBeVisible();
  }

  const search = page.getByRole('textbox', { name: 'Search apps' });
  await search.fill(token);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${token}(&|$)`));
  // Case-insensitive, anywhere in the name.
  await expect(table(page).locator('tbody tr')).toHaveCount(2);
  await expect(cell(page, alpha)).toBeVisible();
  await expect(cell(page, beta)).toBeVisible();
  await expect(page.getByText('Showing 1–2 of 2')).toBeVisible();

  await search.fill(`${token}-nothing`);
  await expect(page.getByText('Nothing matches')).toBeVisible();
  await expect(page.getByText('Total: 0')).toBeVisible();

  await page.getByRole('button', { name: 'Clear search' }).click();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(cell(page, other)).toBeVisible();
});
