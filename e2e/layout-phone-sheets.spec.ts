// Sheets and small controls on a small phone and in landscape (ROOM-10, ROOM-11): "Add photo" is a
// 44 px target that nothing overlaps, the Run agent sheet's Start stays in view, and the demo
// commander's tool lines are 44 px targets.
import type { Page } from '@playwright/test';
import { test, expect, gapBetween } from './fixtures';

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
