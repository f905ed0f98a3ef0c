/**
 * The tests' `test`: `baseURL` is the server the global setup started, `sql` reaches its database
 * directly (SQLite file or PostgreSQL), and a few helpers do what a user does on every visit.
 */
import { randomBytes } from 'node:crypto';
import AxeBuilder from '@axe-core/playwright';
import {
  test as base,
  expect,
  type APIRequestContext,
  type Locator,
  type Page,
} from '@playwright/test';
import { PATHS, STORAGE_KEYS } from '@master-admin/contract';
import Database from 'better-sqlite3';
import pg from 'pg';
import sharp from 'sharp';
import { ADMIN, ENV } from './settings.ts';

export { expect };
export { ADMIN };

/** The server the global setup started (for code that runs outside a test's `baseURL`). */
export const baseUrl = () => required(ENV.baseUrl);
/** Where stored media load from: `/media`, or the bucket's URL with E2E_MEDIA=s3. */
export const mediaBase = () => required(ENV.mediaBase);

/** Plain SQL on the server's database. Write placeholders as `?` (numbered for PostgreSQL). */
export interface Sql {
  readonly kind: 'sqlite' | 'postgres';
  all<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T[]>;
  one<T = Record<string, unknown>>(text: string, params?: unknown[]): Promise<T>;
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set: run the tests through e2e/playwright.config.ts`);
  return value;
}

async function openSql(): Promise<{ sql: Sql; close: () => Promise<void> }> {
  const url = process.env[ENV.databaseUrl];
  let all: Sql['all'];
  let close: () => Promise<void>;
  let kind: Sql['kind'];
  if (url) {
    kind = 'postgres';
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    all = async <T>(text: string, params: unknown[] = []) => {
      let n = 0;
      const res = await client.query(
        text.replace(/\?/g, () => `$${++n}`),
        params,
      );
      return res.rows as T[];
    };
    close = () => client.end();
  } else {
    kind = 'sqlite';
    const file = required(ENV.sqliteFile);
    const sqlite = new Database(file, { fileMustExist: true });
    sqlite.pragma('busy_timeout = 5000');
    sqlite.pragma('foreign_keys = ON');
    all = async <T>(text: string, params: unknown[] = []) => {
      const stmt = sqlite.prepare(text);
      if (stmt.reader) return stmt.all(...params) as T[];
      stmt.run(...params);
      return [];
    };
    close = async () => {
      sqlite.close();
    };
  }
  const one = async <T>(text: string, params?: unknown[]) => {
    const [row] = await all<T>(text, params);
    if (row === undefined) throw new Error(`no row from: ${text}`);
    return row;
  };
  return { sql: { kind, all, one }, close };
}

/** A short random suffix that keeps names unique across tests and runs. */
export function unique(prefix: string): string {
  return `${prefix} ${randomBytes(4).toString('hex')}`;
}

export const now = () => new Date().toISOString();

/**
 * A new, active back-office account (a SUPER_ADMIN unless told) that signs in with ADMIN.password:
 * its password hash is copied from the first admin (quicker than the staff calls, and the only way
 * to another SUPER_ADMIN), so tests that change a password leave the first admin alone. A STAFF
 * account holds only `grants` (menu name → VIEW, CREATE, UPDATE, DELETE).
 */
export async function newBackOfficeAccount(
  sql: Sql,
  options: { role?: 'SUPER_ADMIN' | 'STAFF'; grants?: Record<string, string[]> } = {},
): Promise<{ email: string; password: string }> {
  const email = `e2e-${randomBytes(5).toString('hex')}@e2e.test`;
  const { password_hash } = await sql.one<{ password_hash: string }>(
    'select password_hash from accounts where lower(email) = ?',
    [ADMIN.email.toLowerCase()],
  );
  const at = now();
  const { id } = await sql.one<{ id: number }>(
    `insert into accounts (role, name, email, password_hash, status, created_at, updated_at)
     values (?, ?, ?, ?, 'ACTIVE', ?, ?) returning id`,
    [options.role ?? 'SUPER_ADMIN', 'E2E account', email, password_hash, at, at],
  );
  for (const [menu, kinds] of Object.entries(options.grants ?? {})) {
    for (const kind of kinds) {
      await sql.all(
        `insert into user_permissions (account_id, menu_id, permission_id, status, updated_at)
         select ?, m.id, p.id, ?, ? from menus m, permissions p where m.name = ? and p.name = ?`,
        [id, sql.kind === 'postgres' ? true : 1, at, menu, kind],
      );
    }
  }
  return { email, password: ADMIN.password };
}

/**
 * As if `email`'s sessions signed in long ago (a laptop left open since the morning): their proof
 * of presence is no longer recent, and a change of how the account signs in asks for one.
 */
export async function staleProof(sql: Sql, email: string) {
  await sql.all(
    `update sessions set proved_at = ?
     where account_id = (select id from accounts where lower(email) = ?)`,
    [new Date(Date.now() - 3_600_000).toISOString(), email.toLowerCase()],
  );
}

/** The in-place "Confirm it's you" prompt, once a change asked for a proof. */
export const proofPrompt = (page: Page) => page.getByRole('dialog', { name: 'Confirm it’s you' });

/** Fills and sends the sign-in form (the page must show it). */
export async function submitSignIn(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { name: 'Master Admin', level: 1 })).toBeVisible();
  await page.getByLabel('Email or phone number').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
}

/**
 * Opens the sign-in screen, signs in and waits for the first screen: the dashboard, or for a staff
 * account that may not view it the first area it may open (`landing`: its heading; with no area
 * at all, Account).
 */
export async function signIn(
  page: Page,
  email: string = ADMIN.email,
  password: string = ADMIN.password,
  landing?: string,
) {
  await page.goto('/auth/sign-in');
  await submitSignIn(page, email, password);
  if (landing === undefined) await expect(page).toHaveURL(/\/$/);
  await expect(
    page.getByRole('heading', { name: landing ?? /^(Dashboard|Account)$/, level: 2 }),
  ).toBeVisible();
}

/**
 * Opens `path` already signed in (as the first admin unless `as` says), and waits for `heading`
 * when given. The session comes from the sign-in call and is stored where the web app keeps it,
 * instead of through the form and the dashboard it lands on (the slowest screen to draw); the form
 * and the landing have their own tests (auth.spec.ts, dashboard.spec.ts). It is planted once per
 * tab, so a sign-out later in the test stays signed out across reloads.
 */
export async function openSignedIn(
  page: Page,
  path: string,
  options: { heading?: string; as?: { email: string; password: string } } = {},
) {
  const { token, loginId } = await signInCall(page.request, options.as);
  await page.addInitScript(
    ({ keys, token, loginId }) => {
      if (sessionStorage.getItem('e2e-session-planted')) return;
      sessionStorage.setItem('e2e-session-planted', '1');
      localStorage.setItem(keys.token, token);
      localStorage.setItem(keys.loginId, loginId);
    },
    { keys: STORAGE_KEYS, token, loginId },
  );
  await page.goto(path);
  if (options.heading) {
    await expect(page.getByRole('heading', { name: options.heading, level: 2 })).toBeVisible();
  }
}

/** Opens an area from the side menu and waits for its heading. */
export async function openArea(page: Page, link: string, heading: string = link) {
  await page.getByRole('navigation', { name: 'Areas' }).getByRole('link', { name: link }).click();
  await expect(page.getByRole('heading', { name: heading, level: 2 })).toBeVisible();
}

/** The side menu's Logout. */
export async function signOut(page: Page) {
  await page
    .getByRole('navigation', { name: 'Areas' })
    .getByRole('button', { name: 'Logout' })
    .click();
  await expect(page).toHaveURL(/\/auth\/sign-in$/);
}

/**
 * The width in pixels of the picture an <img> has loaded, 0 until it has: poll it to know that an
 * image really came from the server.
 */
/**
 * Watches the page's API calls from now on; `settled()` waits until none has been under way for
 * half a second, the event stream aside (it stays open as long as the page, so Playwright's
 * 'networkidle' never comes on a signed-in page).
 */
export function watchApi(page: Page) {
  const pending = new Set<unknown>();
  const isApi = (url: string) => url.includes('/api/v1/') && !url.includes('/api/v1/events');
  page.on('request', (r) => void (isApi(r.url()) && pending.add(r)));
  page.on('requestfinished', (r) => void pending.delete(r));
  page.on('requestfailed', (r) => void pending.delete(r));
  return {
    async settled(quietMs = 500, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      let quietSince = Date.now();
      while (Date.now() - quietSince < quietMs) {
        if (Date.now() > deadline) throw new Error(`API calls under way after ${timeoutMs} ms`);
        await page.waitForTimeout(50);
        if (pending.size > 0) quietSince = Date.now();
      }
    },
  };
}

export function loadedWidth(img: Locator): Promise<number> {
  return img.evaluate((el) => {
    // The e2e project has no DOM types: an <img> read by the two fields used.
    const image = el as unknown as { complete: boolean; naturalWidth: number };
    return image.complete ? image.naturalWidth : 0;
  });
}

/** The error shown on the sign-in form (not a toast). */
export function signInError(page: Page) {
  return page.locator('form').getByRole('alert');
}

/**
 * Expects a toast (Mantine notification) with this text, then closes it, so that a later toast
 * with the same text is a new one.
 */
export async function expectToast(page: Page, text: string) {
  const toast = page
    .locator('.mantine-Notifications-root')
    .getByRole('alert')
    .filter({ hasText: text });
  await expect(toast).toBeVisible();
  // It closes itself after 2 s; closing it sooner saves the wait (and may lose that race).
  await toast
    .getByRole('button', { name: 'Close notification' })
    .click({ timeout: 1000 })
    .catch(() => undefined);
  // A pointer left on the toast (a click that lost the race) pauses its closing: move it away.
  await page.mouse.move(0, 0);
  await expect(toast).toHaveCount(0);
}

/**
 * Leaves a form dialog holding unsaved changes through its Cancel button, answering "Discard" to
 * the question it asks first.
 */
export async function cancelDiscarding(page: Page, dialog: Locator) {
  await dialog.getByRole('button', { name: 'Cancel' }).click();
  await page
    .getByRole('dialog', { name: 'Discard changes?' })
    .getByRole('button', { name: 'Discard' })
    .click();
  await expect(dialog).toBeHidden();
}

/** A real PNG of one colour, as a file to upload (`setInputFiles` or a multipart body). */
export async function pngFile(name: string, background: string, width = 400, height = 200) {
  const buffer = await sharp({ create: { width, height, channels: 3, background } })
    .png()
    .toBuffer();
  return { name, mimeType: 'image/png', buffer };
}

/**
 * The sign-in call for `account` (the first admin unless told; a form body, as the web app sends):
 * its bearer token and login id.
 */
export async function signInCall(
  request: APIRequestContext,
  account: { email: string; password: string } = ADMIN,
): Promise<{ token: string; loginId: string }> {
  const res = await request.post('/api/v1/auth/admin/login', {
    form: { email: account.email, password: account.password },
  });
  expect(res.ok(), await res.text()).toBe(true);
  return (await res.json()) as { token: string; loginId: string };
}

type ApiMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';
type FilePayload = { name: string; mimeType: string; buffer: Buffer };
type ApiBody =
  { form: Record<string, string> } | { multipart: Record<string, string | FilePayload> };
export type ApiCall = <T = { id: number }>(
  method: ApiMethod,
  path: string,
  body?: ApiBody,
) => Promise<T>;

/**
 * Calls the API (`/api/v1…`) as the first admin, for what a test needs but does not test; answers
 * the reply's `result`.
 */
export async function adminApi(request: APIRequestContext): Promise<ApiCall> {
  const { token } = await signInCall(request);
  return async <T>(method: ApiMethod, path: string, body?: ApiBody) => {
    const res = await request[method](`/api/v1${path}`, {
      headers: { Authorization: `Bearer ${token}` },
      ...body,
    });
    expect(res.ok(), `${method.toUpperCase()} ${path}: ${await res.text()}`).toBe(true);
    return ((await res.json()) as { result: T }).result;
  };
}

/** A new master app, through the API. */
export async function createMasterApp(request: APIRequestContext, name: string) {
  const api = await adminApi(request);
  return api<{ id: number; name: string }>('post', '/master-app', { form: { name } });
}

/**
 * A poster of one app, uploaded through the API as the web app does: its image and thumbnail are
 * stored where the server keeps media (disk or S3), so the lists show it like any other. A spec
 * that needs what no upload sets (another uploader, a download count) writes it by SQL after.
 * Every such poster shares one small image. Answers its id.
 */
export async function createPoster(
  api: ApiCall,
  poster: { masterAppId: number; categoryId: number; specialDayId?: number },
): Promise<number> {
  const { id } = await api('post', PATHS.posterCreateOne(poster.categoryId), {
    multipart: {
      file: await pngFile('seeded-poster.png', '#3d7a5c', 120, 180),
      masterAppId: String(poster.masterAppId),
      position: 'LEFT',
      topDefNum: '1',
      selfDefNum: '1',
      bottomDefNum: '1',
      ...(poster.specialDayId === undefined ? {} : { specialDayId: String(poster.specialDayId) }),
    },
  });
  return id;
}

/**
 * Opens a row's "Actions for …" menu and picks an action; `scope` is the page, or the row or card
 * to find the menu button in.
 */
export async function rowAction(scope: Page | Locator, label: string, action: string) {
  const button = scope.getByRole('button', { name: `Actions for ${label}`, exact: true });
  // The menu opens in a portal, outside the row: a locator's page holds it.
  const page = 'page' in scope ? scope.page() : scope;
  const item = page.getByRole('menuitem', { name: action, exact: true });
  // A click that lands while the list is still settling after a navigation can be lost (seen once
  // in 63 tests, coming back to a list from a detail screen): open the menu until it is open.
  await expect(async () => {
    if (!(await item.isVisible())) await button.click();
    await expect(item).toBeVisible({ timeout: 2000 });
  }).toPass({ timeout: 15_000 });
  await item.click();
}

/**
 * Changes a row's status with its one-click status menu (its button reads "Status of <subject>:
 * <label>. Change") and waits for the server's answer and the new status in the row.
 */
export async function changeStatusFromMenu(page: Page, subject: string, from: string, to: string) {
  const button = (label: string) =>
    page.getByRole('button', { name: `Status of ${subject}: ${label}. Change`, exact: true });
  await button(from).click();
  await page.getByRole('menuitem', { name: to, exact: true }).click();
  await expectToast(page, 'Status Updated Successfully');
  await expect(button(to)).toBeVisible();
}

/** The list's footer: "1–20 of 1,234", or "0 of 0". */
export function listRange(page: Page) {
  return page.getByTestId('list-range');
}

/**
 * Runs axe on the page as it is now (WCAG 2.0 and 2.1, levels A and AA) and fails listing each
 * violated rule with the elements that break it. `within` (a CSS selector) checks only that part,
 * e.g. an open dialog. Transitions are let finish first, so a dialog fading in is not measured
 * half transparent.
 */
export async function expectNoA11yViolations(page: Page, within?: string) {
  // The e2e project has no DOM types: the document read by the one call used. Endless animations
  // (loaders) are not waited for.
  type Doc = {
    getAnimations(): {
      playState: string;
      effect: { getTiming(): { iterations?: number } } | null;
    }[];
  };
  await page.waitForFunction(() =>
    (globalThis as unknown as { document: Doc }).document
      .getAnimations()
      .every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity),
  );
  let axe = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa']);
  if (within) axe = axe.include(within);
  const { violations } = await axe.analyze();
  const report = violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'no impact'}): ${v.help} — ${v.helpUrl}\n` +
      v.nodes
        .map(
          (n) =>
            `    at ${n.target.join(' ')}: ${n.html.slice(0, 160)}\n` +
            `      ${(n.failureSummary ?? '').replace(/\n\s*/g, ' ')}`,
        )
        .join('\n'),
  );
  expect(report, `accessibility violations on ${new URL(page.url()).pathname}`).toEqual([]);
}

