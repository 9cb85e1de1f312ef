// A real relay (temp data dir, demo workspace) and a Chromium phone paired through
// the real Pair screen — shared by bench/app.ts and scripts/screenshots.ts.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, devices, type Browser, type BrowserContext, type Page } from '@playwright/test';
import { createRelay, type Relay } from '../relay/server';
import { createPairingCode } from '../relay/devices/pairing';

export const CHROMIUM_ARGS = [
  '--no-sandbox', '--disable-gpu', '--disable-dev-shm-usage', '--disable-background-networking',
  '--disable-component-update', '--disable-sync', '--no-first-run',
];

export interface AppSession {
  relay: Relay;
  browser: Browser;
  context: BrowserContext;
  page: Page;
  close(): Promise<void>;
}

export async function startAppSession(opts: { serviceWorkers?: 'allow' | 'block'; colorScheme?: 'light' | 'dark' } = {}): Promise<AppSession> {
  const root = path.resolve(__dirname, '..');
  const tmp = mkdtempSync(path.join(tmpdir(), 'commandr-app-'));
  const relay = await createRelay({
    port: 0, host: '127.0.0.1', dataDir: path.join(tmp, 'data'), repos: [], registryFile: path.join(tmp, 'no-registry'),
    demo: true, appDir: path.join(root, 'out'),
  });
  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: CHROMIUM_ARGS });
  const context = await browser.newContext({ ...devices['Pixel 7'], serviceWorkers: opts.serviceWorkers ?? 'block', colorScheme: opts.colorScheme ?? 'light' });
  const page = await context.newPage();
  await page.goto(`${relay.url}/pair#code=${createPairingCode(relay.dataDir).code}`);
  await page.getByTestId('pair-name').fill('Pixel 7');
  await page.getByTestId('pair-submit').click();
  await page.waitForURL(`${relay.url}/`);
  await page.getByTestId('connection-badge').and(page.locator('[data-state="live"]')).waitFor();
  return {
    relay, browser, context, page,
    async close() {
      await browser.close();
      await relay.close();
      rmSync(tmp, { recursive: true, force: true });
    },
  };
}
