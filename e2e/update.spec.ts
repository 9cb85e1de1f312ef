// A new build's worker waits until the person chooses to reload.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect, controlledByWorker } from './fixtures';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow' });

/** Whether the page requested the workbox-window chunk, and if so only after its load event started (FASTPAIR-3). */
function workboxAfterLoad(page: Page): Promise<'after load' | 'before load' | 'not requested'> {
  return page.evaluate(() => {
    const chunk = performance.getEntriesByType('resource').find((e) => /\/workbox-window\.[0-9a-f]+\.js$/.test(e.name));
    const nav = performance.getEntriesByType('navigation')[0] as PerformanceNavigationTiming;
    if (!chunk) return 'not requested';
    return chunk.startTime >= nav.loadEventStart && nav.loadEventStart > 0 ? 'after load' : 'before load';
  });
}

test.use({ copyApp: true });

test('APP-14, FASTPAIR-3: when a new version is installed the app offers a reload (workbox-window, loaded after the load event), and reloading runs the new worker', async ({ paired: page, relayEnv }) => {
  await controlledByWorker(page);
  await expect.poll(() => workboxAfterLoad(page)).toBe('after load');
  const before = await page.evaluate(() => navigator.serviceWorker.controller!.scriptURL);
  await expect(page.getByTestId('update-ready')).toHaveCount(0);

  appendFileSync(path.join(relayEnv.appDir, 'sw.js'), '\n// a new build\n');
  await page.evaluate(async () => (await navigator.serviceWorker.getRegistration())!.update());
  await expect(page.getByTestId('update-ready')).toBeVisible();
  const reloaded = page.waitForEvent('load');
  await page.getByTestId('update-ready').getByRole('button', { name: 'Reload' }).click();
  await reloaded;
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  await expect(page.getByTestId('update-ready')).toHaveCount(0);
  await expect.poll(() => workboxAfterLoad(page)).toBe('after load');
  const scripts = await page.evaluate(async () => {
    const reg = (await navigator.serviceWorker.getRegistration())!;
    return { waiting: Boolean(reg.waiting), active: reg.active?.scriptURL };
  });
  expect(scripts).toEqual({ waiting: false, active: before });
});
