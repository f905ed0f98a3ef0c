/**
 * Blogs and pages: a blog written in the rich-text editor with a real image, seen in the list and
 * on its detail screen, edited, marked popular, deactivated and deleted; a new app's standard
 * pages, one edited in the editor; and stored rich text that tries to run script, shown on both
 * detail screens without running any of it.
 */
import type { Locator, Page } from '@playwright/test';
import {
  adminApi,
  expect,
  expectToast,
  loadedWidth,
  newBackOfficeAccount,
  openArea,
  openSignedIn,
  pngFile,
  rowAction,
  test,
  unique,
  type Sql,
} from './fixtures.ts';

/** What a successful injection would have set (the e2e project has no DOM types). */
const xssMark = () => (globalThis as { __xss?: unknown }).__xss;

const XSS =
  '<p>Safe words</p>' +
  '<script>window.__xss=1</script>' +
  '<img src=x onerror="window.__xss=2">' +
  '<p><a href="javascript:window.__xss=3">click me</a></p>' +
  '<svg onload="window.__xss=4"></svg>';

function row(page: Page, table: string, text: string) {
  return page.getByRole('table', { name: table }).locator('tbody tr').filter({ hasText: text });
}

test('a blog: written with an image and formatting, shown, edited, popular, status, deleted', async ({
  page,
  sql,
  consoleGuard,
}) => {
  consoleGuard.allowStatus(404, '/blogs/', 'the deleted blog’s detail address, opened on purpose');
  const title = unique('E2E Blog');
  const renamed = unique('E2E Renamed blog');
  await openSignedIn(page, '/blogs', { heading: 'Blogs' });

  await page.getByRole('button', { name: 'New blog' }).click();
  const dialog = page.getByRole('dialog', { name: 'New blog' });
  await dialog.getByLabel('Title').fill(title);
  await dialog.getByLabel('Author').fill('Asha Rao');
  await dialog.getByLabel('Short description').fill('Lamps, sweets and lights.');

  // Formatted text typed in the editor: bold words, then a bulleted list.
  const editor = dialog.getByRole('textbox', { name: 'Description', exact: true });
  await editor.click();
  await page.keyboard.type('Festival of ');
  await dialog.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type('lights');
  await dialog.getByRole('button', { name: 'Bold' }).click();
  await page.keyboard.type(' is here.');
  await page.keyboard.press('Enter');
  await dialog.getByRole('button', { name: 'Bullet list' }).click();
  await page.keyboard.type('Clay lamps');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Sweets');
  await expect(editor.locator('strong')).toHaveText('lights');
  await expect(editor.locator('ul > li')).toHaveCount(2);

  await dialog.getByRole('button', { name: 'Date', exact: true }).click();
  await page.getByRole('button', { name: /^15 \w+ \d{4}$/ }).click();
  await expect(dialog.getByRole('button', { name: 'Date', exact: true })).toContainText('15 ');

  await dialog.locator('input[type=file]').setInputFiles(await pngFile('lamps.png', '#cc6633'));
  await expect(dialog.getByRole('img', { name: 'Preview of lamps.png' })).toBeVisible();
  await dialog.getByRole('button', { name: 'Create' }).click();
  await expectToast(page, 'Blog Created Successfully');
  await expect(dialog).toBeHidden();

  // In the list, with its thumbnail loaded from the server.
  const created = row(page, 'Blogs', title);
  await expect(created).toHaveCount(1);
  const thumb = created.getByRole('img', { name: `Image of ${title}` });
  await expect(thumb).toHaveAttribute('src', /\.thumb\.webp$/);
  await expect.poll(() => loadedWidth(thumb)).toBeGreaterThan(0);
  await expect(created).toContainText('Asha Rao');
  await expect(created).toContainText('Active');

  const stored = await sql.one<{ id: number; desc: string; date: string | null }>(
    'select id, "desc", date from blogs where title = ?',
    [title],
  );
  expect(stored.desc).toContain('<strong>lights</strong>');
  expect(stored.desc).toMatch(/<ul><li><p>Clay lamps<\/p><\/li><li><p>Sweets<\/p><\/li><\/ul>/);
  expect(String(stored.date)).toMatch(/15/);

  // The detail screen shows the whole blog, formatted.
  await created.getByRole('link', { name: title }).click();
  await expect(page).toHaveURL(new RegExp(`/blogs/detail/${stored.id}$`));
  await expect(page.getByRole('heading', { name: title, level: 2 })).toBeVisible();
  const image = page.getByRole('img', { name: `Image of ${title}` });
  await expect(image).toBeVisible();
  await expect.poll(() => loadedWidth(image)).toBe(400);
  const body = page.getByRole('region', { name: 'Blog text' });
  await expect(body.locator('strong')).toHaveText('lights');
  await expect(body.getByRole('listitem')).toHaveText(['Clay lamps', 'Sweets']);
  await expect(page.getByText('Lamps, sweets and lights.')).toBeVisible();

  // Edit the title from the list.
  await page.getByRole('link', { name: 'All blogs' }).click();
  await expect(page).toHaveURL(/\/blogs$/);
  await rowAction(page, title, 'Edit');
  const edit = page.getByRole('dialog', { name: 'Edit blog' });
  await expect(edit.getByLabel('Title')).toHaveValue(title);
  await expect(
    edit.getByRole('textbox', { name: 'Description', exact: true }).locator('strong'),
  ).toHaveText('lights');
  await edit.getByLabel('Title').fill(renamed);
  await edit.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Blog Updated Successfully');
  await expect(edit).toBeHidden();
  const blogRow = row(page, 'Blogs', renamed);
  await expect(blogRow.getByRole('link', { name: renamed })).toBeVisible();
  // The text was sent back unchanged.
  const afterEdit = await sql.one<{ desc: string }>('select "desc" from blogs where id = ?', [
    stored.id,
  ]);
  expect(afterEdit.desc).toBe(stored.desc);

  // Popular, at once from the row.
  const popular = blogRow.getByRole('switch', { name: `Popular: ${renamed}` });
  await expect(popular).not.toBeChecked();
  await popular.click({ force: true });
  await expectToast(page, 'Successfully Updated.');
  await expect(popular).toBeChecked();
  await expect(popular).toBeEnabled();
  const marked = await sql.one<{ popular: unknown }>('select popular from blogs where id = ?', [
    stored.id,
  ]);
  expect(Boolean(marked.popular)).toBe(true);

  // Status.
  await rowAction(page, renamed, 'Change status');
  const status = page.getByRole('dialog', { name: `Status of “${renamed}”` });
  await status.getByRole('combobox', { name: 'Status' }).click();
  await page.getByRole('option', { name: 'Deactivated' }).click();
  await status.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Status Updated Successfully');
  await expect(status).toBeHidden();
  await expect(
    blogRow.getByRole('button', { name: `Status of ${renamed}: Deactivated. Change` }),
  ).toBeVisible();

  // Delete, after confirming.
  await rowAction(page, renamed, 'Delete');
  const confirm = page.getByRole('dialog', { name: 'Delete this blog?' });
  await confirm.getByRole('button', { name: 'Delete' }).click();
  await expectToast(page, 'Blog deleted successfully');
  await expect(row(page, 'Blogs', renamed)).toHaveCount(0);
  const left = await sql.all('select id from blogs where id = ?', [stored.id]);
  expect(left).toHaveLength(0);

  // Its detail address now says so.
  await page.goto(`/blogs/detail/${stored.id}`);
  await expect(page.getByText('Blog not found')).toBeVisible();
});

