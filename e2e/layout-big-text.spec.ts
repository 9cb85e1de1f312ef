// Layout on small phones and at large text: the tab bar's labels stay whole words, and
// Settings' rename row wraps instead of widening the page (APP-13, UX-10).
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

/** Text size as a phone's accessibility setting makes it: the root font at 200 %. */
async function bigText(page: Page): Promise<void> {
  await page.evaluate(() => { document.documentElement.style.fontSize = '200%'; });
}

/** For each tab: any word drawn on more than one line, a target under 44 px, or a label wider than its tab. */
async function navProblems(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const out: string[] = [];
    for (const link of document.querySelectorAll<HTMLElement>('.shell-nav a')) {
      const box = link.getBoundingClientRect();
      if (box.height < 44 || box.width < 44) out.push(`${link.textContent} is ${box.width.toFixed(0)}×${box.height.toFixed(0)} px`);
      if (box.right > document.documentElement.clientWidth + 0.5 || box.left < -0.5) out.push(`${link.textContent} is off screen (${box.left.toFixed(0)}–${box.right.toFixed(0)})`);
      const walker = document.createTreeWalker(link, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const text = node.textContent ?? '';
        for (const match of text.matchAll(/\S+/g)) {
          const range = document.createRange();
          range.setStart(node, match.index!);
          range.setEnd(node, match.index! + match[0].length);
          const lines = new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > 1) out.push(`"${match[0]}" is split over ${lines.size} lines`);
          const word = range.getBoundingClientRect();
          if (word.left < box.left - 0.5 || word.right > box.right + 0.5) out.push(`"${match[0]}" (${word.width.toFixed(0)} px) is wider than its tab (${box.width.toFixed(0)} px)`);
        }
      }
    }
    return out;
  });
}

for (const viewport of [{ width: 412, height: 915 }, { width: 375, height: 667 }, { width: 320, height: 640 }]) {
  test(`APP-13: at ${viewport.width} px wide, at normal and 200 % text, no tab label breaks inside a word and every tab is a 44 px target`, async ({ paired: page }) => {
    await page.setViewportSize(viewport);
    await expect(page.getByTestId('nav-commanders')).toBeVisible();
    expect(await navProblems(page)).toEqual([]);
    await bigText(page);
    expect(await navProblems(page)).toEqual([]);
  });
}

test('APP-13: Settings at 200 % text does not scroll sideways; the device name field wraps its Rename button below', async ({ paired: page }) => {
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('rename-input')).toBeVisible();
  await bigText(page);
  const sizes = await page.evaluate(() => ({
    page: document.scrollingElement!.scrollWidth,
    // Not innerWidth: a phone widens its layout viewport (innerWidth) to content that overflows.
    screen: document.documentElement.clientWidth,
    card: document.querySelector('[data-testid="this-device"]')!.getBoundingClientRect().right,
    input: document.querySelector('[data-testid="rename-input"]')!.getBoundingClientRect().right,
  }));
  expect(sizes.page).toBeLessThanOrEqual(sizes.screen);
  expect(sizes.input).toBeLessThanOrEqual(sizes.card);
  await expect(page.getByTestId('rename-submit')).toBeInViewport({ ratio: 1 });
});

test.describe('demo', () => {
  test.use({ demo: true });
  test('APP-13: the Task screen at 375 px and 200 % text does not scroll sideways: a note\'s long anchor wraps, every tab stays on screen and the decision buttons\' words fit', async ({ paired: page }) => {
    await page.setViewportSize({ width: 375, height: 667 });
    await page.getByTestId('group-approval').getByTestId('task-card').first().click();
    await expect(page.getByTestId('annotation').first()).toBeVisible();
    await bigText(page);
    const sizes = await page.evaluate(() => ({ page: document.scrollingElement!.scrollWidth, screen: document.documentElement.clientWidth }));
    expect(sizes.page).toBeLessThanOrEqual(sizes.screen);
    expect(await navProblems(page)).toEqual([]);
    // The decision buttons' words fit inside their buttons (none is cut off at the button's edge).
    const cut = await page.getByTestId('task-actions').evaluate((bar) =>
      Array.from(bar.querySelectorAll<HTMLElement>('button')).filter((b) => b.scrollWidth > b.clientWidth + 1).map((b) => `${b.textContent}: ${b.scrollWidth} > ${b.clientWidth}`));
    expect(cut).toEqual([]);
  });
});

test('UX-10: the New task sheet at 200 % text does not scroll sideways: every field fits inside the sheet', async ({ paired: page }) => {
  await page.setViewportSize({ width: 412, height: 915 });
  await page.getByTestId('new-task').click();
  const sheet = page.getByTestId('new-task-sheet');
  await expect(sheet.getByTestId('new-task-id')).toBeVisible();
  await bigText(page);
  const fit = await sheet.evaluate((el) => {
    const box = el.getBoundingClientRect();
    return {
      scroll: el.scrollWidth,
      width: el.clientWidth,
      over: Array.from(el.querySelectorAll<HTMLElement>('input, select, textarea'))
        .filter((c) => c.getBoundingClientRect().right > box.right + 0.5).map((c) => c.id),
    };
  });
  expect(fit.over, 'fields wider than the sheet').toEqual([]);
  expect(fit.scroll).toBeLessThanOrEqual(fit.width);
});

test.describe('demo diff', () => {
  test.use({ demo: true });
  test('UX-10: at 200 % text a diff file\'s header keeps its path on one line and puts Fold and Comment below it, not beside a one-letter column', async ({ paired: page }) => {
    await page.setViewportSize({ width: 412, height: 915 });
    await page.getByTestId('group-approval').getByTestId('task-card').first().click();
    const header = page.getByTestId('diff-file').first();
    await expect(header).toBeVisible();
    await bigText(page);
    await header.scrollIntoViewIfNeeded();
    const lines = await header.locator('.diff-path').evaluate((el) => {
      const range = document.createRange();
      range.selectNodeContents(el);
      return new Set(Array.from(range.getClientRects()).filter((r) => r.width > 0).map((r) => Math.round(r.top))).size;
    });
    expect(lines, 'lines the path is drawn on').toBe(1);
    const path = (await header.locator('.diff-path').boundingBox())!;
    const comment = (await header.getByTestId('diff-annotate-file').boundingBox())!;
    expect(comment.y, 'Comment below the path').toBeGreaterThanOrEqual(path.y + path.height - 1);
  });
});
