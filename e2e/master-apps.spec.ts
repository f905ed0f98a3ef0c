/**
 * Master Apps: create, rename, names taken (the server's 409 message), search and sorting.
 */
import type { Locator, Page } from '@playwright/test';
import {
  expect,
  expectToast,
  listRange,
  openSignedIn,
  test,
  unique,
  cancelDiscarding,
} from './fixtures.ts';

const TAKEN = 'A master app with this name already exists';

function table(page: Page) {
  return page.getByRole('table', { name: 'Master apps' });
}

function cell(page: Page, name: string) {
  return table(page).getByRole('cell', { name, exact: true });
}

async function openMasterApps(page: Page) {
  await openSignedIn(page, '/masterApp', { heading: 'Master Apps' });
}

/** The server's refusal shows under the dialog's Name field (and in a toast). */
async function expectTakenOnField(dialog: Locator) {
  await expect(dialog.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
  await expect(dialog.getByText(TAKEN)).toBeVisible();
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

  await page.getByRole('button', { name: `Edit ${name}`, exact: true }).click();
  const rename = page.getByRole('dialog', { name: `Edit ${name}` });
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
  consoleGuard,
}) => {
  consoleGuard.allowStatus(409, '/master-app', 'a taken name, refused on purpose');
  const first = unique('E2E Taken');
  const second = unique('E2E Second');
  await openMasterApps(page);
  await create(page, first);
  await expect(cell(page, first)).toBeVisible();
  await create(page, second);
  await expect(cell(page, second)).toBeVisible();

  // Names are unique whatever the letter case.
  const again = await create(page, first.toUpperCase());
  // Said once, under the field it names (no toast repeats it).
  await expectTakenOnField(again);
  await expect(again.getByLabel('Name')).toHaveValue(first.toUpperCase());
  await cancelDiscarding(page, again);
  await expect(cell(page, first.toUpperCase())).toHaveCount(0);

  await page.getByRole('button', { name: `Edit ${second}`, exact: true }).click();
  const rename = page.getByRole('dialog', { name: `Edit ${second}` });
  await rename.getByLabel('Name').fill(first);
  await rename.getByRole('button', { name: 'Save' }).click();
  await expectTakenOnField(rename);
  await cancelDiscarding(page, rename);
  await expect(cell(page, second)).toBeVisible();
  await expect(cell(page, first)).toHaveCount(1);
});

test('search finds apps by part of the name; the Name heading sorts them', async ({ page }) => {
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
  await expect(listRange(page)).toHaveText('1–2 of 2');

  // The Name heading cycles ascending, descending and the default order (newest first).
  const heading = table(page).getByRole('columnheader', { name: 'Name' });
  const names = table(page).locator('tbody tr td:nth-child(2)');
  await heading.getByRole('button', { name: 'Name' }).click();
  await expect(page).toHaveURL(/[?&]sort=name(&|$)/);
  await expect(heading).toHaveAttribute('aria-sort', 'ascending');
  await expect(names).toHaveText([alpha, beta]);
  await heading.getByRole('button', { name: 'Name' }).click();
  await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
  await expect(heading).toHaveAttribute('aria-sort', 'descending');
  await expect(names).toHaveText([beta, alpha]);
  await heading.getByRole('button', { name: 'Name' }).click();
  await expect(page).not.toHaveURL(/[?&]sort=/);
  await expect(heading).toHaveAttribute('aria-sort', 'none');
  await expect(names).toHaveText([beta, alpha]);

  await search.fill(`${token}-nothing`);
  await expect(page.getByText('Nothing matches')).toBeVisible();
  await expect(listRange(page)).toHaveText('0 of 0');

  await page.getByRole('button', { name: 'Clear search and filters' }).click();
  await expect(page).not.toHaveURL(/[?&]q=/);
  await expect(search).toHaveValue('');
  await expect(cell(page, other)).toBeVisible();
});
