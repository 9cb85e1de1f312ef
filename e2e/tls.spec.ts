// The relay's own certificate (--tls-cert/--tls-key) in a real Chromium: the app and its
// scripts come over HTTP/2 on one connection, and the socket (HTTP/1.1 upgrade) still
// goes live beside it (SERVE-1).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from '@playwright/test';
import { createRelay } from '../relay/server';
import { createPairingCode } from '../relay/devices/pairing';
import { makeTestCertificate } from '../test/helpers/certificate';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow' });

test('SERVE-1: over the relay\'s own TLS a cold load gets the page and every script over HTTP/2; pairing and the live socket work beside it', async ({ browser }) => {
  const tmp = mkdtempSync(path.join(tmpdir(), 'commandr-e2e-tls-'));
  const tls = makeTestCertificate();
  const relay = await createRelay({
    port: 0, host: '127.0.0.1', dataDir: path.join(tmp, 'data'), repos: [], registryFile: path.join(tmp, 'no-registry'),
    demo: false, appDir: path.resolve(__dirname, '..', 'out'), tls,
  });
  // No service worker: every file of this load comes from the network.
  const context = await browser.newContext({ ignoreHTTPSErrors: true, serviceWorkers: 'block' });
  try {
    expect(relay.url).toMatch(/^https:/);
    const page = await context.newPage();
    await page.goto(`${relay.url}/pair#code=${createPairingCode(relay.dataDir).code}`);
    await page.getByTestId('pair-name').fill('TLS Phone');
    const loaded = () => page.evaluate(() => [
      ...performance.getEntriesByType('navigation'),
      ...performance.getEntriesByType('resource').filter((e) => e.name.includes('/_next/static/')),
    ].map((e) => ({ name: new URL(e.name).pathname, protocol: (e as PerformanceResourceTiming).nextHopProtocol })));
    // The page paints, and its field takes input, before its scripts have all come (FIRST-10):
    // wait for them, then every one of them came over HTTP/2.
    await expect.poll(async () => (await loaded()).filter((l) => l.name.endsWith('.js')).length).toBeGreaterThan(3);
    expect((await loaded()).filter((l) => l.protocol !== 'h2')).toEqual([]);

    await page.getByTestId('pair-submit').click();
    await expect(page).toHaveURL(`${relay.url}/`);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  } finally {
    await context.close();
    await relay.close();
    rmSync(tmp, { recursive: true, force: true });
  }
});
