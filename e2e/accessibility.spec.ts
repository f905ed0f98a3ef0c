/**
 * Accessibility: axe (WCAG 2.0 and 2.1, A and AA) on every screen with rows in every list, with a
 * form dialog open, and on the dashboard and a list in dark mode; the skip link; and the
 * dark-mode toggle itself.
 *
 * One page, signed in once, visits the screens one test after the other, so the whole check costs
 * one sign-in (a failed test costs one more: the next test gets a new worker).
 */
import type { BrowserContext, Locator, Page } from '@playwright/test';
import {
  ADMIN,
  adminApi,
  baseUrl,
  expect,
  expectNoA11yViolations,
  now,
  pngFile,
  submitSignIn,
  test,
  unique,
} from './fixtures.ts';

const STATUSES = ['ACTIVE', 'DEACTIVE', 'DELETED', 'SUSPENDED', 'PENDING'];

let context: BrowserContext;
let page: Page;
const seeded = { blogId: 0, blogTitle: '', pageId: 0, pageTitle: '', staffId: 0, staffName: '' };

/**
 * One row in every list, so the checks see rows, status menus and row actions; then the page
 * signs in. The images have colours no other spec uses: stored files are named by their content,
 * and another spec checks that its image is removed once no row uses it.
 */
test.beforeAll(async ({ browser, sql }) => {
  // A context of its own (not browser.newPage()): axe opens a page in it for its results.
  context = await browser.newContext({ baseURL: baseUrl() });
  page = await context.newPage();
  const api = await adminApi(page.request);
  const app = await api<{ id: number; name: string }>('post', '/master-app', {
    form: { name: unique('A11y app') },
  });
  await api('post', `/banner/${app.id}`, {
    multipart: {
      file: await pngFile('banner.png', '#1f4e79', 900, 300),
      linkType: 'EXTERNAL',
      link: 'https://example.com/offer',
    },
  });
  seeded.blogTitle = unique('A11y blog');
  const blog = await api('post', '/blogs', {
    multipart: {
      title: seeded.blogTitle,
      author: 'Asha Rao',
      shortDesc: 'Lamps, sweets and lights.',
      desc: '<h2>Festival</h2><p>Of <strong>lights</strong>.</p><ul><li><p>Lamps</p></li></ul>',
      image: await pngFile('blog.png', '#7a3b1f'),
    },
  });
  seeded.blogId = blog.id;
  const pages = await api<{ id: number; title: string }[]>(
    'get',
    `/pages/all?masterAppId=${app.id}`,
  );
  seeded.pageId = pages[0]!.id;
  seeded.pageTitle = pages[0]!.title;
  // A category in each status, so each status badge is checked.
  for (const status of STATUSES) {
    const category = await api('post', '/category', { form: { name: unique('A11y category') } });
    if (status !== 'ACTIVE')
      await api('put', `/category/status/${category.id}`, { form: { status } });
  }
  await api('post', '/special-day', {
    form: { name: unique('A11y day'), month: '1', day: '14' },
  });
  await api('post', '/faqs', { form: { question: unique('A11y question?'), answer: 'Yes.' } });
  seeded.staffName = unique('A11y staff');
  const staff = await api('post', '/account/add-staff', {
    form: {
      name: seeded.staffName,
      email: `a11y-${Date.now()}@e2e.test`,
      phoneNumber: `+1${String(Date.now()).slice(-10)}`,
      password: 'a11y-password-1',
      roles: 'Editor',
    },
  });
  seeded.staffId = staff.id;
  await api('post', `/settings/${app.id}`, {
    multipart: { title: 'A11y posters', logo: await pngFile('logo.png', '#1f7a4d') },
  });
  await api('post', '/notifications/single', {
    multipart: {
      title: unique('A11y notice'),
      desc: 'Half price today.',
      type: 'FESTIVAL',
      masterAppId: String(app.id),
      logo: await pngFile('bell.png', '#7a1f4d'),
    },
  });
  // Straight into the database: the public form's call is limited to a few an hour, and a failed
  // test seeds again.
  await sql.all(
    `insert into contact_us (f_name, l_name, email, phone_number, query, created_at)
     values ('Asha', 'Rao', 'asha@example.com', '+919876543210', 'Posters do not download.', ?)`,
    [now()],
  );

  await page.goto('/auth/sign-in');
  await submitSignIn(page, ADMIN.email, ADMIN.password);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
});

test.afterAll(async () => {
  await context.close();
});

/** The first row of a list's table. */
const firstRow = (name: string) => () =>
  page.getByRole('table', { name }).locator('tbody tr').first();

type Screen = {
  name: string;
  path: () => string;
  heading: () => string;
  /** What shows once the screen has its data. */
  ready: () => Locator;
};

