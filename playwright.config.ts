// Playwright for the PWA: Debian's Chromium (its headless shell, and the full browser for the
// specs about push notifications: e2e/browsers.ts, SUITE-6), a phone (Pixel 7) and a desktop
// project. Each test starts its own real relay (e2e/fixtures.ts) serving the built
// app from out/ — build it first with `node scripts/build-app.mjs`.
import { defineConfig, devices } from '@playwright/test';
import { playwrightWorkers } from './test/suite-workers';
import { launchOptions as suiteLaunchOptions, traceMode } from './e2e/browsers';

const launchOptions = suiteLaunchOptions();

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  // Hang bounds, not speed targets: every test waits on the event it needs, and the suite must
  // pass with two CPU-bound processes beside it on 2 cores (SUITE-1, COMMANDR_TEST_HOGS=2).
  timeout: 120_000,
  expect: { timeout: 20_000 },
  // A browser per core (SUITE-4): each test has its own relay, temp dirs and browser context, and
  // much of a test's time is waiting on the relay and the page. A file's tests run in order.
  fullyParallel: false,
  workers: playwrightWorkers(),
  reporter: [['list']],
  // No service worker unless a spec asks for one (SUITE-5): installing it precaches the whole app
  // (105 files) in every fresh context, a fifth of the browser's CPU per test. The specs about the
  // worker, push, offline and updates opt in with test.use({ serviceWorkers: 'allow' }).
  // No trace unless COMMANDR_TEST_TRACE=1 (SUITE-7, e2e/browsers.ts): recording costs a quarter of the CPU.
  use: { trace: traceMode(), screenshot: 'only-on-failure', serviceWorkers: 'block', launchOptions },
  projects: [
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions } },
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions } },
  ],
});
