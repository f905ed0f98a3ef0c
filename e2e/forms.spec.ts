/**
 * The one form dialog, as a user leaves it: a form holding unsaved changes asks before each way
 * out (Esc, a click outside, the close and Cancel buttons, a link, Back, closing the tab); a
 * double submit sends one request; a text past its limit is kept whole and the limit is said.
 */
import type { Page } from '@playwright/test';
import { expect, openArea, openSignedIn, test, unique } from './fixtures.ts';

function discardQuestion(page: Page) {
  return page.getByRole('dialog', { name: 'Discard changes?' });
}

async function keepEditing(page: Page) {
  await discardQuestion(page).getByRole('button', { name: 'Keep editing' }).click();
  await expect(discardQuestion(page)).toBeHidden();
}

test('a dirty form asks before each way out; a clean one closes at once', async ({ page }) => {
  await openSignedIn(page, '/faqs', { heading: 'FAQs' });
  await openArea(page, 'Categories');
  const dialog = page.getByRole('dialog', { name: 'New category' });
  const name = dialog.getByRole('textbox', { name: 'Name' });

  // Clean: Esc closes at once.
  await page.getByRole('button', { name: 'New category' }).click();
  await expect(name).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();

  await page.getByRole('button', { name: 'New category' }).click();
  await name.fill('Typed and not saved');
  const leave = {
    Esc: () => page.keyboard.press('Escape'),
    'a click outside': () => page.mouse.click(8, 450),
    'the close button': () => dialog.getByRole('button', { name: 'Close dialog' }).click(),
    Cancel: () => dialog.getByRole('button', { name: 'Cancel' }).click(),
    // The side menu's link, behind the dialog's overlay (a link inside a form does the same).
    'a link': () => page.locator('nav a[href="/faqs"]').dispatchEvent('click'),
    Back: () => page.evaluate('history.back()'),
  };
  for (const [way, act] of Object.entries(leave)) {
    await test.step(way, async () => {
      await act();
      await expect(discardQuestion(page)).toBeVisible();
      await keepEditing(page);
      await expect(name).toHaveValue('Typed and not saved');
      await expect(page).toHaveURL(/\/category$/);
    });
  }

  // Discard on Back leaves for the screen before.
  await page.evaluate('history.back()');
  await discardQuestion(page).getByRole('button', { name: 'Discard' }).click();
  await expect(page).toHaveURL(/\/faqs$/);
  await expect(page.getByRole('heading', { name: 'FAQs', level: 2 })).toBeVisible();

  // Closing the tab: the browser's own question.
  await openArea(page, 'Categories');
  await page.getByRole('button', { name: 'New category' }).click();
  await name.fill('Typed and not saved');
  const asked = new Promise<string>((resolve) =>
    page.once('dialog', (d) => {
      resolve(d.type());
      void d.dismiss();
    }),
  );
  await page.close({ runBeforeUnload: true });
  expect(await asked).toBe('beforeunload');
});

test('a long panel stays open on an outside click', async ({ page }) => {
  await openSignedIn(page, '/notification', { heading: 'Notifications' });
  await page.getByRole('button', { name: 'New notification' }).click();
  const panel = page.getByRole('dialog', { name: 'New notification' });
  await expect(panel.getByRole('button', { name: 'Create' })).toBeVisible();
  await page.mouse.click(8, 450);
  await expect(panel).toBeVisible();
  await expect(discardQuestion(page)).toHaveCount(0);
});

test('a double submit sends one request; a 300-character name is kept and refused', async ({
  page,
  sql,
}) => {
  await openSignedIn(page, '/category', { heading: 'Categories' });
  let posts = 0;
  // A slow answer leaves time for the second Enter and click while saving.
  await page.route('**/api/v1/category', async (route) => {
    if (route.request().method() === 'POST') {
      posts++;
      await new Promise((r) => setTimeout(r, 700));
    }
    await route.continue();
  });

  await page.getByRole('button', { name: 'New category' }).click();
  const dialog = page.getByRole('dialog', { name: 'New category' });
  const name = dialog.getByRole('textbox', { name: 'Name' });
  const long = 'x'.repeat(300);
  await name.fill(long);
  await expect(name).toHaveValue(long);
  await expect(dialog.getByText('300 / 100')).toBeVisible();
  await expect(dialog.getByText('Must be at most 100 characters')).toBeVisible();
  await dialog.getByRole('button', { name: 'Create' }).click();
  expect(posts).toBe(0);

  const fresh = unique('E2E Once');
  await name.fill(fresh);
  await expect(dialog.getByText(`${fresh.length} / 100`)).toBeVisible();
  await name.press('Enter');
  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Create' }).click({ force: true });
  await expect(dialog).toBeHidden();
  expect(posts).toBe(1);
  const rows = await sql.all('select id from categories where name = ?', [fresh]);
  expect(rows).toHaveLength(1);
});
