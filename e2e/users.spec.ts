/**
 * Users: register a user, give them numbered top, self and bottom images (a taken number is
 * refused with its toast), open the user's page and preview a poster composed for them.
 */
import type { Locator, Page } from '@playwright/test';
import {
  adminApi,
  createMasterApp,
  expect,
  expectNoA11yViolations,
  expectToast,
  loadedWidth,
  openSignedIn,
  pngFile,
  test,
  unique,
  cancelDiscarding,
} from './fixtures.ts';

/** Picks `option` in a searchable select, typing it first. */
async function choose(page: Page, scope: Page | Locator, label: string, option: string) {
  const select = scope.getByRole('combobox', { name: label });
  await expect(select).toBeEnabled();
  await select.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** Uploads a numbered image from the gallery's dialog. */
async function uploadImage(page: Page, kind: string, number: string, colour: string) {
  await page.getByRole('button', { name: `Upload ${kind} image` }).click();
  const dialog = page.getByRole('dialog', { name: `Upload a ${kind} image` });
  await dialog.getByRole('textbox', { name: 'Default number' }).fill(number);
  if (kind === 'self') await dialog.getByRole('radio', { name: 'Right' }).check();
  await dialog
    .locator('input[type=file]')
    .setInputFiles(await pngFile(`${kind}.png`, colour, 300, kind === 'self' ? 300 : 60));
  await expect(dialog.getByRole('img', { name: `Preview of ${kind}.png` })).toBeVisible();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  return dialog;
}

test('register a user, upload numbered images, see a taken number refused, preview a poster', async ({
  page,
  request,
  sql,
  consoleGuard,
}) => {
  // Four uploads, a preview and a refusal: ~50 s of the default 60 on two cores.
  test.slow();
  consoleGuard.allowStatus(
    409,
    '/auth/user/register',
    'a phone number taken in the app, on purpose',
  );
  consoleGuard.allowStatus(409, '/top/', 'a taken image number, on purpose');
  const api = await adminApi(request);
  const app = await createMasterApp(request, unique('Users App'));
  const category = await api<{ id: number }>('post', '/category', {
    form: { name: unique('Users Category') },
  });
  const poster = await api<{ id: number }>('post', `/poster/only-cat/${category.id}`, {
    multipart: {
      position: 'RIGHT',
      topDefNum: '1',
      selfDefNum: '2',
      bottomDefNum: '3',
      masterAppId: String(app.id),
      file: await pngFile('poster.png', '#5a189a', 600, 900),
    },
  });
  const name = unique('Asha');
  const phone = `9${Date.now() % 1_000_000_000}`.padEnd(10, '0');

  await openSignedIn(page, '/users', { heading: 'Users' });

  // Register.
  await page.getByRole('button', { name: 'New user' }).click();
  const create = page.getByRole('dialog', { name: 'New user' });
  await create.getByRole('textbox', { name: 'Name', exact: true }).fill(name);
  await create.getByRole('textbox', { name: 'Phone number' }).fill(phone);
  await create.getByRole('textbox', { name: 'Designation' }).fill('Shop owner');
  await choose(page, create, 'Master app', app.name);
  await expectNoA11yViolations(page, '[role="dialog"]');
  await create.getByRole('button', { name: 'Create' }).click();
  await expectToast(page, 'User Created Successfully');
  const { id } = await sql.one<{ id: number }>(
    "select id from accounts where role = 'USER' and phone_number = ?",
    [phone],
  );

  // The same number again in this app is refused.
  await page.getByRole('button', { name: 'New user' }).click();
  await create.getByRole('textbox', { name: 'Name', exact: true }).fill('Someone Else');
  await create.getByRole('textbox', { name: 'Phone number' }).fill(phone);
  await choose(page, create, 'Master app', app.name);
  await create.getByRole('button', { name: 'Create' }).click();
  // Said once: on its field when the dialog shows it, else in a toast.
  await expect(
    page.getByText('A user with this phone number already exists in this app').first(),
  ).toBeVisible();
  await cancelDiscarding(page, create);

  // The row opens the user's page.
  await page
    .getByRole('searchbox', { name: 'Search users' })
    .or(page.getByLabel('Search users'))
    .fill(phone);
  await expect(page).toHaveURL(new RegExp(`[?&]q=${phone}`));
  await expect(page.getByRole('table', { name: 'Users' }).getByRole('row')).toHaveCount(2);
  await page.getByRole('link', { name }).click();
  await expect(page).toHaveURL(new RegExp(`/users/${id}$`));
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  await expectNoA11yViolations(page);

  // Top image No. 1, then No. 1 again: the 409's message, and the dialog stays open.
  await page.getByRole('link', { name: 'Top images' }).click();
  await expect(page.getByRole('heading', { name: `Top images of ${name}` })).toBeVisible();
  const top = await uploadImage(page, 'top', '1', '#e85d04');
  await expectToast(page, 'Top image uploaded successfully');
  await expect(top).toBeHidden();
  await expect(page.getByRole('article', { name: 'Top image No. 1' })).toBeVisible();
  await expectNoA11yViolations(page);
  const again = await uploadImage(page, 'top', '1', '#2a9d8f');
  await expect(
    page.getByText('This default number already exists for this user!').first(),
  ).toBeVisible();
  await expect(again).toBeVisible();
  await cancelDiscarding(page, again);
  expect((await sql.all('select id from user_images where account_id = ?', [id])).length).toBe(1);

  // Self image No. 2 (right side) and bottom image No. 3.
  await page.goto(`/self/${id}`);
  await uploadImage(page, 'self', '2', '#ffb703');
  await expectToast(page, 'Self image uploaded successfully');
  await expect(page.getByRole('article', { name: 'Self image No. 2' })).toContainText('Right');
  await page.goto(`/bottom/${id}`);
  await uploadImage(page, 'bottom', '3', '#1d3557');
  await expectToast(page, 'Bottom image uploaded successfully');
  await expect(page.getByRole('article', { name: 'Bottom image No. 3' })).toBeVisible();

  // The user's page: preview the poster as this user gets it, at the poster's own width.
  await page.getByRole('link', { name: `Back to ${name}` }).click();
  await page.getByRole('button', { name: 'Preview a poster' }).click();
  const preview = page.getByRole('dialog', { name: `A poster as ${name} gets it` });
  await preview.getByRole('combobox', { name: 'Poster' }).click();
  await page.getByRole('option', { name: new RegExp(`^#${poster.id} `) }).click();
  const composed = preview.getByRole('img', { name: 'The poster as the user gets it' });
  await expect.poll(() => loadedWidth(composed)).toBe(600);
  await expect(preview.getByText(/has no .* image/)).toHaveCount(0);
});

test('sort users by name, select every matching user and suspend them at once', async ({
  page,
  request,
  sql,
}) => {
  const api = await adminApi(request);
  const app = await createMasterApp(request, unique('Bulk Users App'));
  // Twelve users: one page of ten, and two more that "Select all 12 matching" reaches.
  const names = Array.from({ length: 12 }, (_, i) => `${String.fromCharCode(76 - i)}ee ${i}`);
  const base = 8_000_000_000 + (Date.now() % 100_000_000);
  for (const [i, name] of names.entries()) {
    await api('post', '/auth/user/register', {
      form: { name, phoneNumber: String(base + i), masterAppId: String(app.id) },
    });
  }

  await openSignedIn(page, `/users?masterAppId=${app.id}&limit=10`, { heading: 'Users' });
  const table = page.getByRole('table', { name: 'Users' });
  const firstName = table.getByRole('row').nth(1).getByRole('link');
  await table.getByRole('button', { name: 'User', exact: true }).click();
  await expect(page).toHaveURL(/[?&]sort=name/);
  await expect(firstName).toHaveText('Aee 11');
  await table.getByRole('button', { name: 'User', exact: true }).click();
  await expect(firstName).toHaveText('Lee 0');

  await page.getByRole('checkbox', { name: 'Select every row on this page' }).check();
  const bar = page.getByRole('region', { name: 'Selected rows' });
  await bar.getByRole('button', { name: 'Select all 12 matching' }).click();
  await expect(bar).toContainText('All 12 matching selected');
  await bar.getByRole('button', { name: 'Change status' }).click();
  const dialog = page.getByRole('dialog', { name: 'Status of 12 users' });
  await dialog.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Suspended' }).click();
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Status Updated Successfully');
  await expect(bar).toBeHidden();
  await expect(table.getByRole('button', { name: /: Suspended\. Change$/ })).toHaveCount(10);
  const statuses = await sql.all<{ status: string }>(
    'select status from accounts where master_app_id = ?',
    [app.id],
  );
  expect(statuses.map((r) => r.status)).toEqual(Array(12).fill('SUSPENDED'));
});
