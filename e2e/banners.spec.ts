/**
 * Banners: create with a real uploaded image, see its thumbnail and the full image, change the
 * link, image and status, refuse a file that is not an image, delete after confirming.
 */
import type { Page } from '@playwright/test';
import {
  changeStatusFromMenu,
  createMasterApp,
  expect,
  expectToast,
  loadedWidth,
  openSignedIn,
  pngFile,
  test,
  unique,
} from './fixtures.ts';

function bannerTable(page: Page) {
  return page.getByRole('table', { name: 'Banners' });
}

test('create a banner with an image, then change its link, image and status, and delete it', async ({
  page,
  request,
  sql,
  consoleGuard,
}) => {
  consoleGuard.allowStatus(
    415,
    '/banner/update/',
    'a file that is not an image, refused on purpose',
  );
  const app = unique('Banner App');
  const link = `https://example.com/${unique('offer').replace(' ', '-')}`;
  await createMasterApp(request, app);
  await openSignedIn(page, '/banner', { heading: 'Banners' });

  await page.getByRole('button', { name: 'New banner' }).click();
  const dialog = page.getByRole('dialog', { name: 'New banner' });
  await dialog.getByRole('combobox', { name: 'Master app' }).click();
  await page.getByRole('option', { name: app, exact: true }).click();
  await dialog
    .locator('input[type=file]')
    .setInputFiles(await pngFile('sale.png', '#3366cc', 900, 300));
  await expect(dialog.getByRole('img', { name: 'Preview of sale.png' })).toBeVisible();
  await dialog.getByRole('combobox', { name: 'Link type' }).click();
  await page.getByRole('option', { name: 'EXTERNAL' }).click();
  await dialog.getByRole('textbox', { name: 'Link' }).fill(link);
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expectToast(page, 'Banner Created Successfully');
  await expect(dialog).toBeHidden();

  // The new banner heads the list, with its thumbnail loaded from the server.
  const row = bannerTable(page).locator('tbody tr').first();
  await expect(row).toContainText(app);
  await expect(row.getByRole('link', { name: link })).toBeVisible();
  const { id, image } = await sql.one<{ id: number; image: string }>(
    'select id, image from banners order by id desc limit 1',
  );
  const thumb = row.getByRole('img', { name: `Banner #${id}` });
  await expect(thumb).toHaveAttribute('src', `/media/${image.replace(/\.webp$/, '.thumb.webp')}`);
  await expect.poll(() => loadedWidth(thumb)).toBeGreaterThan(0);

  // Clicking the thumbnail shows the full image.
  await row.getByRole('button', { name: `Show Banner #${id}` }).click();
  const full = page
    .getByRole('dialog', { name: `Banner #${id}` })
    .getByRole('img', { name: `Banner #${id}` });
  await expect.poll(() => loadedWidth(full)).toBe(900);
  await page.keyboard.press('Escape');

  // Filters live in the URL and survive a reload.
  await page.getByRole('combobox', { name: 'Link type' }).click();
  await page.getByRole('option', { name: 'EXTERNAL' }).click();
  await expect(page).toHaveURL(/linkType=EXTERNAL/);
  await page.reload();
  await expect(page.getByRole('combobox', { name: 'Link type' })).toHaveValue('EXTERNAL');
  await expect(bannerTable(page).getByRole('link', { name: link })).toBeVisible();

  const actions = () => page.getByRole('button', { name: `Actions for Banner #${id}` });

  // Link: an EXTERNAL link must be a web address.
  await actions().click();
  await page.getByRole('menuitem', { name: 'Edit link' }).click();
  const edit = page.getByRole('dialog', { name: 'Edit link' });
  await edit.getByRole('textbox', { name: 'Link' }).fill('not a web address');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit.getByText('An EXTERNAL link must be an http:// or https:// URL')).toBeVisible();
  await edit.getByRole('textbox', { name: 'Link' }).fill(`${link}/v2`);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Banner Updated Successfully');
  await expect(bannerTable(page).getByRole('link', { name: `${link}/v2` })).toBeVisible();

  // Image: a file that is not an image is refused with the server's message, naming the field as
  // the form labels it ("Image", not the field name "file"); a PNG replaces it.
  await actions().click();
  await page.getByRole('menuitem', { name: 'Change image' }).click();
  const change = page.getByRole('dialog', { name: 'Change image' });
  await change.locator('input[type=file]').setInputFiles({
    name: 'evil.png',
    mimeType: 'image/png',
    buffer: Buffer.from('<html><script>alert(1)</script></html>'),
  });
  await change.getByRole('button', { name: 'Upload', exact: true }).click();
  // Said once, under the field it names (no toast repeats it).
  await expect(change.getByText('Only JPEG, PNG, WebP or GIF images are accepted')).toBeVisible();
  await expect(change).toBeVisible();
  await change
    .locator('input[type=file]')
    .setInputFiles(await pngFile('new.png', '#cc3366', 600, 200));
  await change.getByRole('button', { name: 'Upload', exact: true }).click();
  await expectToast(page, 'Banner Updated Successfully');
  const replaced = await sql.one<{ image: string }>('select image from banners where id = ?', [id]);
  expect(replaced.image).not.toBe(image);
  await expect(bannerTable(page).getByRole('img', { name: `Banner #${id}` })).toHaveAttribute(
    'src',
    `/media/${replaced.image.replace(/\.webp$/, '.thumb.webp')}`,
  );
  // The old file is gone from the server.
  expect((await page.request.get(`/media/${image}`)).status()).toBe(404);

  // Status: one click on the row's status, one on the new one.
  await changeStatusFromMenu(page, `banner #${id}`, 'Active', 'Deactivated');
  const { status } = await sql.one<{ status: string }>('select status from banners where id = ?', [
    id,
  ]);
  expect(status).toBe('DEACTIVE');

  // Delete asks first; Cancel keeps it.
  await actions().click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  const confirm = page.getByRole('dialog', { name: 'Delete this banner?' });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(actions()).toBeVisible();
  await actions().click();
  await page.getByRole('menuitem', { name: 'Delete' }).click();
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Banner deleted successfully');
  await expect(actions()).toHaveCount(0);
  expect((await sql.all('select id from banners where id = ?', [id])).length).toBe(0);
  // In the trash its file stays, for a restore (trash.spec.ts); purged, it goes.
  expect((await page.request.get(`/media/${replaced.image}`)).status()).toBe(200);
  const token = await page.evaluate(() => localStorage.getItem('ACCESS_TOKEN'));
  const purge = await page.request.delete('/api/v1/trash', {
    headers: { authorization: `Bearer ${token}` },
    data: { items: [{ area: 'banners', id }] },
  });
  expect(purge.status(), await purge.text()).toBe(200);
  expect((await page.request.get(`/media/${replaced.image}`)).status()).toBe(404);
});
