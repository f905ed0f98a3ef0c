/**
 * Staff and permissions, as the owner and a colleague live them: the owner adds a staff member
 * and grants only "Categories: View"; the staff member lands on categories (no dashboard grant),
 * sees no other menu, categories without a New button and "Access Denied!" at banners' address;
 * the owner revokes it and the staff member's screen follows;
 * the owner sets a new password and the staff member's session ends.
 */
import type { Locator, Page } from '@playwright/test';
import {
  baseUrl,
  expect,
  expectToast,
  openArea,
  openSignedIn,
  rowAction,
  signIn,
  submitSignIn,
  test,
  unique,
} from './fixtures.ts';

const PASSWORD = 'staff-password-1';

async function saveGrid(page: Page) {
  await page.getByRole('button', { name: 'Save changes' }).click();
  await expectToast(page, 'Successfully Updated.');
  await expect(page.getByText('No unsaved changes')).toBeVisible();
}

/**
 * Clicks a switch: its input is visually hidden (a forced click), so it is centred first, where
 * neither the sticky header nor the grid's sticky footer covers it.
 */
async function flip(toggle: Locator) {
  await toggle.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await toggle.click({ force: true });
}

test('the owner adds a staff member, grants, revokes and resets the password', async ({
  page,
  browser,
}) => {
  const name = unique('E2E Staff');
  const email = `e2e-staff-${Date.now()}@e2e.test`;

  // The owner creates the staff member.
  await openSignedIn(page, '/staff-details', { heading: 'Staff' });
  await page.getByRole('button', { name: 'New staff member' }).click();
  const dialog = page.getByRole('dialog', { name: 'New staff member' });
  await dialog.getByLabel('Name').fill(name);
  await dialog.getByLabel('Email').fill(email);
  await dialog.getByLabel('Phone number').fill(`+91${String(Date.now()).slice(-10)}`);
  await dialog.getByLabel('Job title').fill('Editor');
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill('short');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expect(dialog.getByText('Must be at least 8 characters')).toBeVisible();
  await dialog.getByRole('textbox', { name: 'Password', exact: true }).fill(PASSWORD);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expectToast(page, 'Staff Created Successfully');
  await expect(dialog).toBeHidden();

  // Its row opens its permissions: only Categories: View.
  await page.getByRole('link', { name }).click();
  await expect(page.getByRole('heading', { name, level: 2 })).toBeVisible();
  const categoryView = page.getByRole('switch', { name: 'Categories: View' });
  await expect(categoryView).not.toBeChecked();
  await flip(categoryView);
  await expect(page.getByText('1 unsaved change')).toBeVisible();
  await saveGrid(page);
  await expect(categoryView).toBeChecked();

  // The staff member signs in elsewhere.
  const staffContext = await browser.newContext({ baseURL: baseUrl() });
  const staff = await staffContext.newPage();
  // No dashboard grant: it lands on the first area it may open, and the side menu lists only
  // what it may open.
  await signIn(staff, email, PASSWORD, 'Categories');
  await expect(staff).toHaveURL(/\/category$/);
  const menu = staff.getByRole('navigation', { name: 'Areas' });
  for (const link of ['Dashboard', 'Banners', 'Staff List', 'Audit Log']) {
    await expect(menu.getByRole('link', { name: link })).toHaveCount(0);
  }
  for (const link of ['Category List', 'Account', 'Login History']) {
    await expect(menu.getByRole('link', { name: link })).toBeVisible();
  }
  await expect(staff.getByRole('table', { name: 'Categories' })).toBeVisible();
  await expect(staff.getByRole('button', { name: 'New category' })).toHaveCount(0);
  // A closed area's address says so.
  await staff.goto('/banner');
  await expect(staff.getByRole('heading', { name: 'Access Denied!', level: 2 })).toBeVisible();
  await staff.goto('/staff-details');
  await expect(staff.getByRole('heading', { name: 'Access Denied!', level: 2 })).toBeVisible();
  await openArea(staff, 'Category List', 'Categories');

  // The owner revokes it, switch by switch this time.
  await flip(page.getByRole('switch', { name: 'Save each change at once' }));
  await flip(categoryView);
  await expectToast(page, 'Status Updated Successfully');
  await expect(categoryView).not.toBeChecked();

  // The staff member's open screen follows within seconds, with no action of theirs (the event
  // stream's `access`), and the menu leaves Categories out.
  await expect(staff.getByRole('heading', { name: 'Access Denied!', level: 2 })).toBeVisible({
    timeout: 5_000,
  });
  await expect(
    staff.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Category List' }),
  ).toHaveCount(0);

  // The owner sets a new password: the staff member's session ends at once.
  await page.getByRole('button', { name: `Actions for ${name}`, exact: true }).click();
  await page.getByRole('menuitem', { name: 'Change password' }).click();
  const passwordDialog = page.getByRole('dialog', { name: `New password for ${name}` });
  await passwordDialog
    .getByRole('textbox', { name: 'New password', exact: true })
    .fill('another-password-2');
  await passwordDialog.getByRole('button', { name: 'Set password' }).click();
  await expectToast(page, 'Login Updated Successfully');

  await staff
    .getByRole('navigation', { name: 'Areas' })
    .getByRole('link', { name: 'Account' })
    .click();
  await expect(staff).toHaveURL(/\/auth\/sign-in$/);
  // Signed in again with the new password, it comes back where it was going.
  await submitSignIn(staff, email, 'another-password-2');
  await expect(staff).toHaveURL(/\/profile$/);
  await expect(staff.getByRole('heading', { name: 'Account', level: 2 })).toBeVisible();
  await staffContext.close();

  // The owner's list shows the staff member; deleting asks first and takes it off the list.
  await openArea(page, 'Staff List', 'Staff');
  const table = page.getByRole('table', { name: 'Staff' });
  await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(1);
  await rowAction(page, name, 'Delete');
  await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Staff deleted successfully');
  await expect(table.getByRole('row').filter({ hasText: name })).toHaveCount(0);
});
