/**
 * Signing in and out, the shell's side menu, deep links while signed out, and changing one's own
 * password on the Account screen.
 */
import {
  ADMIN,
  expect,
  newBackOfficeAccount,
  signIn,
  signOut,
  submitSignIn,
  test,
  expectToast,
  signInError,
  watchApi,
} from './fixtures.ts';

/** The side menu's links: the spec's order (Dashboard … Account), then the "More" areas. */
const MAIN_LINKS = [
  'Dashboard',
  'Master Apps',
  'Staff List',
  'Banners',
  'Users List',
  'Notification',
  'Category List',
  'Posters',
  'Videos',
  'Pages',
  'Settings',
  'Account',
];
const MORE_LINKS = [
  'Blogs',
  'FAQs',
  'Special Days',
  'Contact Us',
  'Menus',
  'Trash',
  'Audit Log',
  'Login History',
];

const token = (page: import('@playwright/test').Page) =>
  page.evaluate(() => localStorage.getItem('ACCESS_TOKEN'));

test.describe('sign-in', () => {
  test('a wrong password shows the error and stays on the sign-in screen', async ({
    page,
    consoleGuard,
  }) => {
    consoleGuard.allowStatus(401, '/auth/admin/login', 'the wrong password is the point');
    await page.goto('/auth/sign-in');
    await submitSignIn(page, ADMIN.email, 'not-the-password');

    await expect(signInError(page)).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/auth\/sign-in$/);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeEnabled();
    expect(await token(page)).toBeNull();
  });

  test('the admin lands on the dashboard with the side menu in order and the login id', async ({
    page,
  }) => {
    await signIn(page);

    const menu = page.getByRole('navigation', { name: 'Areas' });
    await expect(menu.getByRole('link')).toHaveText([...MAIN_LINKS, ...MORE_LINKS]);
    // Logout sits right after Account, before the "More" areas.
    await expect(menu.locator('a, button')).toHaveText([...MAIN_LINKS, 'Logout', ...MORE_LINKS]);
    await expect(menu.getByRole('link', { name: 'Dashboard' })).toHaveAttribute(
      'aria-current',
      'page',
    );

    await expect(page.getByTestId('login-id')).toHaveText(ADMIN.email);
    await expect(page.getByTestId('header-login-id')).toHaveText(ADMIN.email);
  });

  test('a deep link while signed out returns to that exact place after signing in', async ({
    page,
    baseURL,
  }) => {
    const deepLink = '/masterApp?q=deep%20link&limit=20';
    await page.goto(deepLink);
    await expect(page).toHaveURL(/\/auth\/sign-in$/);

    await submitSignIn(page, ADMIN.email, ADMIN.password);

    await expect(page).toHaveURL(`${baseURL}${deepLink}`);
    await expect(page.getByRole('heading', { name: 'Master Apps', level: 2 })).toBeVisible();
    await expect(page.getByRole('textbox', { name: 'Search apps' })).toHaveValue('deep link');
  });

  test('the Account screen, opened signed out, is shown after signing in', async ({ page }) => {
    await page.goto('/profile');
    await expect(page).toHaveURL(/\/auth\/sign-in$/);

    await submitSignIn(page, ADMIN.email, ADMIN.password);

    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'Account', level: 2 })).toBeVisible();
  });
});

