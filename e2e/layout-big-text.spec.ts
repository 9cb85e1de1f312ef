// Layout on small phones and at large text: the tab bar's labels stay whole words, and
// Settings' rename row wraps instead of widening the page (APP-13, UX-10).
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';

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
  test('UX-10: at 200 % text a diff file\'s header keeps its path on one line and puts Fold and Add note below it, not beside a one-letter column', async ({ paired: page }) => {
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
    expect(comment.y, 'Add note below the path').toBeGreaterThanOrEqual(path.y + path.height - 1);
  });
});

/** Where the header, the dock, its bar's buttons and the tab bar are, measured on the page. */
async function barGeometry(page: Page) {
  const header = (await page.locator('.shell-header').boundingBox())!;
  const dock = (await page.getByTestId('task-dock').boundingBox())!;
  const nav = (await page.locator('.shell-nav').boundingBox())!;
  const row = page.getByTestId('task-actions').locator('.task-row > button');
  const buttons = await row.evaluateAll((els) => els.map((b) => ({ id: b.getAttribute('data-testid'), top: Math.round(b.getBoundingClientRect().top) })));
  return { header, dock, nav, buttons };
}

/** The first diff line scrolled to the middle of the screen: its box, to compare with the header and the dock. */
async function diffLineInView(page: Page) {
  const line = page.getByTestId('diff-line').first();
  await line.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  return (await line.boundingBox())!;
}

test.describe('demo bar', () => {
  test.use({ demo: true });
  test('ROOM-1, ROOM-2, ROOM-3: the task screen awaiting approval keeps one slim bar on the tab bar and a diff line in view above it, at 100 % and at 200 % text', async ({ paired: page }, info) => {
    await page.getByTestId('group-approval').getByTestId('task-card').first().click();
    await expect(page.getByTestId('diff-line').first()).toBeVisible();
    await expect(page.getByTestId('approve')).toBeEnabled();
    const phone = info.project.name === 'phone';
    for (const size of ['100%', '200%']) {
      await page.evaluate((s) => { document.documentElement.style.fontSize = s; }, size);
      // Large text on a phone: the main action and More (ROOM-2); otherwise Approve, Deny and More (ROOM-1).
      const compact = phone && size === '200%';
      await expect(page.getByTestId('task-actions')).toHaveAttribute('data-compact', String(compact));
      const g = await barGeometry(page);
      expect(g.buttons.map((b) => b.id), `the bar's row at ${size}`).toEqual(compact ? ['approve', 'finish-more-toggle'] : ['approve', 'deny', 'finish-more-toggle']);
      expect(new Set(g.buttons.map((b) => b.top)).size, `rows of buttons at ${size}`).toBe(1);
      // The dock reaches the tab bar (no strip for the text behind to show through), and it is opaque.
      expect(Math.abs(g.nav.y - (g.dock.y + g.dock.height)), `gap above the tab bar at ${size}`).toBeLessThanOrEqual(1);
      const background = await page.getByTestId('task-dock').evaluate((el) => getComputedStyle(el).backgroundColor);
      expect(background, 'the dock\'s background').toMatch(/^rgb\(/);
      // Bar and tab bar together leave most of the screen to the work.
      const viewport = page.viewportSize()!;
      expect(viewport.height - g.dock.y, `dock and tab bar at ${size}`).toBeLessThan(viewport.height * (compact ? 0.3 : 0.25));
      // A line of the diff under review is on screen, between the header and the dock.
      const line = await diffLineInView(page);
      const after = await barGeometry(page);
      expect(line.y, `diff line below the header at ${size}`).toBeGreaterThanOrEqual(after.header.y + after.header.height - 1);
      expect(line.y + line.height, `diff line above the bar at ${size}`).toBeLessThanOrEqual(after.dock.y + 1);
    }
    // More holds the rest: at 200 % on a phone, Deny, Add note and Run council.
    await page.getByTestId('finish-more-toggle').click();
    const menu = page.getByTestId('finish-more');
    await expect(menu.getByRole('menuitem')).toHaveText(phone ? ['Deny', 'Add note', 'Run council'] : ['Add note', 'Run council']);
    await page.keyboard.press('Escape');
    await expect(menu).toHaveCount(0);
  });
});

test('ROOM-4: a success says so once, in the success colour, above the bar, and goes by itself; no two lines in the dock say the same', async ({ paired: page, relayEnv }) => {
  await page.clock.install(); // the page's clock, so the success's going by itself needs no waiting
  const task = startTask(relayEnv, 'R-4', 'Say it once');
  requestApproval(relayEnv, task, { 'src/r.js': 'r();\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('approve').click();
  const done = page.getByTestId('approval-done');
  await expect(done).toBeVisible();
  await expect(done).toHaveAttribute('data-tone', 'ok');
  const colours = await done.evaluate((el) => {
    const probe = document.createElement('span');
    document.body.append(probe);
    const of = (v: string) => { probe.style.color = `var(${v})`; return getComputedStyle(probe).color; };
    const out = { stripe: getComputedStyle(el).borderLeftColor, ok: of('--ok'), warn: of('--warn') };
    probe.remove();
    return out;
  });
  expect(colours.stripe).toBe(colours.ok);
  expect(colours.stripe).not.toBe(colours.warn);
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'waiting');
  const lines = await page.getByTestId('task-dock').locator('[role="status"]').allTextContents();
  expect(lines.filter((t) => /waiting for the agent/i.test(t)), 'lines in the dock about the wait').toHaveLength(1);
  // Gone by itself (OK_NOTICE_MS), with no tap; the state line stays.
  await page.clock.fastForward(8_000);
  await expect(done).toHaveCount(0);
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'waiting');
});

test('ROOM-5: every tab shows an inline icon above its label; its accessible name is the label alone and nothing is fetched for it', async ({ paired: page }) => {
  for (const label of ['Inbox', 'Commanders', 'Settings']) {
    const tab = page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: label, exact: true });
    await expect(tab).toHaveAccessibleName(label);
    const icon = tab.locator('svg');
    await expect(icon).toHaveAttribute('aria-hidden', 'true');
    const [i, text] = [(await icon.boundingBox())!, (await tab.locator('.nav-label').boundingBox())!];
    expect(i.width).toBeGreaterThanOrEqual(20);
    expect(i.y + i.height).toBeLessThanOrEqual(text.y + 1);
    expect(await icon.locator('image, use').count(), 'an icon that loads nothing').toBe(0);
  }
});
