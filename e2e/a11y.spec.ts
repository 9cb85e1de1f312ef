// The shell's qualities on every E1 screen: 44 px targets, labelled controls,
// no sideways scrolling at 200 % text size, dark mode from the system.
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';

async function checkScreen(page: Page): Promise<void> {
  const problems = await page.evaluate(() => {
    const out: string[] = [];
    for (const el of document.querySelectorAll<HTMLElement>('button, a[href], input, select, textarea')) {
      const box = el.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) continue; // not shown
      const inline = el.tagName === 'A' && el.closest('p, li > span');
      if (!inline && box.height < 44) out.push(`${el.tagName} "${el.textContent?.trim() || el.id}" is ${box.height.toFixed(0)} px tall`);
      const labelled = el.getAttribute('aria-label') || (el.id && document.querySelector(`label[for="${el.id}"]`)) || el.textContent?.trim();
      if (!labelled) out.push(`${el.tagName}#${el.id} has no label`);
    }
    // Against clientWidth, not innerWidth: a phone widens its layout viewport (innerWidth) to content that overflows.
    const screen = document.documentElement.clientWidth;
    if (document.documentElement.scrollWidth > screen + 1) out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${screen}`);
    return out;
  });
  expect(problems).toEqual([]);
}

test('APP-13: Pair, Inbox and Settings have 44 px labelled controls and no sideways scroll at 200 % text size', async ({ page, relayEnv }) => {
  await page.addInitScript(() => {
    document.addEventListener('DOMContentLoaded', () => { document.documentElement.style.fontSize = '200%'; });
  });
  await page.goto(`${relayEnv.url}/pair#code=${relayEnv.pairingCode()}`);
  await expect(page.getByTestId('pair-form')).toBeVisible();
  await checkScreen(page);
  await page.getByTestId('pair-name').fill('Big Text Phone');
  await page.getByTestId('pair-submit').click();
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  relayEnv.addPacket('T-a11y-with-a-rather-long-identifier', 'A task with a long title that has to wrap on a phone at double text size');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  await checkScreen(page);
  await page.getByTestId('nav-settings').click();
  await expect(page.getByTestId('this-device-name')).toBeVisible();
  await checkScreen(page);
});

test.describe('dark', () => {
  test.use({ colorScheme: 'dark' });
  test('APP-13: the shell follows the system dark mode', async ({ paired: page }) => {
    const bg = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
    expect(bg).toBe('rgb(15, 18, 22)');
  });
});

/** WCAG's contrast ratio of two `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const luminance = (css: string) => {
    const [r, g, bl] = css.match(/\d+(\.\d+)?/g)!.slice(0, 3).map((v) => {
      const c = Number(v) / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * r! + 0.7152 * g! + 0.0722 * bl!;
  };
  const [hi, lo] = [luminance(a), luminance(b)].sort((x, y) => y - x);
  return (hi! + 0.05) / (lo! + 0.05);
}

for (const colorScheme of ['light', 'dark'] as const) {
  test.describe(colorScheme, () => {
    test.use({ colorScheme });
    test(`APP-13: the focus ring (${colorScheme}) has 3:1 contrast against the page and a card, and is not the warning colour`, async ({ paired: page }) => {
      await page.getByTestId('nav-settings').click();
      const field = page.getByTestId('rename-input');
      await expect(field).toBeVisible();
      await field.focus();
      await page.keyboard.press('Shift+Tab');
      await page.keyboard.press('Tab');
      const colours = await field.evaluate((el) => {
        const probe = (name: string) => {
          const div = document.createElement('div');
          div.style.color = `var(${name})`;
          document.body.append(div);
          const value = getComputedStyle(div).color;
          div.remove();
          return value;
        };
        const style = getComputedStyle(el);
        return { ring: style.outlineColor, ringStyle: style.outlineStyle, page: probe('--bg'), card: probe('--card'), warn: probe('--warn') };
      });
      expect(colours.ringStyle, 'a keyboard-focused field shows a ring').toBe('solid');
      expect(contrast(colours.ring, colours.page)).toBeGreaterThanOrEqual(3);
      expect(contrast(colours.ring, colours.card)).toBeGreaterThanOrEqual(3);
      expect(colours.ring).not.toBe(colours.warn);
    });
  });
}

test.describe('focus around sheets', () => {
  test.use({ demo: true });

  /** The focused element's test id. */
  const focused = (page: Page) => page.evaluate(() => (document.activeElement as HTMLElement | null)?.dataset.testid ?? document.activeElement?.tagName);

  test('A11Y-1: a sheet opened from a ⋯ menu gives the focus back to that ⋯ when it closes, on the task, the Inbox card and the commander', async ({ paired: page }) => {
    // The Inbox card's menu → Add note.
    const card = page.getByTestId('group-approval').getByTestId('task-card').first();
    const wrap = page.getByTestId('group-approval').locator('.task-card-wrap').first();
    await expect(card).toBeVisible();
    await wrap.getByTestId('task-menu').click();
    await page.getByTestId('task-note').click();
    await expect(page.getByTestId('note-body')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(wrap.getByTestId('task-menu')).toBeFocused();

    // The task's More menu → Add note, then Escape: back on More, not lost on the page.
    await card.click();
    await expect(page.getByTestId('diff-view')).toBeVisible();
    await page.getByTestId('finish-more-toggle').click();
    await page.getByTestId('annotate').click();
    await expect(page.getByTestId('annotate-body')).toBeFocused();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('finish-more-toggle')).toBeFocused();
    // Escape on the open menu closes it and keeps the focus on More as well.
    await page.getByTestId('finish-more-toggle').click();
    await expect(page.getByTestId('finish-more')).toBeVisible();
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('finish-more')).toHaveCount(0);
    await expect(page.getByTestId('finish-more-toggle')).toBeFocused();

    // The commander's ⋯ → Add reference path.
    await page.getByTestId('nav-commanders').click();
    await page.getByTestId('cmdr-card').first().click();
    await page.getByTestId('cmdr-menu').click();
    await page.getByTestId('cmdr-add-ref').click();
    expect(await focused(page)).not.toBe('BODY');
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('cmdr-menu')).toBeFocused();
  });
});
