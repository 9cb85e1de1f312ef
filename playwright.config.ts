// Playwright for the PWA: Debian's chromium, a phone (Pixel 7) and a desktop
// project. Each test starts its own real relay (e2e/fixtures.ts) serving the built
// app from out/ — build it first with `node scripts/build-app.mjs`.
import { defineConfig, devices } from '@playwright/test';

const launchOptions = {
  executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
  args: [
    '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
    '--disable-component-update', '--disable-sync', '--no-first-run',
  ],
};

export default defineConfig({
  testDir: 'e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './e2e/global-setup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1, // 2 shared cores: one browser at a time
  // ONE retry, for a known order-dependent failure not yet understood: in full runs the ASK-9 tests of
  // e2e/mcp-push.spec.ts miss a push ("no matching push within 30000 ms", 1–2 tests in 2 of 2 runs in
  // session 34; PUSH-4 did the same in session 33) and pass alone every time. A retried test is listed as
  // "flaky" in the output. Remove this once the cause is found (see the session 34 closing note).
  retries: 1,
  reporter: [['list']],
  use: { trace: 'retain-on-failure', serviceWorkers: 'allow', launchOptions },
  projects: [
    { name: 'phone', use: { ...devices['Pixel 7'], launchOptions } },
    { name: 'desktop', use: { ...devices['Desktop Chrome'], launchOptions } },
  ],
});