/** A STAFF account that may view blogs and pages, and do nothing else; signed in. */
async function signInViewOnly(page: Page, sql: Sql) {
  const staff = await newBackOfficeAccount(sql, {
    role: 'STAFF',
    grants: { blogs: ['VIEW'], pages: ['VIEW'] },
  });
  // No dashboard: it lands on its first area, Pages (before Blogs in the menu).
  await openSignedIn(page, '/', { heading: 'Pages', as: staff });
}

/** A view-only account's row menu holds only History (the audit log's entries of the row). */
async function expectOnlyHistory(page: Page, actions: Locator) {
  await actions.click();
  await expect(page.getByRole('menuitem')).toHaveText(['History']);
  await page.keyboard.press('Escape');
  await expect(page.getByRole('menuitem')).toHaveCount(0);
}

test('an account that may only view blogs and pages is offered nothing that would change one', async ({
  page,
  request,
  sql,
}) => {
  const title = unique('E2E View-only blog');
  const api = await adminApi(request);
  await api('post', '/blogs', {
    form: { title, author: 'Asha Rao', shortDesc: 'Read only.', desc: '<p>Some text.</p>' },
  });
  await api('post', '/master-app', { form: { name: unique('E2E View-only app') } });
  await signInViewOnly(page, sql);
  // The side menu leaves out what it may not view; such an area's address says so.
  await expect(
    page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: 'Master Apps' }),
  ).toHaveCount(0);
  await page.goto('/masterApp');
  await expect(page.getByRole('heading', { name: 'Access Denied!', level: 2 })).toBeVisible();

  await openArea(page, 'Blogs');
  const blogRow = row(page, 'Blogs', title);
  await expect(blogRow).toContainText('Active');
  await expect(page.getByRole('button', { name: 'New blog' })).toHaveCount(0);
  await expectOnlyHistory(page, blogRow.getByRole('button', { name: `Actions for ${title}` }));
  // The status is a plain badge, not a menu.
  await expect(blogRow.getByRole('button', { name: /^Status of / })).toHaveCount(0);
  await expect(blogRow.getByRole('switch', { name: `Popular: ${title}` })).toBeDisabled();

  await openArea(page, 'Pages');
  await expect(
    page.getByRole('table', { name: 'Pages' }).locator('tbody tr').first(),
  ).toBeVisible();
  await expectOnlyHistory(page, page.getByRole('button', { name: /^Actions for / }).first());
});

