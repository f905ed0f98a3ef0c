/**
 * Lists that update themselves, and who is editing what (issue 23 part 3), as two people live
 * them in two browsers: the owner (A) and a staff member who may view and rename categories (B),
 * both on the categories list. B's list shows A's rename in place and announces A's new category
 * without pushing it in; A's open edit dialog shows on B's row and in B's dialog for the same row,
 * and goes when A closes it or A's tab, and, when A's tab dies without a word, when it expires.
 */
import type { Page } from '@playwright/test';
import {
  expect,
  newBackOfficeAccount,
  openSignedIn,
  rowAction,
  signInCall,
  test,
  unique,
} from './fixtures.ts';

const OWNER_NAME = 'Asha Owner';

test('two people on one list: changes, new rows and presence reach the other', async ({
  page: b,
  browser,
  sql,
}) => {
  // The presence left by a closed tab expires after PRESENCE_TTL_SECONDS (30 s) and a sweep.
  test.setTimeout(120_000);
  const owner = await newBackOfficeAccount(sql);
  await sql.all('update accounts set name = ? where email = ?', [OWNER_NAME, owner.email]);
  const staff = await newBackOfficeAccount(sql, {
    role: 'STAFF',
    grants: { category: ['VIEW', 'UPDATE'] },
  });
  const tag = unique('Live');
  const first = `${tag} one`;
  const renamed = `${tag} uno`;
  const created = `${tag} two`;

  const { token } = await signInCall(b.request, owner);
  const made = await b.request.post('/api/v1/category', {
    headers: { Authorization: `Bearer ${token}` },
    form: { name: first },
  });
  expect(made.ok(), await made.text()).toBe(true);

  const list = `/category?q=${encodeURIComponent(tag)}`;
  const context = await browser.newContext();
  const a = await context.newPage();
  await openSignedIn(a, list, { heading: 'Categories', as: owner });
  await openSignedIn(b, list, { heading: 'Categories', as: staff });
  await expect(b.getByRole('cell', { name: first, exact: true })).toBeVisible();
  // Nothing below reloads B's page: this mark would be gone.
  await b.evaluate(() => ((globalThis as unknown as { kept: boolean }).kept = true));
  const kept = (page: Page) =>
    page.evaluate(() => (globalThis as unknown as { kept?: boolean }).kept === true);

  // A renames: B's row changes in place.
  await rowAction(a, first, 'Rename');
  const renameA = a.getByRole('dialog', { name: `Rename ${first}` });
  await renameA.getByLabel('Name').fill(renamed);
  await renameA.getByRole('button', { name: 'Save' }).click();
  await expect(renameA).toBeHidden();
  await expect(b.getByRole('cell', { name: renamed, exact: true })).toBeVisible();
  await expect(b.getByRole('cell', { name: first, exact: true })).toHaveCount(0);

  // A adds a category: B is told, and sees it only when asking.
  await a.getByRole('button', { name: 'New category' }).click();
  const createA = a.getByRole('dialog', { name: 'New category' });
  await createA.getByLabel('Name').fill(created);
  await createA.getByRole('button', { name: 'Create' }).click();
  await expect(createA).toBeHidden();
  const news = b.getByTestId('new-rows');
  await expect(news).toContainText(/\d+ new categor(y|ies) by .*Asha Owner/);
  await expect(b.getByRole('cell', { name: created, exact: true })).toHaveCount(0);
  await b.getByRole('button', { name: /^Show the new categor/ }).click();
  await expect(b.getByRole('cell', { name: created, exact: true })).toBeVisible();
  await expect(news).toHaveCount(0);
  expect(await kept(b)).toBe(true);

  // A opens the row's edit dialog: B sees who edits it, in the list and in B's own dialog.
  const rowB = b.getByRole('row').filter({ hasText: renamed });
  await rowAction(a, renamed, 'Rename');
  const editA = a.getByRole('dialog', { name: `Rename ${renamed}` });
  await expect(editA).toBeVisible();
  await expect(rowB.getByText(`${OWNER_NAME} is editing`)).toBeVisible();
  await rowAction(b, renamed, 'Rename');
  const editB = b.getByRole('dialog', { name: `Rename ${renamed}` });
  await expect(editB.getByText(`${OWNER_NAME} is editing`)).toBeVisible();
  // And A sees B; nobody sees themselves.
  await expect(editA.getByText('E2E account is editing')).toBeVisible();
  await expect(editB.getByText(/E2E account is editing/)).toHaveCount(0);

  // A closes the dialog: it is gone on B's side.
  await editA.getByRole('button', { name: 'Cancel' }).click();
  await expect(editB.getByText(`${OWNER_NAME} is editing`)).toBeHidden();
  await editB.getByRole('button', { name: 'Cancel' }).click();
  await expect(rowB.getByText(/is editing/)).toHaveCount(0);

  // A closes the tab with the dialog open: the page's last request says so.
  await rowAction(a, renamed, 'Rename');
  await expect(rowB.getByText(`${OWNER_NAME} is editing`)).toBeVisible();
  await a.close({ runBeforeUnload: true });
  await expect(rowB.getByText(/is editing/)).toHaveCount(0);

  // A tab that dies without a word (a crash, a lost network) leaves what its last PUT said, and
  // no DELETE: the presence expires by itself (PRESENCE_TTL_SECONDS, 30 s, and the sweep).
  const id = (await sql.one<{ id: number }>('select id from categories where name = ?', [renamed]))
    .id;
  const held = await context.request.put('/api/v1/presence', {
    headers: { Authorization: `Bearer ${token}` },
    data: { area: 'category', id },
  });
  expect(held.ok(), await held.text()).toBe(true);
  await expect(rowB.getByText(`${OWNER_NAME} is editing`)).toBeVisible();
  await expect(rowB.getByText(/is editing/)).toHaveCount(0, { timeout: 60_000 });
  expect(await kept(b)).toBe(true);
  await context.close();
});
