/**
 * FAQs, categories, special days and contact us: every dialog against the real server, the
 * server's messages (409s included), and an enquiry sent through the public form's call.
 */
import type { Locator, Page } from '@playwright/test';
import {
  adminApi,
  changeStatusFromMenu,
  createPoster,
  expect,
  expectToast,
  listRange,
  openArea,
  openSignedIn,
  rowAction,
  test,
  unique,
} from './fixtures.ts';

// Each test walks through every dialog of an area: more steps than the default minute allows on
// a busy machine.
test.describe.configure({ timeout: 120_000 });

function table(page: Page, name: string) {
  return page.getByRole('table', { name });
}

function rowOf(page: Page, tableName: string, text: string): Locator {
  return table(page, tableName).locator('tbody tr').filter({ hasText: text });
}

async function search(page: Page, box: string, text: string) {
  await page.getByRole('textbox', { name: box }).fill(text);
  await expect(page).toHaveURL(
    new RegExp(`[?&]q=${encodeURIComponent(text).replace(/%20/g, '\\+')}(&|$)`),
  );
}

test.describe('FAQs', () => {
  test('create, edit and delete a FAQ', async ({ page }) => {
    const question = unique('E2E How do I share a poster?');
    const edited = unique('E2E How do I download a poster?');
    await openSignedIn(page, '/faqs', { heading: 'FAQs' });

    await page.getByRole('button', { name: 'New FAQ' }).click();
    const dialog = page.getByRole('dialog', { name: 'New FAQ' });
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('Required')).toHaveCount(2);
    await dialog.getByLabel('Question').fill(question);
    await dialog.getByLabel('Answer').fill('Open it.\nThen tap Share.');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Faq Created Successfully');
    await expect(dialog).toBeHidden();
    await expect(table(page, 'FAQs').locator('tbody tr').first()).toContainText(question);

    await search(page, 'Search FAQs', question);
    await expect(table(page, 'FAQs').locator('tbody tr')).toHaveCount(1);
    await rowAction(page, question, 'Edit');
    const edit = page.getByRole('dialog', { name: 'Edit FAQ' });
    await expect(edit.getByLabel('Question')).toHaveValue(question);
    await expect(edit.getByLabel('Answer')).toHaveValue('Open it.\nThen tap Share.');
    await edit.getByLabel('Question').fill(edited);
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Faq Updated Successfully');
    await expect(edit).toBeHidden();

    await search(page, 'Search FAQs', edited);
    await expect(rowOf(page, 'FAQs', edited)).toContainText('Then tap Share.');
    await rowAction(page, edited, 'Delete');
    const confirm = page.getByRole('dialog', { name: 'Delete this FAQ?' });
    await confirm.getByRole('button', { name: 'Delete' }).click();
    await expectToast(page, 'Faq Deleted Successfully');
    await expect(page.getByText('Nothing matches')).toBeVisible();
    await page.reload();
    await expect(page.getByText('Nothing matches')).toBeVisible();
  });
});

