/**
 * Settings (logo per app) and notifications, in Chromium against the real server: real PNG
 * uploads, the thumbnails and full images the server makes from them, the server's refusals (a
 * second settings row for an app, a user that is not the app's) and a staff account without the
 * settings menu.
 */
import type { Locator, Page } from '@playwright/test';
import {
  ADMIN,
  createMasterApp,
  expect,
  expectToast,
  loadedWidth,
  newBackOfficeAccount,
  now,
  openSignedIn,
  pngFile,
  signIn,
  test,
  unique,
  type Sql,
  cancelDiscarding,
} from './fixtures.ts';

const TAKEN = 'This master app already has its settings';

/** Waits until the image has loaded from the server and has pixels. */
async function expectLoaded(img: Locator) {
  await expect(img).toBeVisible();
  await expect.poll(() => loadedWidth(img)).toBeGreaterThan(0);
}

async function chooseApp(page: Page, dialog: Locator, name: string) {
  const select = dialog.getByRole('combobox', { name: 'Master app' });
  await expect(select).toBeEnabled();
  await select.click();
  await select.fill(name);
  await page.getByRole('option', { name, exact: true }).click();
}

test.describe('Settings', () => {
  test('create with a logo, see it, edit the domains, change the logo; one row per app', async ({
    page,
    request,
    sql,
    consoleGuard,
  }) => {
    consoleGuard.allowStatus(409, '/settings/', 'a second settings row for an app, on purpose');
    const app = await createMasterApp(request, unique('E2E Logo App'));
    const logoName = `Logo of ${app.name}`;
    await openSignedIn(page, '/settings', { heading: 'Settings' });

    // The list filtered to this app, in the URL.
    await page.goto(`/settings?masterAppId=${app.id}`);
    const table = page.getByRole('table', { name: 'Settings' });
    await expect(page.getByText('Nothing matches')).toBeVisible();

    await page.getByRole('button', { name: 'New settings' }).click();
    let dialog = page.getByRole('dialog', { name: 'New settings' });
    // The filter's app is already chosen.
    await expect(dialog.getByRole('combobox', { name: 'Master app' })).toHaveValue(app.name);
    await dialog.locator('input[type=file]').setInputFiles(await pngFile('blue.png', '#3366cc'));
    await expect(dialog.getByRole('img', { name: 'Preview of blue.png' })).toBeVisible();
    await dialog.getByLabel('Title').fill('Festival Posters');
    await dialog.getByLabel('User domain').fill('ftp://nope');
    await dialog.getByLabel('Admin domain').fill('admin.example.com');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(
      dialog.getByText('Must be a host name (app.example.com) or an http(s) URL'),
    ).toBeVisible();
    await dialog.getByLabel('User domain').fill('https://posters.example.com');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Logo Created Successfully');
    await expect(dialog).toBeHidden();

    const row = table.getByRole('row').filter({ hasText: 'Festival Posters' });
    await expect(row).toContainText(app.name);
    await expect(row).toContainText('https://posters.example.com');
    await expect(row).toContainText('admin.example.com');
    const thumb = row.getByRole('img', { name: logoName });
    await expectLoaded(thumb);
    const firstSrc = await thumb.getAttribute('src');
    expect(firstSrc).toMatch(/\.thumb\.webp$/);

    // The full image opens from the thumbnail.
    await row.getByRole('button', { name: `Show ${logoName}` }).click();
    const full = page.getByRole('dialog', { name: logoName });
    const fullImage = full.getByRole('img', { name: logoName });
    await expectLoaded(fullImage);
    expect(await fullImage.getAttribute('src')).toBe(firstSrc!.replace('.thumb.webp', '.webp'));
    await page.keyboard.press('Escape');
    await expect(full).toBeHidden();

    // Edit: a new mobile domain, the user domain emptied (cleared), the admin domain kept.
    await row.getByRole('button', { name: `Actions for Settings of ${app.name}` }).click();
    await page.getByRole('menuitem', { name: 'Edit' }).click();
    dialog = page.getByRole('dialog', { name: `Edit settings of ${app.name}` });
    await expect(dialog.getByLabel('Title')).toHaveValue('Festival Posters');
    await expect(dialog.getByLabel('User domain')).toHaveValue('https://posters.example.com');
    await dialog.getByLabel('User domain').fill('');
    await dialog.getByLabel('Mobile domain').fill('m.example.com:8443');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Logo Updated Successfully');
    await expect(dialog).toBeHidden();
    await expect(row).toContainText('m.example.com:8443');
    await expect(row).not.toContainText('posters.example.com');
    const stored = await sql.one<Record<string, unknown>>(
      'select user_domain, admin_domain, mobile_domain from settings where master_app_id = ?',
      [app.id],
    );
    expect(stored).toEqual({
      user_domain: null,
      admin_domain: 'admin.example.com',
      mobile_domain: 'm.example.com:8443',
    });

    // Change the logo: the list shows the new one.
    await row.getByRole('button', { name: `Actions for Settings of ${app.name}` }).click();
    await page.getByRole('menuitem', { name: 'Change logo' }).click();
    dialog = page.getByRole('dialog', { name: `Change logo of ${app.name}` });
    await expectLoaded(dialog.getByRole('img', { name: 'Current logo' }));
    await dialog.locator('input[type=file]').setInputFiles(await pngFile('orange.png', '#ee7722'));
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expectToast(page, 'Logo Updated Successfully');
    await expect(dialog).toBeHidden();
    await expect(thumb).not.toHaveAttribute('src', firstSrc!);
    await expectLoaded(thumb);
    await expect(row).toContainText('admin.example.com');

    // A second settings row for the same app: the server's 409, on the field, the dialog open.
    await page.getByRole('button', { name: 'New settings' }).click();
    dialog = page.getByRole('dialog', { name: 'New settings' });
    await expect(dialog.getByRole('combobox', { name: 'Master app' })).toHaveValue(app.name);
    await dialog.locator('input[type=file]').setInputFiles(await pngFile('green.png', '#22aa55'));
    await dialog.getByLabel('Title').fill('Second');
    await dialog.getByRole('button', { name: 'Create' }).click();
    // Said once, in the dialog (no toast repeats it).
    await expect(dialog.getByText(TAKEN)).toBeVisible();
    await expect(dialog).toBeVisible();
    await cancelDiscarding(page, dialog);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    const count = await sql.one<{ n: number | string }>(
      'select count(*) as n from settings where master_app_id = ?',
      [app.id],
    );
    expect(Number(count.n)).toBe(1);
  });

  test('a staff account without the settings menu sees "Access Denied!"', async ({ page, sql }) => {
    // A STAFF account with no permission rows at all: every menu is denied.
    const { email } = await newBackOfficeAccount(sql, { role: 'STAFF' });
    // No area: it lands on Account, and the side menu leaves Settings out.
    await signIn(page, email, ADMIN.password, 'Account');
    await expect(
      page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Settings' }),
    ).toHaveCount(0);
    // Its address says no, without asking for the list.
    const listCalls: string[] = [];
    page.on('request', (r) => {
      if (r.url().includes('/api/v1/settings/')) listCalls.push(r.url());
    });
    await page.goto('/settings');
    await expect(page.getByRole('heading', { name: 'Access Denied!', level: 2 })).toBeVisible();
    await expect(page.getByRole('table', { name: 'Settings' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'New settings' })).toHaveCount(0);
    expect(listCalls).toEqual([]);
  });
});

