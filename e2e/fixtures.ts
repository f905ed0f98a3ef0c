/**
 * The tests' `test`: `baseURL` is the server the global setup started, `sql` reaches its database
 * directly (SQLite file or PostgreSQL), and a few helpers do what a user does on every visit.
 */
import { randomBytes } from 'node:crypto';
import { test as base, expect, type Locator, type Page } from '@playwright/test';
import Database from 'better-sqlite3';
import pg from 'pg';
import { ADMIN, ENV } from './settings.ts';

export { expect };
export { ADMIN };

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
 * A new, active SUPER_ADMIN that signs in with ADMIN.password: its password hash is copied from
 * the first admin (the server has no call to create back-office accounts yet), so tests that
 * change a password leave the first admin alone.
 */
export async function newBackOfficeAccount(sql: Sql): Promise<{ email: string; password: string }> {
  const email = `e2e-${randomBytes(5).toString('hex')}@e2e.test`;
  const { password_hash } = await sql.one<{ password_hash: string }>(
    'select password_hash from accounts where lower(email) = ?',
    [ADMIN.email.toLowerCase()],
  );
  const at = now();
  await sql.all(
    `insert into accounts (role, name, email, password_hash, status, created_at, updated_at)
     values ('SUPER_ADMIN', ?, ?, ?, 'ACTIVE', ?, ?)`,
    ['E2E account', email, password_hash, at, at],
  );
  return { email, password: ADMIN.password };
}

/** Fills and sends the sign-in form (the page must show it). */
export async function submitSignIn(page: Page, email: string, password: string) {
  await expect(page.getByRole('heading', { name: 'Master Admin', level: 1 })).toBeVisible();
  await page.getByLabel('Email or phone number').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** Opens the sign-in screen, signs in and waits for the dashboard. */
export async function signIn(
  page: Page,
  email: string = ADMIN.email,
  password: string = ADMIN.password,
) {
  await page.goto('/auth/sign-in');
  await submitSignIn(page, email, password);
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('heading', { name: 'Dashboard', level: 2 })).toBeVisible();
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
  await expect(toast).toHaveCount(0);
}

// Playwright reads which fixtures a fixture needs from its first parameter, which must be an object
// pattern even when empty.
/* eslint-disable no-empty-pattern */
export const test = base.extend<object, { sql: Sql }>({
  baseURL: async ({}, use) => {
    await use(required(ENV.baseUrl));
  },
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
