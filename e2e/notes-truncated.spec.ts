// A note too long to send whole (LIMIT-2) in the task timeline: the real relay cuts
// the 300 KB task_progress note on a real bus to 2 KiB; the app shows that part and
// reads the whole text with `task.note` only when asked (NOTEUI-1..3).
import { realpathSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { appendEvent } from '../bus/event-log';
import { SHOWN_FIELD_BYTES } from '../protocol/limits';
import { repoIdOf } from '../relay/watch/repo-id';
import { test, expect, type RelayFixture } from './fixtures';

const MARKER = 'END-OF-NOTE-7f3a9c';
const HOSTILE = '<img src=x onerror="window.__notePwned=1"><script>window.__notePwned=2</script>';

/** A 300 KB note: a recognisable start, markup that must stay text, filler lines, and the marker at its very end. */
function hugeNote(): string {
  const head = `START-OF-NOTE first part ${HOSTILE}\n`;
  const line = 'the agent kept writing one long progress note, line after line of it\n';
  const total = 300 * 1024;
  const filler = line.repeat(Math.ceil(total / line.length)).slice(0, total - head.length - MARKER.length);
  return head + filler + MARKER;
}

async function openCutTask(page: Page, env: RelayFixture): Promise<{ note: string; requests: string[] }> {
  env.addPacket('N-1', 'Long note task');
  expect(env.tool('claim')).toContain('claimed:');
  const note = hugeNote();
  appendEvent(env.bus, { event: 'task_progress', task: 'N-1', note });
  // Every frame the app sends, to prove the whole note is read only on demand.
  const requests: string[] = [];
  page.on('websocket', (ws) => ws.on('framesent', (f) => void requests.push(String(f.payload))));
  const repo = repoIdOf(realpathSync(env.repo));
  await page.goto(`${env.url}/task?repo=${encodeURIComponent(repo)}&id=N-1`);
  await expect(page.getByTestId('task-screen')).toBeVisible();
  return { note, requests };
}

test('NOTEUI-1, NOTEUI-2: a 300 KB note shows cut with "Show all (300 KB)"; Show all loads the whole note on demand, as text, in a bounded box that scrolls to the marker', async ({ paired: page, relayEnv }) => {
  const { requests } = await openCutTask(page, relayEnv);
  const item = page.getByTestId('timeline').locator('[data-event="task_progress"]');
  await expect(item).toContainText('Progress: START-OF-NOTE first part');
  await expect(item).not.toContainText(MARKER);
  const shown = await item.innerText();
  expect(new TextEncoder().encode(shown).length).toBeLessThan(SHOWN_FIELD_BYTES + 200);
  const more = item.getByTestId('timeline-note-more');
  await expect(more).toHaveText('Show all (300 KB)');
  expect(requests.some((r) => r.includes('"task.note"'))).toBe(false);

  await more.click();
  const full = item.getByTestId('timeline-note-full');
  await expect(full).toContainText(MARKER);
  expect(requests.filter((r) => r.includes('"task.note"'))).toHaveLength(1);
  // Escaped text, never HTML: the markup is on screen as characters and nothing ran.
  await expect(full).toContainText(HOSTILE);
  await expect(item.locator('img, script')).toHaveCount(0);
  expect(await page.evaluate(() => (window as { __notePwned?: number }).__notePwned ?? null)).toBeNull();
  // Bounded in height (the page does not grow by 300 KB of text); the box scrolls to the end.
  const box = await full.evaluate((el) => ({ client: el.clientHeight, scroll: el.scrollHeight, overflow: getComputedStyle(el).overflowY }));
  const viewport = page.viewportSize()!.height;
  expect(box.client).toBeLessThanOrEqual(viewport);
  expect(box.scroll).toBeGreaterThan(box.client * 10);
  expect(box.overflow).toBe('auto');
  expect(await full.evaluate((el) => { el.scrollTop = el.scrollHeight; return el.scrollTop; })).toBeGreaterThan(0);

  await item.getByTestId('timeline-note-less').click();
  await expect(item.getByTestId('timeline-note-full')).toHaveCount(0);
  await expect(item.getByTestId('timeline-note-more')).toHaveText('Show all (300 KB)');
});

test('NOTEUI-3: when the whole note cannot be read, the timeline says why in a sentence and Show all can be tried again', async ({ paired: page, relayEnv }) => {
  await openCutTask(page, relayEnv);
  const item = page.getByTestId('timeline').locator('[data-event="task_progress"]');
  await expect(item.getByTestId('timeline-note-more')).toBeVisible();
  await relayEnv.relay.close();
  await expect(page.getByTestId('connection-badge')).not.toHaveAttribute('data-state', 'live');
  await item.getByTestId('timeline-note-more').click();
  await expect(item.getByTestId('timeline-note-error')).toHaveText(/^You are offline\./);
  await expect(item.getByTestId('timeline-note-full')).toHaveCount(0);
  await expect(item.getByTestId('timeline-note-more')).toBeEnabled();
});
