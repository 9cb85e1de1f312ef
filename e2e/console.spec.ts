// No screen logs an error (hydration included) or loads anything that 404s (UX-12),
// walked through every screen of the demo workspace on a real relay.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
// The service worker is what this spec tests (or needs: push, offline, updates); the others run without it (SUITE-5).
test.use({ serviceWorkers: 'allow' });

test.use({ demo: true });

function watch(page: Page): { problems: string[] } {
  const problems: string[] = [];
  page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('response', (r) => { if (r.status() >= 400) problems.push(`${r.status()} ${r.url()}`); });
  return { problems };
}

test('UX-12: every screen loads with no console error, no hydration warning and no 404', async ({ page, relayEnv }) => {
  const seen = watch(page);
  await page.goto(`${relayEnv.url}/pair`);
  await expect(page.getByTestId('pair-name')).toBeVisible();
  // The app has started (its guess is the name's placeholder): a fragment navigation while Next's
  // router starts is undone by the router's first replaceState, and the link's code with it.
  await expect(page.getByTestId('pair-name')).toHaveAttribute('placeholder', /\S/);
  await page.goto(`${relayEnv.url}/pair#code=${relayEnv.pairingCode()}`);
  await page.getByTestId('pair-name').fill('Console phone');
  await page.getByTestId('pair-submit').click();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  await expect(page.getByTestId('task-card').first()).toBeVisible();
  const card = page.getByTestId('group-approval').getByTestId('task-card').first();
  await page.goto(`${relayEnv.url}/task?repo=${await card.getAttribute('data-repo')}&id=${await card.getAttribute('data-task')}`);
  await expect(page.getByTestId('diff-view')).toBeVisible({ timeout: 20_000 });
  await page.goto(`${relayEnv.url}/commanders`);
  await page.getByTestId('cmdr-card').first().click();
  await expect(page.getByTestId('commander')).toBeVisible();
  await page.goto(`${relayEnv.url}/settings`);
  await expect(page.getByTestId('this-device-name')).toBeVisible();
  for (const path of ['/', '/commanders', '/settings']) {
    await page.goto(`${relayEnv.url}${path}`);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  }
  expect(seen.problems).toEqual([]);
  // Browsers also ask for /favicon.ico by themselves (Chromium does after some navigations): it is there.
  const favicon = await page.request.get(`${relayEnv.url}/favicon.ico`);
  expect(favicon.status()).toBe(200);
  expect(favicon.headers()['content-type']).toBe('image/x-icon');
  expect([...(await favicon.body()).subarray(0, 4)], 'an ICONDIR header').toEqual([0, 0, 1, 0]);
});
