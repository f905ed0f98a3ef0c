/**
 * End-to-end tests in Chromium against the real server and the built web app.
 *
 *   E2E_DB=sqlite|postgres npx playwright test -c e2e/playwright.config.ts
 *
 * The global setup starts one server on a fresh database for the whole run (see global-setup.ts);
 * the tests find it through the environment (see fixtures.ts). Build the web app first.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
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
      executablePath: '/usr/bin/chromium',
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
