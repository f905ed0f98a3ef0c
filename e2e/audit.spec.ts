/**
 * The audit log: a change made in the UI shows in the Audit Log screen (with its fields old →
 * new) and in the row's History.
 */
import {
  expect,
  expectNoA11yViolations,
  expectToast,
  openArea,
  openSignedIn,
  rowAction,
  test,
  unique,
} from './fixtures.ts';

test('a FAQ edited in the UI shows in the audit log and in its History', async ({ page }) => {
  const question = unique('E2E Audited question?');
  const edited = unique('E2E Audited question, edited?');
  await openSignedIn(page, '/faqs', { heading: 'FAQs' });
  await page.getByRole('button', { name: 'New FAQ' }).click();
  const dialog = page.getByRole('dialog', { name: 'New FAQ' });
  await dialog.getByLabel('Question').fill(question);
  await dialog.getByLabel('Answer').fill('An answer.');
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expectToast(page, 'Faq Created Successfully');
  await rowAction(page, question, 'Edit');
  const edit = page.getByRole('dialog', { name: 'Edit FAQ' });
  await edit.getByLabel('Question').fill(edited);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Faq Updated Successfully');

  // The row's History: the edit, then the create, each with its fields.
  await rowAction(page, edited, 'History');
  const drawer = page.getByRole('dialog', { name: `History of ${edited}` });
  await expect(drawer.getByText('Updated', { exact: true })).toBeVisible();
  await expect(drawer.getByText('Created', { exact: true })).toBeVisible();
  await expect(drawer.getByRole('cell', { name: question, exact: true }).first()).toBeVisible();
  await expect(drawer.getByRole('cell', { name: edited, exact: true }).first()).toBeVisible();
  await expectNoA11yViolations(page);
  await page.keyboard.press('Escape');
  await expect(drawer).toBeHidden();

  // The audit log, filtered to FAQs: the newest entry is that edit, by the admin.
  await openArea(page, 'Audit Log', 'Audit log');
  await page.getByRole('combobox', { name: 'Area' }).click();
  await page.getByRole('option', { name: 'FAQs', exact: true }).click();
  await expect(page).toHaveURL(/[?&]area=faqs(&|$)/);
  const first = page.getByRole('table', { name: 'Audit log' }).locator('tbody tr').first();
  await expect(first).toContainText('Updated');
  await expect(first).toContainText('admin@');
  await first.getByRole('button', { name: '1 field' }).click();
  await expect(first.getByRole('cell', { name: edited, exact: true })).toBeVisible();
  await expect(first.getByRole('cell', { name: question, exact: true })).toBeVisible();
});
