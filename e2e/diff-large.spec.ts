// A 10,000-line diff on the phone: every line reachable by scrolling, yet never
// more than 2,000 row elements in the DOM (DIFFVIEW-8).
import { test, expect } from './fixtures';
import { bigChange, openTask, requestApproval, startTask } from './task-setup';

test('DIFFVIEW-8: a 10,000-line diff scrolls end to end with at most 2,000 row elements in the DOM', async ({ paired: page, relayEnv }) => {
  test.setTimeout(120_000); // ~100 scroll steps with software rendering on a loaded 2-core machine
  const task = startTask(relayEnv, 'BIG-1', 'Generated constants');
  requestApproval(relayEnv, task, bigChange());
  await openTask(page, relayEnv, task);
  const total = Number(await page.getByTestId('diff-rows').getAttribute('data-total'));
  expect(total).toBeGreaterThan(10_000);
  const seen = await page.evaluate(async () => {
    const count = () => document.querySelectorAll('[data-testid="diff-row"]').length;
    const frame = () => new Promise((r) => requestAnimationFrame(() => r(null)));
    let max = count();
    let last = 0;
    for (let y = 0; y < document.documentElement.scrollHeight; y += Math.round(innerHeight * 2)) {
      window.scrollTo(0, y);
      await frame();
      await frame();
      max = Math.max(max, count());
      if (window.scrollY === last && y > 0) break;
      last = window.scrollY;
    }
    window.scrollTo(0, document.documentElement.scrollHeight);
    await frame();
    await frame();
    return { max: Math.max(max, count()) };
  });
  expect(seen.max).toBeGreaterThan(10);
  expect(seen.max).toBeLessThanOrEqual(2000);
  await expect(page.locator('[data-anchor="line:src/gen/part-9.ts:1000"]')).toBeVisible();
});
