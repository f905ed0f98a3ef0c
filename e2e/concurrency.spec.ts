/**
 * Several staff at once (issue 23): two staff members, each in a browser context of their own,
 * work on the same rows. Asha is the test's own page (its console is guarded); Ravi is a second
 * context opened by `staffPage`. Shared setup (the two accounts) is made once in beforeAll; the
 * flows: no silent overwrite, drafts, and live lists with presence.
 */
import { randomBytes } from 'node:crypto';
import type { Browser, Page } from '@playwright/test';
import { PATHS } from '@master-admin/contract';
import {
  adminApi,
  baseUrl,
  expect,
  expectToast,
  newBackOfficeAccount,
  openSignedIn,
  rowAction,
  test,
  type Sql,
} from './fixtures.ts';

type Staff = { email: string; password: string; name: string };

/** A STAFF account named `name` that may view, create and change the content areas used here. */
async function staffMember(sql: Sql, name: string): Promise<Staff> {
  const kinds = ['VIEW', 'CREATE', 'UPDATE'];
  const account = await newBackOfficeAccount(sql, {
    role: 'STAFF',
    grants: { faqs: kinds, blogs: kinds, category: kinds },
  });
  await sql.all('update accounts set name = ? where email = ?', [name, account.email]);
  return { ...account, name };
}

/** A second staff member's page: a browser context of its own, signed in as `who`, at `path`. */
async function staffPage(browser: Browser, who: Staff, path: string, heading: string) {
  const context = await browser.newContext({
    baseURL: baseUrl(),
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
    reducedMotion: 'reduce',
  });
  const page = await context.newPage();
  await openSignedIn(page, path, { heading, as: who });
  return page;
}

const suffix = randomBytes(3).toString('hex');
let asha: Staff;
let ravi: Staff;

test.beforeAll(async ({ sql }) => {
  asha = await staffMember(sql, `Asha ${suffix}`);
  ravi = await staffMember(sql, `Ravi ${suffix}`);
});

test.describe('no silent overwrite', () => {
  test('two staff edit one FAQ: the later save shows the conflict and saves the merge', async ({
    page,
    browser,
    consoleGuard,
  }) => {
    const api = await adminApi(page.request);
    const question = `E2E Can I pay by card ${suffix}?`;
    const { id } = await api('post', PATHS.faqCreate, {
      form: { question, answer: 'Yes.' },
    });
    consoleGuard.allowStatus(409, PATHS.faqUpdate(id), 'the conflict this test makes');
    const path = `/faqs?q=${encodeURIComponent(question)}`;

    // Both open the same FAQ.
    await openSignedIn(page, path, { heading: 'FAQs', as: asha });
    const other = await staffPage(browser, ravi, path, 'FAQs');
    const edit = async (p: Page) => {
      await rowAction(p, question, 'Edit');
      return p.getByRole('dialog', { name: 'Edit FAQ' });
    };
    const mine = await edit(page);
    const theirs = await edit(other);

    // Asha saves first.
    await mine.getByLabel('Question').fill(`E2E Can I pay by UPI ${suffix}?`);
    await mine.getByLabel('Answer').fill('Yes, by UPI.');
    await mine.getByRole('button', { name: 'Save' }).click();
    await expectToast(page, 'Faq Updated Successfully');

    // Ravi, still on the FAQ as he opened it, saves: nothing is overwritten.
    await theirs.getByLabel('Question').fill(`E2E Can I pay in cash ${suffix}?`);
    await theirs.getByLabel('Answer').fill('Yes, in cash at the counter.');
    await theirs.getByRole('button', { name: 'Save' }).click();
    const panel = theirs.getByRole('region', {
      name: new RegExp(`^Changed by ${asha.name} .* while you were editing$`),
    });
    await expect(panel).toBeVisible();
    await expect(theirs.getByRole('textbox', { name: 'Answer' })).toHaveValue(
      'Yes, in cash at the counter.',
    );
    const q = panel.getByRole('radiogroup', { name: 'Question' });
    await expect(q).toContainText(`E2E Can I pay by UPI ${suffix}?`);
    await q.getByRole('radio', { name: `Take theirs (${asha.name})` }).check();
    const a = panel.getByRole('radiogroup', { name: 'Answer' });
    await expect(a.getByRole('radio', { name: 'Keep mine' })).toBeChecked();
    await theirs.getByRole('button', { name: 'Save merged' }).click();
    await expectToast(other, 'Faq Updated Successfully');
    await expect(theirs).toBeHidden();

    // The list shows the merged row: her question, his answer.
    const row = other.getByRole('table', { name: 'FAQs' }).locator('tbody tr');
    await other.goto(`/faqs?q=${encodeURIComponent(`E2E Can I pay by UPI ${suffix}?`)}`);
    await expect(row).toHaveCount(1);
    await expect(row).toContainText('Yes, in cash at the counter.');
    await other.context().close();
  });
});