test.describe('categories', () => {
  async function createCategory(page: Page, name: string) {
    await page.getByRole('button', { name: 'New category' }).click();
    const dialog = page.getByRole('dialog', { name: 'New category' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Category Created Successfully');
    await expect(dialog).toBeHidden();
  }

  test('create, rename (a taken name is refused), change the status, delete', async ({
    page,
    consoleGuard,
  }) => {
    consoleGuard.allowStatus(409, '/category/', 'a taken name, refused on purpose');
    const name = unique('E2E Festivals');
    const other = unique('E2E Birthdays');
    const renamed = unique('E2E Festivals renamed');
    await openSignedIn(page, '/category', { heading: 'Categories' });

    await createCategory(page, name);
    await createCategory(page, other);
    const row = rowOf(page, 'Categories', name);
    await expect(row).toContainText('Active');
    await expect(row).toContainText('0');

    await rowAction(page, name, 'Rename');
    const rename = page.getByRole('dialog', { name: `Rename ${name}` });
    await expect(rename.getByLabel('Name')).toHaveValue(name);
    await rename.getByLabel('Name').fill(other.toUpperCase());
    await rename.getByRole('button', { name: 'Save' }).click();
    // The refusal sits under the field (no toast repeats it), the dialog open.
    await expect(rename.getByLabel('Name')).toHaveAttribute('aria-invalid', 'true');
    await expect(rename.getByText('A category with this name already exists')).toBeVisible();
    await rename.getByLabel('Name').fill(renamed);
    await rename.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Category Updated Successfully');
    await expect(rename).toBeHidden();
    await expect(rowOf(page, 'Categories', renamed)).toBeVisible();

    await rowAction(page, renamed, 'Change status');
    const status = page.getByRole('dialog', { name: `Status of ${renamed}` });
    await expect(status.getByRole('combobox', { name: 'Status' })).toHaveValue('Active');
    await status.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Deactivated' }).click();
    await status.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Status Updated Successfully');
    await expect(rowOf(page, 'Categories', renamed)).toContainText('Deactivated');

    // The status filter (labels shown, codes sent) lives in the URL and reaches the server.
    await page.getByRole('combobox', { name: 'Status' }).click();
    await page.getByRole('option', { name: 'Deactivated' }).click();
    await expect(page).toHaveURL(/[?&]status=DEACTIVE(&|$)/);
    await expect(rowOf(page, 'Categories', renamed)).toBeVisible();
    await expect(rowOf(page, 'Categories', other)).toHaveCount(0);

    await rowAction(page, renamed, 'Delete');
    await page
      .getByRole('dialog', { name: 'Delete this category?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expectToast(page, 'Category deleted successfully');
    await expect(rowOf(page, 'Categories', renamed)).toHaveCount(0);
  });

  test('a category posters use cannot be deleted: the server’s 409 message', async ({
    page,
    sql,
    consoleGuard,
  }) => {
    consoleGuard.allowStatus(409, '/category/remove/', 'deleting a category in use, on purpose');
    const name = unique('E2E In use');
    await openSignedIn(page, '/category', { heading: 'Categories' });
    await createCategory(page, name);
    const { id } = await sql.one<{ id: number }>('select id from categories where name = ?', [
      name,
    ]);
    // A poster of it, in an app of its own.
    const api = await adminApi(page.request);
    const app = await api('post', '/master-app', { form: { name: unique('E2E Poster app') } });
    await createPoster(api, { masterAppId: app.id, categoryId: id });

    await rowAction(page, name, 'Delete');
    await page
      .getByRole('dialog', { name: 'Delete this category?' })
      .getByRole('button', { name: 'Delete' })
      .click();
    await expectToast(page, 'This category still has posters: move or delete them first');
    await page.reload();
    await expect(rowOf(page, 'Categories', name)).toBeVisible();
  });

  test.describe('on a phone', () => {
    test.use({ viewport: { width: 390, height: 844 } });

    test('rows are cards whose actions menu and status menu work', async ({ page, request }) => {
      const name = unique('E2E Phone');
      const renamed = `${name} renamed`;
      const api = await adminApi(request);
      await api('post', '/category', { form: { name } });
      await openSignedIn(page, '/faqs', { heading: 'FAQs' });
      // The side menu hides behind the burger.
      await page.getByRole('button', { name: 'Open menu' }).click();
      await openArea(page, 'Category List', 'Categories');
      await search(page, 'Search categories', name);

      const cards = page.getByRole('list', { name: 'Categories' });
      await expect(cards.getByRole('listitem')).toHaveCount(1);
      await expect(page.getByRole('table', { name: 'Categories' })).toHaveCount(0);
      const card = cards.getByRole('listitem').filter({ hasText: name });
      await expect(card).toContainText('Downloads');

      // The card's actions menu: Rename.
      await rowAction(card, name, 'Rename');
      const rename = page.getByRole('dialog', { name: `Rename ${name}` });
      await rename.getByLabel('Name').fill(renamed);
      await rename.getByRole('button', { name: 'Save' }).click();
      await expectToast(page, 'Category Updated Successfully');
      await expect(rename).toBeHidden();
      await expect(card).toContainText(renamed);

      // The status menu in the card.
      await changeStatusFromMenu(page, renamed, 'Active', 'Suspended');

      // No headings to press: the sort is a select.
      await page.getByRole('combobox', { name: 'Sort by' }).selectOption('Name, descending');
      await expect(page).toHaveURL(/[?&]sort=-name(&|$)/);
      await expect(card).toBeVisible();
    });
  });
});

test.describe('special days', () => {
  test('create (30 February refused), edit, status, and set the year', async ({ page, sql }) => {
    const name = unique('E2E Leap day');
    const renamed = unique('E2E Leap day renamed');
    const other = unique('E2E Harvest');
    await openSignedIn(page, '/special-day', { heading: 'Special Days' });

    await page.getByRole('button', { name: 'New special day' }).click();
    const dialog = page.getByRole('dialog', { name: 'New special day' });
    await dialog.getByLabel('Name').fill(name);
    await dialog.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: 'February' }).click();
    await dialog.getByRole('textbox', { name: 'Day' }).fill('30');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expect(dialog.getByText('February has days 1 to 29')).toBeVisible();
    expect(await sql.all('select id from special_days where name = ?', [name])).toHaveLength(0);
    await dialog.getByRole('textbox', { name: 'Day' }).fill('29');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Special Day Created Successfully');
    await expect(dialog).toBeHidden();

    await page.getByRole('button', { name: 'New special day' }).click();
    await dialog.getByLabel('Name').fill(other);
    await dialog.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: 'January' }).click();
    await dialog.getByRole('textbox', { name: 'Day' }).fill('14');
    await dialog.getByRole('button', { name: 'Create' }).click();
    await expectToast(page, 'Special Day Created Successfully');

    await search(page, 'Search special days', 'E2E');
    // Calendar order: 14 January before 29 February, whatever was created first.
    const names = table(page, 'Special days').locator('tbody tr');
    await expect(names.filter({ hasText: other })).toContainText('14 Jan');
    await expect(names.filter({ hasText: name })).toContainText('29 Feb');
    const texts = await names.allTextContents();
    expect(texts.findIndex((t) => t.includes(other))).toBeLessThan(
      texts.findIndex((t) => t.includes(name)),
    );

    await rowAction(page, name, 'Edit');
    const edit = page.getByRole('dialog', { name: `Edit ${name}` });
    await expect(edit.getByRole('combobox', { name: 'Month' })).toHaveValue('February');
    await expect(edit.getByRole('textbox', { name: 'Day' })).toHaveValue('29');
    await edit.getByLabel('Name').fill(renamed);
    await edit.getByRole('combobox', { name: 'Month' }).click();
    await page.getByRole('option', { name: 'March' }).click();
    await edit.getByRole('textbox', { name: 'Day' }).fill('1');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Special Day Updated Successfully');
    await expect(edit).toBeHidden();
    await expect(rowOf(page, 'Special days', renamed)).toContainText('1 Mar');

    await changeStatusFromMenu(page, renamed, 'Active', 'Deactivated');

    await page.getByRole('button', { name: 'Set year' }).click();
    const year = page.getByRole('dialog', { name: 'Set the year of every special day' });
    await year.getByRole('textbox', { name: 'Year' }).fill('2101');
    await year.getByRole('button', { name: 'Set year' }).click();
    await expect(year.getByText('Must be at most 2100')).toBeVisible();
    await year.getByRole('textbox', { name: 'Year' }).fill('2031');
    await year.getByRole('button', { name: 'Set year' }).click();
    await expectToast(page, 'Years Updated Successfully');
    await expect(year).toBeHidden();
    await expect(rowOf(page, 'Special days', renamed)).toContainText('1 Mar 2031');
    await expect(rowOf(page, 'Special days', other)).toContainText('14 Jan 2031');
  });
});