/**
 * Every test fails when a page it opened logged a console error or warning, or threw: the console
 * stays clean on every screen. `allow` lets one test expect a message it causes on purpose (a
 * request answered 4xx that the test makes happen), with the reason.
 */
export type ConsoleGuard = {
  allow: (message: RegExp, reason: string) => void;
  /**
   * The browser's "Failed to load resource" line for a call answered `status` on purpose, to an
   * API path starting with `path`.
   */
  allowStatus: (status: number, path: string, reason: string) => void;
};

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

// Playwright reads which fixtures a fixture needs from its first parameter, which must be an object
// pattern even when empty.
/* eslint-disable no-empty-pattern */
export const test = base.extend<{ consoleGuard: ConsoleGuard }, { sql: Sql }>({
  baseURL: async ({}, use) => {
    await use(required(ENV.baseUrl));
  },
  consoleGuard: [
    async ({ context }, use) => {
      const logged: string[] = [];
      context.on('console', (message) => {
        if (message.type() !== 'error' && message.type() !== 'warning') return;
        const { url, lineNumber } = message.location();
        logged.push(`${message.type()}: ${message.text()}${url ? ` (${url}:${lineNumber})` : ''}`);
      });
      context.on('weberror', (error) => logged.push(`uncaught: ${error.error().message}`));
      const allowed: { message: RegExp; reason: string }[] = [
        {
          // Seen only with tracing on (the config keeps traces of failures), never in the app.
          message: /^error: Connecting to 'blob:.*violates .*"connect-src 'self'"/s,
          reason: 'Playwright’s trace snapshots read blob: images (a preview) from the page',
        },
      ];
      const allow = (message: RegExp, reason: string) => allowed.push({ message, reason });
      await use({
        allow,
        allowStatus: (status, path, reason) =>
          allow(
            new RegExp(`status of ${status} \\(.*?\\) \\(\\S*?/api/v1${escapeRegExp(path)}`),
            reason,
          ),
      });
      const unexpected = logged.filter((line) => !allowed.some((a) => a.message.test(line)));
      expect(unexpected, 'console errors and warnings on the pages this test opened').toEqual([]);
    },
    { auto: true },
  ],
  sql: [
    async ({}, use) => {
      const { sql, close } = await openSql();
      try {
        await use(sql);
      } finally {
        await close();
      }
    },
    { scope: 'worker' },
  ],
});
/* eslint-enable no-empty-pattern */
