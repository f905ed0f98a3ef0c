/**
 * End-to-end tests in Chromium against the real server and the built web app.
 *
 *   E2E_DB=sqlite|postgres npx playwright test -c e2e/playwright.config.ts
 *
 * The global setup starts one server on a fresh database for the whole run (see global-setup.ts);
 * the tests find it through the environment (see fixtures.ts). Build the web app first.
 */
import fs from 'node:fs';
import { defineConfig } from '@playwright/test';
import { DB_KIND } from './settings.ts';

/**
 * Specs that check the screens themselves (axe on every screen, the rich-text editor, image uploads
 * and their thumbnails) run on SQLite only: what they depend on in the server is the same on both
 * databases, and the server's suites run every call on each. On PostgreSQL the run keeps the flows
 * whose answers come from database-specific paths: sign-in and sessions, search, totals, bulk
 * changes, the dashboard's sums, posters, users and export.
 * (CI's two cores run both databases' suites one after the other; this keeps it within its time.)
 */
const SQLITE_ONLY = [
  'accessibility.spec.ts',
  // The apps API's calls run on both databases in the server's suites (app-api.test.ts); the
  // browser's part is the back-office's screens of what they did.
  'app-api.spec.ts',
  // The trash and the plan: their calls run on both databases in trash.test.ts and
  // planning.test.ts; the browser's part (Undo, the batch, a gap's shortcut) is the same on both.
  'planning.spec.ts',
  'trash.spec.ts',
  // Screens whose calls have no database-specific path the server's suites leave untested on
  // PostgreSQL: drafts and conflicts (versions.test.ts), forms, second factors and passkeys
  // (second-factor, passkeys tests), master apps, the small content areas, the dashboard's
  // layout (its sums stay in trends.spec.ts). Seven and a half minutes of CI's PostgreSQL run.
  'concurrency.spec.ts',
  'content-small.spec.ts',
  'dashboard.spec.ts',
  'forms.spec.ts',
  'master-apps.spec.ts',
  'security.spec.ts',
  'banners.spec.ts',
  'blogs-pages.spec.ts',
  'settings-notifications.spec.ts',
  // Staff grants, videos and the audit log: their calls run on both databases in staff.test.ts,
  // videos.test.ts, video-files.test.ts and audit.test.ts; the screens are the same on both.
  'audit.spec.ts',
  'staff.spec.ts',
  'videos.spec.ts',
];

/**
 * Debian's headless shell (package chromium-headless-shell: the same Chromium without the browser's
 * own window UI, which is what Playwright itself runs headless) when it is installed: measured
 * here, the SQLite suite's tests took 464 s in it against 538 s in the full browser. Else Debian's
 * Chromium.
 */
const CHROMIUM = ['/usr/bin/chromium-headless-shell', '/usr/bin/chromium'].find((path) =>
  fs.existsSync(path),
);

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  testIgnore: DB_KIND === 'postgres' ? SQLITE_ONLY : [],
  outputDir: 'test-results',
  globalSetup: './global-setup.ts',
  fullyParallel: false,
  workers: 1,
  retries: 0,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  expect: { timeout: 15_000 },
  reporter: 'list',
  use: {
    browserName: 'chromium',
    headless: true,
    viewport: { width: 1280, height: 800 },
    locale: 'en-US',
    timezoneId: 'UTC',
    // The app honours reduced motion (no transitions): less for Chromium to paint on two cores, and
    // nothing for a step to wait out. The dark-mode and accessibility checks see the same screens.
    reducedMotion: 'reduce',
    actionTimeout: 10_000,
    navigationTimeout: 15_000,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  projects: [{ name: 'chromium' }],
});