test.describe('drafts', () => {
  test('a blog being written is offered back after a reload, and restored', async ({ page }) => {
    const title = `E2E Draft ${suffix}`;
    await openSignedIn(page, '/blogs', { heading: 'Blogs', as: asha });
    await page.getByRole('button', { name: 'New blog' }).click();
    const dialog = page.getByRole('dialog', { name: 'New blog' });
    await dialog.getByLabel('Title').fill(title);
    await dialog.getByLabel('Author').fill('Asha');
    // Kept once typing pauses.
    await expect
      .poll(() =>
        page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:'))),
      )
      .toHaveLength(1);

    // The page goes (the browser asks first: unsaved changes) and comes back.
    page.on('dialog', (d) => void d.accept());
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Blogs', level: 2 })).toBeVisible();
    await page.getByRole('button', { name: 'New blog' }).click();
    const notice = dialog.getByRole('region', { name: 'Unsaved draft' });
    await expect(notice).toContainText('You have unsaved changes from');
    await expect(notice).toContainText('Files are not kept in drafts.');
    await expect(dialog.getByLabel('Title')).toHaveValue('');
    await notice.getByRole('button', { name: 'Restore' }).click();
    await expect(dialog.getByLabel('Title')).toHaveValue(title);
    await expect(dialog.getByLabel('Author')).toHaveValue('Asha');

    // Discarding forgets it.
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await page
      .getByRole('dialog', { name: 'Discard changes?' })
      .getByRole('button', { name: 'Discard' })
      .click();
    await expect(dialog).toBeHidden();
    expect(
      await page.evaluate(() => Object.keys(localStorage).filter((k) => k.startsWith('draft:'))),
    ).toEqual([]);
  });
});

test.describe('live lists and presence', () => {
  test('a list follows the other’s rename and new rows; presence shows and goes', async ({
    page,
    browser,
  }) => {
    // A presence left without a DELETE expires by itself (events.test.ts): on its stream, the same
    // event a closed dialog sends, which this walk shows.
    const first = `E2E Live ${suffix} one`;
    const renamed = `E2E Live ${suffix} uno`;
    const created = `E2E Live ${suffix} two`;
    const admin = await adminApi(page.request);
    await admin('post', PATHS.categoryCreate, { form: { name: first } });
    const list = `/category?q=${encodeURIComponent(`E2E Live ${suffix}`)}`;
    const other = await staffPage(browser, ravi, list, 'Categories');
    await openSignedIn(page, list, { heading: 'Categories', as: asha });
    await expect(page.getByRole('cell', { name: first, exact: true })).toBeVisible();
    // Nothing below reloads Asha's page: this mark would be gone.
    await page.evaluate(() => ((globalThis as unknown as { kept: boolean }).kept = true));
    const kept = () =>
      page.evaluate(() => (globalThis as unknown as { kept?: boolean }).kept === true);

    // Ravi renames: Asha's row changes in place.
    await rowAction(other, first, 'Rename');
    const renameR = other.getByRole('dialog', { name: `Rename ${first}` });
    await renameR.getByLabel('Name').fill(renamed);
    await renameR.getByRole('button', { name: 'Save' }).click();
    await expect(renameR).toBeHidden();
    await expect(page.getByRole('cell', { name: renamed, exact: true })).toBeVisible();
    await expect(page.getByRole('cell', { name: first, exact: true })).toHaveCount(0);

    // Ravi adds a category: Asha is told, and sees it when she asks.
    await other.getByRole('button', { name: 'New category' }).click();
    const createR = other.getByRole('dialog', { name: 'New category' });
    await createR.getByLabel('Name').fill(created);
    await createR.getByRole('button', { name: 'Create' }).click();
    await expect(createR).toBeHidden();
    const news = page.getByTestId('new-rows');
    await expect(news).toContainText(new RegExp(`\\d+ new categor(y|ies) by .*${ravi.name}`));
    await expect(page.getByRole('cell', { name: created, exact: true })).toHaveCount(0);
    await page.getByRole('button', { name: /^Show the new categor/ }).click();
    await expect(page.getByRole('cell', { name: created, exact: true })).toBeVisible();
    await expect(news).toHaveCount(0);
    expect(await kept()).toBe(true);

    // Ravi opens the row's edit dialog: Asha sees it on the row and in her own dialog.
    const row = page.getByRole('row').filter({ hasText: renamed });
    await rowAction(other, renamed, 'Rename');
    const editR = other.getByRole('dialog', { name: `Rename ${renamed}` });
    await expect(editR).toBeVisible();
    await expect(row.getByText(`${ravi.name} is editing`)).toBeVisible();
    await rowAction(page, renamed, 'Rename');
    const editA = page.getByRole('dialog', { name: `Rename ${renamed}` });
    await expect(editA.getByText(`${ravi.name} is editing`)).toBeVisible();
    // He sees her; nobody sees themselves.
    await expect(editR.getByText(`${asha.name} is editing`)).toBeVisible();
    await expect(editA.getByText(`${asha.name} is editing`)).toHaveCount(0);

    // He closes his dialog: it is gone on her side.
    await editR.getByRole('button', { name: 'Cancel' }).click();
    await expect(editA.getByText(`${ravi.name} is editing`)).toBeHidden();
    await editA.getByRole('button', { name: 'Cancel' }).click();
    await expect(row.getByText(/is editing/)).toHaveCount(0);

    // He closes the tab with the dialog open: the page's last request says so.
    await rowAction(other, renamed, 'Rename');
    await expect(row.getByText(`${ravi.name} is editing`)).toBeVisible();
    await other.close({ runBeforeUnload: true });
    await expect(row.getByText(/is editing/)).toHaveCount(0);

    expect(await kept()).toBe(true);
    await other.context().close();
  });
});
