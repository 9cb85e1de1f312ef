// Sheets and small controls on a small phone and in landscape (ROOM-10, ROOM-11): "Add photo" is a
// 44 px target that nothing overlaps, the Run agent sheet's Start stays in view, and the demo
// commander's tool lines are 44 px targets.
import type { Page } from '@playwright/test';
import { test, expect, controlledByWorker, gapBetween } from './fixtures';

async function openRunAgentSheet(page: Page): Promise<void> {
  await page.getByTestId('task-card').filter({ hasText: 'SH-1' }).click();
  await page.getByTestId('task-actions').getByTestId('run-agent').click();
  await expect(page.getByTestId('run-agent-sheet')).toBeVisible();
}

test('ROOM-10: the note sheet\'s "Add photo" is a 44 px target and "Send note" does not cover it', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('SH-1', 'A task to note');
  await page.getByTestId('task-card').filter({ hasText: 'SH-1' }).locator('..').getByTestId('task-menu').click();
  await page.getByTestId('task-note').click();
  const add = page.getByTestId('note-photo-add');
  await expect(add).toBeVisible();
  expect((await add.boundingBox())!.height).toBeGreaterThanOrEqual(44);
  expect(await gapBetween(add, page.getByTestId('note-send'))).toBeGreaterThanOrEqual(0);
});

for (const viewport of [{ width: 320, height: 568 }, { width: 863, height: 360 }]) {
  test(`ROOM-11: at ${viewport.width}×${viewport.height} the Run agent sheet's Start and Cancel stay in view`, async ({ paired: page, relayEnv }) => {
    await page.setViewportSize(viewport);
    relayEnv.addPacket('SH-1', 'A task to run');
    await openRunAgentSheet(page);
    await expect(page.getByTestId('run-agent-start')).toBeInViewport({ ratio: 1 });
    await expect(page.getByTestId('run-agent-sheet').getByRole('button', { name: 'Cancel' })).toBeInViewport({ ratio: 1 });
  });
}

test.describe('the demo commander', () => {
  test.use({ demo: true });
  test('ROOM-10: a commander\'s tool lines that open are 44 px targets', async ({ paired: page }) => {
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-card').first().click();
    const lines = page.locator('details[data-testid="chat-tool"] > summary');
    await expect(lines.first()).toBeVisible();
    for (const box of await lines.evaluateAll((els) => els.map((e) => e.getBoundingClientRect().height))) expect(box).toBeGreaterThanOrEqual(44);
  });
});

for (const { viewport, sticky } of [{ viewport: { width: 863, height: 360 }, sticky: false }, { viewport: { width: 412, height: 839 }, sticky: true }]) {
  test(`ROOM-11: at ${viewport.width}×${viewport.height} the header ${sticky ? 'stays at the top' : 'scrolls away, leaving the content room'}`, async ({ paired: page, relayEnv }) => {
    await page.setViewportSize(viewport);
    for (let i = 0; i < 12; i++) relayEnv.addPacket(`SC-${i}`, `A task to scroll past ${i}`);
    await expect(page.getByTestId('task-card')).toHaveCount(12);
    await page.evaluate(() => window.scrollTo(0, 400));
    const header = page.locator('header.shell-header');
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBeGreaterThan(100);
    const box = (await header.boundingBox())!;
    if (sticky) expect(box.y).toBe(0);
    else expect(box.y + box.height).toBeLessThanOrEqual(0);
  });
}

test.describe('the header on a 320 px phone', () => {
  // The worker: offline, the app's code for a sheet comes from its cache, as on an installed phone (SUITE-5).
  test.use({ demo: true, serviceWorkers: 'allow' });

  test('ROOM-12: offline with a message queued, the back link, "Synced …" and the badge sit side by side inside the screen, none over another', async ({ paired: page, context }) => {
    await page.setViewportSize({ width: 320, height: 568 });
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-card').first().click();
    await expect(page.getByTestId('commander')).toBeVisible();
    await context.setOffline(true);
    await page.getByTestId('cmdr-message').fill('Sent from the train');
    await page.getByTestId('cmdr-send').click();
    const badge = page.getByTestId('connection-badge');
    await expect(badge).toHaveText('Offline · 1 queued');
    await expect(page.getByTestId('last-synced')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('header-320-offline.png') });
    const boxes = await page.evaluate(() => {
      const box = (sel: string) => { const r = document.querySelector(sel)!.getBoundingClientRect(); return { left: r.left, right: r.right }; };
      const label = document.querySelector('.shell-back-label, [data-testid="back"]')!;
      // What the person sees of the synced label: its text may not spill over its box.
      const synced = document.querySelector<HTMLElement>('[data-testid="last-synced"]')!;
      return { back: box('[data-testid="back"]'), synced: box('[data-testid="last-synced"]'), badge: box('[data-testid="connection-badge"]'),
        width: document.documentElement.clientWidth, syncedSpills: synced.scrollWidth > synced.clientWidth + 1, label: label.textContent };
    });
    expect(boxes.badge.right, 'the badge ends inside the screen').toBeLessThanOrEqual(boxes.width);
    expect(boxes.synced.right, '"Synced …" ends before the badge').toBeLessThanOrEqual(boxes.badge.left);
    expect(boxes.back.right, 'the back link ends before "Synced …"').toBeLessThanOrEqual(boxes.synced.left);
    expect(boxes.syncedSpills, '"Synced …" keeps its text in its box').toBe(false);
    await expect(page.getByTestId('back')).toHaveAccessibleName('Back to Commanders');
  });

  test('ROOM-12: on the Inbox, offline with two notes queued, "Commandr", "Synced …" and the badge fit the 320 px screen side by side', async ({ paired: page, context }) => {
    await controlledByWorker(page); // the note sheet's code comes from the worker's cache with no network
    await context.setOffline(true);
    await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'offline');
    for (const text of ['First note', 'Second note']) {
      await page.getByTestId('task-menu').first().click();
      await page.getByTestId('task-note').click();
      await page.getByTestId('note-body').fill(text);
      await page.getByTestId('note-send').click();
      await expect(page.getByTestId('note-sheet')).toHaveCount(0);
    }
    await page.setViewportSize({ width: 320, height: 568 });
    await expect(page.getByTestId('connection-badge')).toHaveText('Offline · 2 queued');
    await expect(page.getByTestId('last-synced')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('inbox-header-320-offline.png') });
    const boxes = await page.evaluate(() => {
      const box = (sel: string) => { const r = document.querySelector(sel)!.getBoundingClientRect(); return { left: r.left, right: r.right }; };
      const synced = document.querySelector<HTMLElement>('[data-testid="last-synced"]')!;
      return { title: box('.shell-title'), synced: box('[data-testid="last-synced"]'), badge: box('[data-testid="connection-badge"]'),
        width: document.documentElement.clientWidth, scrollWidth: document.documentElement.scrollWidth, syncedSpills: synced.scrollWidth > synced.clientWidth + 1 };
    });
    expect(boxes.syncedSpills, '"Synced …" keeps its text in its box, off the badge').toBe(false);
    expect(boxes.scrollWidth, 'the page does not scroll sideways').toBeLessThanOrEqual(boxes.width);
    expect(boxes.badge.right, 'the badge ends inside the screen').toBeLessThanOrEqual(boxes.width);
    expect(boxes.synced.right, '"Synced …" ends before the badge').toBeLessThanOrEqual(boxes.badge.left);
    expect(boxes.title.right, '"Commandr" ends before "Synced …"').toBeLessThanOrEqual(boxes.synced.left);
  });
});