test.describe('contact us', () => {
  test('an enquiry sent through the public call shows in the list and is found by search', async ({
    page,
  }) => {
    const token = unique('zx').replace(' ', '');
    const query = `Posters for ${token} do not download.\nPlease help.`;
    // The content app's form: no token, a form-encoded body.
    const res = await page.request.post('/api/v1/public/contact-us', {
      form: {
        fName: 'Asha',
        lName: `Rao${token}`,
        email: `${token}@example.com`,
        phoneNumber: '+919876543210',
        query,
      },
    });
    expect(res.status()).toBe(200);
    expect(((await res.json()) as { message: string }).message).toBe(
      'Thank you, we will get back to you',
    );
    const json = await page.request.post('/api/v1/public/contact-us', {
      data: {
        fName: 'Ravi',
        lName: 'Kumar',
        email: 'ravi@example.com',
        phoneNumber: '9876543210',
        query: 'Another question',
      },
    });
    expect(json.status()).toBe(200);

    await openSignedIn(page, '/contact-us', { heading: 'Contact Us' });
    const row = rowOf(page, 'Enquiries', `Asha Rao${token}`);
    await expect(row).toBeVisible();
    await expect(row.getByRole('link', { name: `${token}@example.com` })).toHaveAttribute(
      'href',
      `mailto:${token}@example.com`,
    );
    await expect(row).toContainText('+919876543210');

    await search(page, 'Search enquiries', token);
    await expect(table(page, 'Enquiries').locator('tbody tr')).toHaveCount(1);
    await expect(listRange(page)).toHaveText('1–1 of 1');

    await page.getByRole('button', { name: `Read the query from Asha Rao${token}` }).click();
    const dialog = page.getByRole('dialog', { name: `Query from Asha Rao${token}` });
    await expect(dialog).toContainText('Please help.');
    await dialog.getByRole('button', { name: 'Close', exact: true }).click();
    await expect(dialog).toBeHidden();
  });
});
