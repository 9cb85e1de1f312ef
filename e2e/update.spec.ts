// A new build's worker waits until the person chooses to reload.
import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect, controlledByWorker } from './fixtures';

test.use({ copyApp: true });

test('APP-14: when a new version is installed the app offers a reload, and reloading runs the new worker', async ({ paired: page, relayEnv }) => {
  await controlledByWorker(page);
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
  const scripts = await page.evaluate(async () => {
    const reg = (await navigator.serviceWorker.getRegistration())!;
    return { waiting: Boolean(reg.waiting), active: reg.active?.scriptURL };
  });
  expect(scripts).toEqual({ waiting: false, active: before });
});
