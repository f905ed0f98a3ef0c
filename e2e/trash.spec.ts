/**
 * The trash (API.md "Planning festivals"): a bulk delete of posters is undone from its toast and
 * the rows come back; a delete then shows in the Trash screen, where it is restored.
 */
import {
  adminApi,
  createMasterApp,
  createPoster,
  expect,
  listRange,
  openSignedIn,
  rowAction,
  test,
  unique,
} from './fixtures.ts';

test('a bulk delete of posters undone from the toast; a delete restored from the Trash screen', async ({
  page,
  request,
  sql,
}) => {
  const api = await adminApi(request);
  const app = await createMasterApp(request, unique('Trash App'));
  const category = await api<{ id: number }>('post', '/category', {
    form: { name: unique('Trash Category') },
  });
  const ids: number[] = [];
  for (let i = 0; i < 3; i++) {
    ids.push(await createPoster(api, { masterAppId: app.id, categoryId: category.id }));
  }
  await openSignedIn(page, `/poster?masterAppId=${app.id}`, { heading: 'Posters' });
  await expect(listRange(page)).toHaveText('1–3 of 3');

  // Select all three, delete after confirming; the toast offers Undo.
  for (const id of ids) await page.getByRole('checkbox', { name: `Select Poster #${id}` }).check();
  const bar = page.getByRole('region', { name: 'Selected rows' });
  await bar.getByRole('button', { name: 'Delete' }).click();
  await page
    .getByRole('dialog', { name: 'Delete 3 posters?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  const toast = page
    .locator('.mantine-Notifications-root')
    .getByRole('alert')
    .filter({ hasText: 'Poster deleted successfully' });
  await expect(toast).toBeVisible();
  await expect(listRange(page)).toHaveText('0 of 0');
  const gone = await sql.all('select id from posters where master_app_id = ?', [app.id]);
  expect(gone).toHaveLength(0);

  await toast.getByRole('button', { name: 'Undo' }).click();
  await expect(
    page
      .locator('.mantine-Notifications-root')
      .getByRole('alert')
      .filter({ hasText: 'Restored: 3' }),
  ).toBeVisible();
  await expect(listRange(page)).toHaveText('1–3 of 3');
  for (const id of ids) {
    await expect(page.getByRole('button', { name: `Actions for Poster #${id}` })).toBeVisible();
  }
  const back = await sql.all<{ id: number }>(
    'select id from posters where master_app_id = ? order by id',
    [app.id],
  );
  expect(back.map((r) => r.id)).toEqual(ids);

  // One deleted, then restored from the Trash screen.
  await rowAction(page, `Poster #${ids[0]}`, 'Delete');
  await page
    .getByRole('dialog', { name: 'Delete this poster?' })
    .getByRole('button', { name: 'Delete' })
    .click();
  await expect(page.getByRole('button', { name: `Actions for Poster #${ids[0]}` })).toHaveCount(0);
  await page.getByRole('link', { name: 'Trash' }).click();
  await expect(page.getByRole('heading', { name: 'Trash' })).toBeVisible();
  await rowAction(page, `Poster #${ids[0]}`, 'Restore');
  // The Undo's "Restored: 3" may still show; this one names no count.
  await expect(
    page
      .locator('.mantine-Notifications-root')
      .getByRole('alert')
      .filter({ hasText: 'Restored', hasNotText: 'Restored:' }),
  ).toBeVisible();
  await expect(page.getByRole('button', { name: `Actions for Poster #${ids[0]}` })).toHaveCount(0);
  expect(await sql.all('select id from posters where id = ?', [ids[0]])).toHaveLength(1);
});