test('the detail screens offer Edit only to an account that may update', async ({
  page,
  request,
  sql,
}) => {
  const title = unique('E2E View-only blog');
  const api = await adminApi(request);
  const blog = await api('post', '/blogs', {
    form: { title, author: 'Asha Rao', shortDesc: 'Read only.', desc: '<p>Some text.</p>' },
  });
  const app = await api('post', '/master-app', { form: { name: unique('E2E View-only app') } });
  const [first] = await api<{ id: number; title: string }[]>(
    'get',
    `/pages/all?masterAppId=${app.id}`,
  );
  await signInViewOnly(page, sql);
  for (const [url, heading] of [
    [`/blogs/detail/${blog.id}`, title],
    [`/pages/detail/${first!.id}`, first!.title],
  ] as const) {
    await page.goto(url);
    await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    const actions = page.getByRole('button', { name: /^Actions for / });
    if ((await actions.count()) > 0) await expectOnlyHistory(page, actions.first());
  }
});

test('a new app’s standard pages: listed, one edited in the editor, shown on its detail screen', async ({
  page,
  request,
}) => {
  const appName = unique('E2E Pages App');
  const api = await adminApi(request);
  await api('post', '/master-app', { form: { name: appName } });

  await openSignedIn(page, '/pages', { heading: 'Pages' });
  const appFilter = page.getByRole('combobox', { name: 'Master app' });
  await appFilter.click();
  await appFilter.fill(appName);
  await page.getByRole('option', { name: appName }).click();
  await expect(page).toHaveURL(/[?&]masterAppId=\d+/);
  const table = page.getByRole('table', { name: 'Pages' });
  await expect(table.locator('tbody tr')).toHaveCount(3);
  for (const title of ['About Us', 'Privacy Policy', 'Terms and Conditions']) {
    await expect(table.getByRole('link', { name: title, exact: true })).toBeVisible();
  }
  await expect(table.getByRole('cell', { name: appName, exact: true })).toHaveCount(3);

  await rowAction(page, `Privacy Policy of ${appName}`, 'Edit');
  const dialog = page.getByRole('dialog', { name: 'Edit Privacy Policy' });
  const editor = dialog.getByRole('textbox', { name: 'Text' });
  await editor.click();
  await page.keyboard.press('ControlOrMeta+a');
  await page.keyboard.press('Delete');
  await dialog.getByRole('button', { name: 'Heading 2' }).click();
  await page.keyboard.type('What we keep');
  await page.keyboard.press('Enter');
  await page.keyboard.type('Only your ');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type('name');
  await page.keyboard.press('ControlOrMeta+b');
  await page.keyboard.type('.');
  await dialog.getByRole('button', { name: 'Save' }).click();
  await expectToast(page, 'Page Updated Successfully');
  await expect(dialog).toBeHidden();
  await expect(row(page, 'Pages', 'Privacy Policy')).toContainText('What we keep Only your name.');

  await table.getByRole('link', { name: 'Privacy Policy', exact: true }).click();
  await expect(page).toHaveURL(/\/pages\/detail\/\d+$/);
  await expect(page.getByRole('heading', { name: 'Privacy Policy', level: 2 })).toBeVisible();
  await expect(page.getByText(`Page of ${appName}`)).toBeVisible();
  const body = page.getByRole('region', { name: 'Page text' });
  await expect(body.getByRole('heading', { name: 'What we keep', level: 2 })).toBeVisible();
  await expect(body.locator('strong')).toHaveText('name');
  await expect(page.getByRole('button', { name: 'Edit' })).toBeVisible();

  // Edit from the detail screen too: the dialog holds what is shown.
  await page.getByRole('button', { name: 'Edit' }).click();
  const again = page.getByRole('dialog', { name: 'Edit Privacy Policy' });
  await expect(again.getByRole('textbox', { name: 'Text' }).locator('h2')).toHaveText(
    'What we keep',
  );
  await again.getByRole('button', { name: 'Cancel' }).click();
  await expect(again).toBeHidden();
});

