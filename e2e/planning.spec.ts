/**
 * Festival planning (API.md "Planning festivals"): a batch of 30 posters with two bad files (the
 * good ones created, the bad named with the reason, Retry giving the same reason), and a gap in
 * the plan filled from its own shortcut (an upload prefilled for that day and app, after which the
 * day is covered in that app).
 */
import type { Locator, Page } from '@playwright/test';
import sharp from 'sharp';
import { adminApi, createMasterApp, expect, openSignedIn, test, unique } from './fixtures.ts';

/** A real PNG of its own colour (so each file is a picture of its own). */
async function poster(name: string, i: number) {
  const buffer = await sharp({
    create: {
      width: 120,
      height: 180,
      channels: 3,
      background: { r: (i * 37) % 256, g: (i * 91) % 256, b: (i * 53) % 256 },
    },
  })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

async function choose(page: Page, scope: Locator, label: string, option: string) {
  const select = scope.getByRole('combobox', { name: label });
  await expect(select).toBeEnabled();
  await select.fill(option);
  await page.getByRole('option', { name: option, exact: true }).click();
}

/** A special day `ahead` days from today (UTC), through the API. */
async function specialDayAhead(api: Awaited<ReturnType<typeof adminApi>>, ahead: number) {
  const date = new Date(Date.now() + ahead * 86_400_000);
  const name = unique('Planned Day');
  const day = await api<{ id: number }>('post', '/special-day', {
    form: { name, month: String(date.getUTCMonth() + 1), day: String(date.getUTCDate()) },
  });
  return { ...day, name, date: date.toISOString().slice(0, 10) };
}

test('a batch of 30 posters with 2 bad files: the good ones created, the bad named, Retry', async ({
  page,
  request,
  consoleGuard,
}) => {
  test.setTimeout(180_000);
  consoleGuard.allowStatus(415, '/poster/only-cat/', 'the file that is not an image, on purpose');
  const api = await adminApi(request);
  const app = await createMasterApp(request, unique('Batch App'));
  const categoryName = unique('Batch Category');
  await api('post', '/category', { form: { name: categoryName } });
  const files = await Promise.all(
    Array.from({ length: 28 }, (_, i) => poster(`design-${String(i + 1).padStart(2, '0')}.png`, i)),
  );
  // Named as an image, but not one: the server refuses it. An SVG: refused before sending.
  files.splice(5, 0, {
    name: 'broken.png',
    mimeType: 'image/png',
    buffer: Buffer.from('not a picture'),
  });
  files.splice(17, 0, {
    name: 'vector.svg',
    mimeType: 'image/svg+xml',
    buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>'),
  });

  await openSignedIn(page, `/poster?masterAppId=${app.id}`, { heading: 'Posters' });
  await page.getByRole('button', { name: 'Many posters' }).click();
  const dialog = page.getByRole('dialog', { name: 'Many posters' });
  // Opened from a list filtered by an app: for that app.
  await expect(dialog.getByRole('radio', { name: 'One app' })).toBeChecked();
  await choose(page, dialog, 'Category', categoryName);
  await dialog.locator('input[type=file]').first().setInputFiles(files);
  await expect(dialog.getByText('30 files chosen: drop or choose more')).toBeVisible();
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();

  await expect(dialog).toBeHidden();
  const panel = page.getByRole('region', { name: 'Upload finished' });
  await expect(panel).toBeVisible({ timeout: 120_000 });
  const summary = panel.getByRole('status');
  await expect(summary).toContainText('28 of 30 posters created');
  await expect(summary).toContainText('vector.svg: Not an image');
  const broken = panel.getByRole('listitem', { name: 'broken.png' });
  const reason = (await broken.locator('p').last().textContent()) ?? '';
  expect(reason).not.toBe('');
  await expect(summary).toContainText(`broken.png: ${reason}`);

  // Retry sends it again: the server gives the same reason.
  await panel.getByRole('button', { name: 'Retry broken.png' }).click();
  await expect(broken).toHaveAttribute('data-state', 'refused');
  await expect(panel.getByRole('status')).toContainText(`broken.png: ${reason}`);
  await panel.getByRole('button', { name: 'Done' }).click();

  const stored = await api<unknown[]>('get', `/poster/list?masterAppId=${app.id}&limit=100`);
  expect(stored).toHaveLength(28);
});

test('a gap in the plan, filled from its own shortcut', async ({ page, request }) => {
  test.setTimeout(120_000);
  const api = await adminApi(request);
  const app = await createMasterApp(request, unique('Plan App'));
  const categoryName = unique('Plan Category');
  await api('post', '/category', { form: { name: categoryName } });
  const day = await specialDayAhead(api, 10);

  await openSignedIn(page, '/special-day?view=plan', { heading: 'Special Days' });
  const table = page.getByRole('table', { name: 'Plan by day and app' });
  const upload = table.getByRole('link', { name: `Upload posters for ${day.name} in ${app.name}` });
  await expect(upload).toBeVisible();
  await upload.click();

  const dialog = page.getByRole('dialog', { name: 'Many posters' });
  await expect(dialog.getByRole('radio', { name: 'One app' })).toBeChecked();
  await expect(dialog.getByRole('combobox', { name: 'Master app' })).toHaveValue(app.name);
  await choose(page, dialog, 'Category', categoryName);
  await dialog
    .locator('input[type=file]')
    .first()
    .setInputFiles([await poster('gap-filler.png', 7)]);
  await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
  const panel = page.getByRole('region', { name: 'Upload finished' });
  await expect(panel.getByRole('status')).toContainText('1 of 1 poster created');
  await panel.getByRole('button', { name: 'Done' }).click();

  await page.goto('/special-day?view=plan');
  const row = page.getByRole('table', { name: 'Plan by day and app' }).getByRole('row', {
    name: new RegExp(day.name),
  });
  await expect(row).toBeVisible();
  await expect(
    row.getByRole('link', { name: `Upload posters for ${day.name} in ${app.name}` }),
  ).toHaveCount(0);
  const [created] = await api<Array<{ date: string | null; specialDayId: number }>>(
    'get',
    `/poster/list?masterAppId=${app.id}`,
  );
  expect(created).toMatchObject({ date: day.date, specialDayId: day.id });
});