/** A USER account of the app (the server has no call that creates one yet). */
async function newUser(sql: Sql, masterAppId: number): Promise<number> {
  const at = now();
  const phone = `9${String(Date.now()).slice(-9)}`;
  const row = await sql.one<{ id: number }>(
    `insert into accounts (role, name, phone_number, status, master_app_id, created_at, updated_at)
     values ('USER', ?, ?, 'ACTIVE', ?, ?, ?) returning id`,
    ['E2E user', phone, masterAppId, at, at],
  );
  return Number(row.id);
}

test.describe('Notifications', () => {
  test('to every user with a logo, to one user, a wrong user id, delete after confirming', async ({
    page,
    request,
    sql,
    consoleGuard,
  }) => {
    consoleGuard.allowStatus(404, '/notifications/single', 'a wrong user id, on purpose');
    const app = await createMasterApp(request, unique('E2E Notify App'));
    const userId = await newUser(sql, app.id);
    const everyone = unique('Diwali sale');
    const one = unique('Your poster');
    await openSignedIn(page, '/notification', { heading: 'Notifications' });

    // The list filtered to this app through the filter itself, kept in the URL.
    await chooseApp(page, page.locator('main'), app.name);
    await expect(page).toHaveURL(new RegExp(`[?&]masterAppId=${app.id}(&|$)`));
    const table = page.getByRole('table', { name: 'Notifications' });
    await expect(page.getByText('Nothing matches')).toBeVisible();

    // To every user, with a logo.
    await page.getByRole('button', { name: 'New notification' }).click();
    let dialog = page.getByRole('dialog', { name: 'New notification' });
    await expect(dialog.getByRole('combobox', { name: 'Master app' })).toHaveValue(app.name);
    await dialog.getByLabel('Title').fill(everyone);
    await dialog.getByLabel('Description').fill('Half price on every festival poster.');
    const type = dialog.getByRole('combobox', { name: 'Type' });
    await type.fill('FEST');
    await page.getByRole('option', { name: 'FESTIVAL' }).click();
    await expect(type).toHaveValue('FESTIVAL');
    await dialog.locator('input[type=file]').setInputFiles(await pngFile('bell.png', '#aa3355'));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Notification Created Successfully');
    await expect(dialog).toBeHidden();
    const first = table.getByRole('row').filter({ hasText: everyone });
    await expect(first).toContainText('All users');
    await expect(first).toContainText('FESTIVAL');
    // To every user: how many read it; none yet.
    await expect(first).toContainText('Read by 0');
    await expectLoaded(first.getByRole('img', { name: /^Logo of notification #\d+$/ }));

    // A wrong user id: the field says so and the dialog stays open.
    await page.getByRole('button', { name: 'New notification' }).click();
    dialog = page.getByRole('dialog', { name: 'New notification' });
    await dialog.getByLabel('Title').fill(one);
    await dialog.getByLabel('Description').fill('Your poster is ready.');
    await dialog.getByRole('combobox', { name: 'Type' }).fill('Poster ready');
    const user = dialog.getByRole('textbox', { name: 'User id' });
    await user.fill('2000000000');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(user).toHaveAttribute('aria-invalid', 'true');
    await expect(dialog.getByText('User not found')).toBeVisible();
    await expect(dialog).toBeVisible();

    // The app's user: created, sent to that user only.
    await user.fill(String(userId));
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Notification Created Successfully');
    await expect(dialog).toBeHidden();
    const second = table.getByRole('row').filter({ hasText: one });
    await expect(second).toContainText(`User #${userId}`);
    await expect(second).toContainText('Poster ready');
    await expect(second.getByLabel('No logo')).toBeVisible();
    await expect(second).toContainText('Unread');
    await expect(table.locator('tbody tr')).toHaveCount(2);

    // Search by description.
    await page.getByRole('textbox', { name: 'Search notifications' }).fill('poster is ready');
    await expect(page).toHaveURL(/[?&]q=poster(\+|%20)is(\+|%20)ready(&|$)/);
    await expect(table.locator('tbody tr')).toHaveCount(1);
    await expect(second).toBeVisible();
    await page.getByRole('button', { name: 'Clear search' }).click();
    await expect(table.locator('tbody tr')).toHaveCount(2);

    // Delete asks first; Cancel keeps it.
    await first.getByRole('button', { name: /^Actions for Notification #\d+$/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    let confirm = page.getByRole('dialog', { name: 'Delete this notification?' });
    await expect(confirm).toContainText(everyone);
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();
    await expect(first).toBeVisible();

    await first.getByRole('button', { name: /^Actions for Notification #\d+$/ }).click();
    await page.getByRole('menuitem', { name: 'Delete' }).click();
    confirm = page.getByRole('dialog', { name: 'Delete this notification?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'notification deleted successfully');
    await expect(first).toHaveCount(0);
    await expect(second).toBeVisible();
    const left = await sql.all<{ title: string; account_id: number | null }>(
      'select title, account_id from notifications where master_app_id = ? order by id',
      [app.id],
    );
    expect(left.map((r) => ({ ...r, account_id: Number(r.account_id) }))).toEqual([
      { title: one, account_id: userId },
    ]);
  });
});