test('stored rich text that tries to run script runs nothing on the detail screens', async ({
  page,
  request,
}) => {
  const dialogs: string[] = [];
  page.on('dialog', (d) => {
    dialogs.push(d.message());
    void d.dismiss();
  });
  const api = await adminApi(request);
  const blog = await api('post', '/blogs', {
    form: {
      title: unique('E2E XSS blog'),
      author: 'Mallory',
      shortDesc: 'Tries its luck',
      desc: XSS,
    },
  });
  // Set again through the update call: both writes must sanitise.
  await api('patch', `/blogs/${blog.id}`, { form: { desc: XSS } });
  const app = await api('post', '/master-app', { form: { name: unique('E2E XSS App') } });
  const pages = await api<{ id: number }[]>('get', `/pages/all?masterAppId=${app.id}`);
  const pageId = pages[0]!.id;
  await api('patch', `/pages/${pageId}`, { form: { desc: XSS } });

  const screens = [
    { url: `/blogs/detail/${blog.id}`, region: 'Blog text' },
    { url: `/pages/detail/${pageId}`, region: 'Page text' },
  ];
  for (const [i, { url, region }] of screens.entries()) {
    if (i === 0) await openSignedIn(page, url);
    else await page.goto(url);
    const body = page.getByRole('region', { name: region });
    await expect(body).toContainText('Safe words');
    await body.getByText('click me').click();
    // Give an image error or a load handler time to fire, were there one.
    await page.waitForTimeout(300);
    expect(await page.evaluate(xssMark)).toBeUndefined();
    await expect(body.locator('script')).toHaveCount(0);
    await expect(body.locator('[onerror], [onload]')).toHaveCount(0);
    await expect(body.locator('a[href^="javascript"]')).toHaveCount(0);
    await expect(body.locator('svg, img')).toHaveCount(0);
    await expect(page).toHaveURL(new RegExp(`${url}$`));
  }
  // The pages list previews the same text.
  await page.goto(`/pages?masterAppId=${app.id}`);
  await expect(page.getByRole('table', { name: 'Pages' }).locator('tbody tr')).toHaveCount(3);
  await page.waitForTimeout(300);
  expect(await page.evaluate(xssMark)).toBeUndefined();
  expect(dialogs).toEqual([]);
});
