// The line number is the phone's tap target for a note on its line (CARD-4, DIFFVIEW-7):
// at least 44 × 44 CSS px on a touch screen, never overlapping its neighbours', so a tap
// anywhere on it — its middle or its edges — annotates exactly that line, and the code
// keeps its size.
import { test, expect } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';

const LINES = Array.from({ length: 12 }, (_, i) => `step${i + 1}();`).join('\n') + '\n';

test('CARD-4: on a phone each line number is a 44 px target of its own, and a tap at its middle or edge notes that exact line', async ({ paired: page, relayEnv, isMobile }) => {
  test.skip(!isMobile, 'the touch layout is for phones');
  const task = startTask(relayEnv, 'T-44', 'Twelve steps');
  requestApproval(relayEnv, task, { 'src/steps.js': LINES });
  await openTask(page, relayEnv, task);
  await expect(page.getByTestId('diff-hint')).toBeVisible();
  const gutter = (n: number) => page.locator(`[data-testid="diff-line"][data-anchor="line:src/steps.js:${n}"] [data-testid="diff-gutter"]`);
  await expect(gutter(12)).toBeVisible();

  const boxes = [];
  for (let n = 1; n <= 12; n++) boxes.push((await gutter(n).boundingBox())!);
  for (const [i, box] of boxes.entries()) {
    expect.soft(box.height, `line ${i + 1} height`).toBeGreaterThanOrEqual(44);
    expect.soft(box.width, `line ${i + 1} width`).toBeGreaterThanOrEqual(44);
    if (i > 0) expect.soft(box.y, `line ${i + 1} starts below line ${i}`).toBeGreaterThanOrEqual(boxes[i - 1]!.y + boxes[i - 1]!.height - 0.5);
  }
  // The code keeps a readable size, and a one-line row is no taller than its target needs.
  const code = page.locator('[data-testid="diff-line"][data-anchor="line:src/steps.js:5"] .diff-code');
  expect(await code.evaluate((el) => parseFloat(getComputedStyle(el).fontSize))).toBeGreaterThanOrEqual(13);
  expect(boxes[4]!.height).toBeLessThanOrEqual(48);

  // Taps at the middle, near the bottom edge and near the top edge each note their own line.
  for (const [n, where] of [[5, 0.5], [3, 0.95], [4, 0.05], [9, 0.5]] as const) {
    // Centred, so no fixed bar covers it: what is under the finger is the person's target.
    await gutter(n).evaluate((el) => el.scrollIntoView({ block: 'center' }));
    const box = (await gutter(n).boundingBox())!;
    await page.touchscreen.tap(box.x + box.width / 2, box.y + box.height * where);
    await expect(page.getByTestId('annotate-anchor')).toHaveValue(`line:src/steps.js:${n}`);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('annotate-sheet')).toHaveCount(0);
  }
});

test('CARD-4: with a mouse the rows stay compact and a click on a number still notes its line', async ({ paired: page, relayEnv, isMobile }) => {
  test.skip(isMobile, 'the compact rows are for a fine pointer');
  const task = startTask(relayEnv, 'T-45', 'Twelve steps');
  requestApproval(relayEnv, task, { 'src/steps.js': LINES });
  await openTask(page, relayEnv, task);
  const gutter = page.locator('[data-testid="diff-line"][data-anchor="line:src/steps.js:7"] [data-testid="diff-gutter"]');
  expect((await gutter.boundingBox())!.height).toBeLessThan(30);
  await gutter.click();
  await expect(page.getByTestId('annotate-anchor')).toHaveValue('line:src/steps.js:7');
});