const SCREENS: Screen[] = [
  {
    name: 'dashboard',
    path: () => '/',
    heading: () => 'Dashboard',
    ready: () => page.getByTestId('stat-totalUser').getByTestId('stat-value'),
  },
  {
    name: 'master apps',
    path: () => '/masterApp',
    heading: () => 'Master Apps',
    ready: firstRow('Master apps'),
  },
  {
    name: 'banners',
    path: () => '/banner',
    heading: () => 'Banners',
    ready: firstRow('Banners'),
  },
  {
    name: 'blogs',
    path: () => '/blogs',
    heading: () => 'Blogs',
    ready: firstRow('Blogs'),
  },
  {
    name: 'a blog',
    path: () => `/blogs/detail/${seeded.blogId}`,
    heading: () => seeded.blogTitle,
    ready: () => page.getByRole('region', { name: 'Blog text' }),
  },
  { name: 'pages', path: () => '/pages', heading: () => 'Pages', ready: firstRow('Pages') },
  {
    name: 'a page',
    path: () => `/pages/detail/${seeded.pageId}`,
    heading: () => seeded.pageTitle,
    // A new app's pages have no text yet.
    ready: () => page.getByText('This page has no text yet'),
  },
  {
    name: 'categories',
    path: () => '/category',
    heading: () => 'Categories',
    ready: firstRow('Categories'),
  },
  {
    name: 'special days',
    path: () => '/special-day',
    heading: () => 'Special Days',
    ready: firstRow('Special days'),
  },
  { name: 'FAQs', path: () => '/faqs', heading: () => 'FAQs', ready: firstRow('FAQs') },
  {
    name: 'contact us',
    path: () => '/contact-us',
    heading: () => 'Contact Us',
    ready: firstRow('Enquiries'),
  },
  {
    name: 'settings',
    path: () => '/settings',
    heading: () => 'Settings',
    ready: firstRow('Settings'),
  },
  {
    name: 'notifications',
    path: () => '/notification',
    heading: () => 'Notifications',
    ready: firstRow('Notifications'),
  },
  {
    name: 'staff',
    path: () => '/staff-details',
    heading: () => 'Staff',
    ready: firstRow('Staff'),
  },
  {
    name: 'a staff member',
    path: () => `/account/staff/profile/${seeded.staffId}`,
    heading: () => seeded.staffName,
    ready: () => page.getByRole('switch', { name: 'Categories: View' }),
  },
  {
    name: 'menus',
    path: () => '/menus',
    heading: () => 'Menus',
    ready: firstRow('Menus'),
  },
  {
    name: 'audit log',
    path: () => '/audit-log',
    heading: () => 'Audit log',
    ready: firstRow('Audit log'),
  },
  {
    name: 'account',
    path: () => '/profile',
    heading: () => 'Account',
    ready: () => page.getByRole('row', { name: `Email ${ADMIN.email}` }),
  },
  {
    name: 'not found',
    path: () => '/no-such-screen',
    heading: () => 'Page not found',
    ready: () => page.getByRole('link', { name: 'Go to the dashboard' }),
  },
];

async function visit(screen: Screen) {
  await page.goto(screen.path());
  await expect(page.getByRole('heading', { name: screen.heading(), level: 2 })).toBeVisible();
  await expect(screen.ready()).toBeVisible();
}

test('sign-in', async ({ page: signedOut }) => {
  await signedOut.goto('/auth/sign-in');
  await expect(signedOut.getByRole('button', { name: 'Sign in', exact: true })).toBeVisible();
  await expectNoA11yViolations(signedOut);
});

for (const screen of SCREENS) {
  test(screen.name, async () => {
    await visit(screen);
    await expectNoA11yViolations(page);
  });
}

test('the first Tab reaches "Skip to content", which moves focus to the screen', async () => {
  await visit(SCREENS[0]!);
  await page.keyboard.press('Tab');
  const skip = page.getByRole('link', { name: 'Skip to content' });
  await expect(skip).toBeFocused();
  await expect(skip).toBeInViewport();
  await page.keyboard.press('Enter');
  await expect(page.getByRole('main')).toBeFocused();
});

test('a dialog opened from a row’s actions gives focus back to that row’s actions button', async () => {
  await visit(SCREENS.find((s) => s.name === 'categories')!);
  const actions = page.getByRole('button', { name: /^Actions for / }).first();
  await actions.click();
  await page.getByRole('menuitem', { name: 'Change status' }).click();
  const dialog = page.getByRole('dialog', { name: /^Status of / });
  await expect(dialog).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(actions).toBeFocused();
});

// A modal and a side panel (Drawer, with the rich-text editor).
for (const { screen, button } of [
  { screen: 'banners', button: 'New banner' },
  { screen: 'blogs', button: 'New blog' },
]) {
  test(`a form dialog: ${button}`, async () => {
    await visit(SCREENS.find((s) => s.name === screen)!);
    await page.getByRole('button', { name: button }).click();
    const dialog = page.getByRole('dialog', { name: button });
    await expect(dialog.getByRole('button', { name: 'Create' })).toBeVisible();
    // The dialog only: the screen behind it has its own check.
    await expectNoA11yViolations(page, '[role="dialog"]');
    await page.keyboard.press('Escape');
    await expect(dialog).toBeHidden();
    // Focus goes back to what opened it.
    await expect(page.getByRole('button', { name: button })).toBeFocused();
  });
}

test('dark mode: the header toggle switches, and the choice survives a reload', async () => {
  await visit(SCREENS[0]!);
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
  expect(await page.evaluate(() => localStorage.getItem('mantine-color-scheme-value'))).toBe(
    'dark',
  );

  await page.reload();
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await expect(page.getByRole('button', { name: 'Switch to light mode' })).toBeVisible();
});

// The categories list shows every status's badge.
for (const name of ['dashboard', 'categories']) {
  test(`dark mode: ${name}`, async () => {
    await visit(SCREENS.find((s) => s.name === name)!);
    // Already dark after the test above, unless a failure since gave this test a new page.
    const toDark = page.getByRole('button', { name: 'Switch to dark mode' });
    if (await toDark.isVisible()) await toDark.click();
    await expect(page.locator('html')).toHaveAttribute('data-mantine-color-scheme', 'dark');
    await expectNoA11yViolations(page);
  });
}