test.describe('sign-out', () => {
  test('logout returns to sign-in, ends the session, and protected pages need sign-in again', async ({
    page,
    request,
  }) => {
    const calls = watchApi(page);
    await signIn(page);
    const before = await token(page);
    expect(before).toBeTruthy();
    // Signing out cuts the dashboard's requests under way (lib/api.ts); one answered in the very
    // moment of the cut can still log a 401, so this test signs out of a settled screen.
    await calls.settled();

    await signOut(page);
    await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    expect(await token(page)).toBeNull();

    // The server no longer accepts the old token.
    const res = await request.get('/api/v1/account/admin-detail', {
      headers: { authorization: `Bearer ${before}` },
    });
    expect(res.status()).toBe(401);

    for (const where of ['/', '/masterApp', '/profile']) {
      await page.goto(where);
      await expect(page).toHaveURL(/\/auth\/sign-in$/);
      await expect(page.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
    }
  });
});

test.describe('Account', () => {
  test('a wrong current password is refused; a changed password works and the old one no longer does', async ({
    page,
    sql,
    browser,
    baseURL,
    consoleGuard,
  }) => {
    consoleGuard.allowStatus(409, '/auth/admin/pass-reset', 'a wrong current password, on purpose');
    consoleGuard.allowStatus(401, '/auth/admin/login', 'signing in with the old password');
    const account = await newBackOfficeAccount(sql);
    const newPassword = 'a-brand-new-password-2';

    // The same account signed in elsewhere: that session ends when the password changes.
    const elsewhere = await browser.newContext({ baseURL });
    const other = await elsewhere.newPage();
    await signIn(other, account.email, account.password);

    await signIn(page, account.email, account.password);
    await page
      .getByRole('navigation', { name: 'Areas' })
      .getByRole('link', { name: 'Account' })
      .click();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('heading', { name: 'Account', level: 2 })).toBeVisible();
    await expect(page.getByRole('row', { name: `Email ${account.email}` })).toBeVisible();

    const current = page.getByLabel('Current password', { exact: true });
    const next = page.getByLabel('New password', { exact: true });
    const repeat = page.getByLabel('Repeat the new password', { exact: true });
    const change = page.getByRole('button', { name: 'Change password' });

    await current.fill('not-my-password');
    await next.fill(newPassword);
    await repeat.fill(newPassword);
    await change.click();
    // The refusal sits under the field it names (and only there: one message per failure).
    await expect(current).toHaveAccessibleDescription('old password not matched!!');
    // Refused: the current password below is still the one that works.

    await current.fill(account.password);
    await next.fill(newPassword);
    await repeat.fill(newPassword);
    await change.click();
    await expectToast(page, 'Password reset successfully');
    await expect(current).toHaveValue('');
    // This session goes on…
    await page.reload();
    await expect(page).toHaveURL(/\/profile$/);
    await expect(page.getByRole('row', { name: `Email ${account.email}` })).toBeVisible();
    // …the other one does not: its event stream, or else its next request, sends it to sign-in
    // (the stream may have done so already: then the address below is asked for signed out).
    await other.goto('/masterApp');
    await expect(other).toHaveURL(/\/auth\/sign-in$/);
    // Signing in there again (with the new password) goes back to where it was going.
    await submitSignIn(other, account.email, newPassword);
    await expect(other).toHaveURL(/\/masterApp$/);
    await expect(other.getByRole('heading', { name: 'Master Apps', level: 2 })).toBeVisible();
    await elsewhere.close();

    await signOut(page);
    await submitSignIn(page, account.email, account.password);
    await expect(signInError(page)).toHaveText('Invalid email or password');
    await expect(page).toHaveURL(/\/auth\/sign-in$/);

    await page.getByLabel('Password', { exact: true }).fill(newPassword);
    await page.getByRole('button', { name: 'Sign in', exact: true }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(page.getByTestId('login-id')).toHaveText(account.email);
  });

  test('the new password must be repeated the same', async ({ page, sql }) => {
    const account = await newBackOfficeAccount(sql);
    await signIn(page, account.email, account.password);
    await page.goto('/profile');

    await page.getByLabel('Current password', { exact: true }).fill(account.password);
    await page.getByLabel('New password', { exact: true }).fill('first-new-password');
    await page.getByLabel('Repeat the new password', { exact: true }).fill('second-new-password');
    await page.getByRole('button', { name: 'Change password' }).click();

    await expect(page.getByText('The two new passwords differ')).toBeVisible();
    // Nothing was sent: the password is unchanged.
    await signOut(page);
    await signIn(page, account.email, account.password);
  });
});
