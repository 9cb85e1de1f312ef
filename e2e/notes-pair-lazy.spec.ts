// What the Pair screen downloads (LAZY-1, LAZY-2): a new phone gets the screen and
// the app frame, not the client core (socket, outbox, signing) nor the wire's zod
// schemas; those load when the person presses Pair. Real relay, real Chromium.
import type { Page, Response } from '@playwright/test';
import { test, expect, pairThroughScreen } from './fixtures';

/** Markers of what Pair must not download: zod's registry, the socket's auth message, the outbox's store. */
const NOT_ON_PAIR = ['__zod_globalRegistry', 'commandr-auth:v1', 'commandr-outbox'];

function scriptBodies(page: Page): Promise<string>[] {
  const bodies: Promise<string>[] = [];
  page.on('response', (r: Response) => {
    if (r.request().resourceType() === 'script') bodies.push(r.text().catch(() => ''));
  });
  return bodies;
}

test('LAZY-1: a new phone on Pair loads no client core and no zod; pressing Pair loads them, pairs, and the Inbox goes live', async ({ page, relayEnv }) => {
  const bodies = scriptBodies(page);
  await page.goto(`${relayEnv.url}/pair#code=${relayEnv.pairingCode()}`);
  await expect(page.getByTestId('pair-form')).toBeVisible();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'unpaired');
  await expect(page.getByTestId('nav-inbox')).toHaveCount(0);
  // The service worker's helper is the last thing Pair loads on its own.
  await page.waitForLoadState('networkidle');
  const onPair = await Promise.all(bodies);
  expect(onPair.length).toBeGreaterThan(0);
  for (const marker of NOT_ON_PAIR) expect(onPair.filter((b) => b.includes(marker)), marker).toHaveLength(0);

  const count = bodies.length;
  await page.getByTestId('pair-name').fill('Lazy Phone');
  await page.getByTestId('pair-submit').click();
  await expect(page).toHaveURL(`${relayEnv.url}/`);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  const after = (await Promise.all(bodies.slice(count))).join('\n');
  for (const marker of NOT_ON_PAIR) expect(after, marker).toContain(marker);
});

test('LAZY-1: a paired device that opens Pair still connects (the core loads when there is a key)', async ({ paired: page, relayEnv }) => {
  await page.goto(`${relayEnv.url}/pair`);
  // It is told it is paired (APP-1) rather than offered the form again.
  await expect(page.getByTestId('pair-already')).toBeVisible();
  await expect(page.getByTestId('pair-form')).toBeHidden();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  await expect(page.getByTestId('nav-inbox')).toBeVisible();
});

test('LAZY-2: the frame\'s links move inside the app without a page load; a back link too', async ({ page, relayEnv }) => {
  await pairThroughScreen(page, relayEnv, 'Nav Phone');
  await page.evaluate(() => { (window as { __sameDocument?: boolean }).__sameDocument = true; });
  await page.getByTestId('nav-settings').click();
  await expect(page).toHaveURL(`${relayEnv.url}/settings`);
  await expect(page.getByTestId('this-device-name')).toBeVisible();
  await expect(page.getByTestId('nav-settings')).toHaveAttribute('aria-current', 'page');
  await page.getByTestId('nav-commanders').click();
  await expect(page).toHaveURL(`${relayEnv.url}/commanders`);
  await page.getByTestId('nav-inbox').click();
  await expect(page).toHaveURL(`${relayEnv.url}/`);
  expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');

  await page.goto(`${relayEnv.url}/commander?id=nobody`);
  await page.evaluate(() => { (window as { __sameDocument?: boolean }).__sameDocument = true; });
  await page.getByTestId('back').click();
  await expect(page).toHaveURL(`${relayEnv.url}/commanders`);
  expect(await page.evaluate(() => (window as { __sameDocument?: boolean }).__sameDocument)).toBe(true);
});
