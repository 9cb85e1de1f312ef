// The Inbox follows the bus live: packets added and claimed with the real tools show up without a reload.
import { appendFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { serializeEvent } from '../bus/event-log';
import { test, expect, pairThroughScreen } from './fixtures';

test('APP-12: a task appears in the Inbox live and moves to In progress after a real claim', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('T-live', 'Live task from the bus');
  const card = page.getByTestId('group-inbox').getByTestId('task-card').filter({ hasText: 'T-live' });
  await expect(card).toBeVisible();
  await expect(card).toContainText('Live task from the bus');

  expect(relayEnv.tool('claim')).toMatch(/^claimed:/);
  const claimed = page.getByTestId('group-in-progress').getByTestId('task-card').filter({ hasText: 'T-live' });
  await expect(claimed).toBeVisible();
  await expect(page.getByTestId('group-inbox')).toHaveCount(0);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
});

test('APP-12: the Inbox search, labelled "Search tasks", filters by id or title', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('T-alpha', 'Alpha');
  relayEnv.addPacket('T-beta', 'Beta');
  relayEnv.addPacket('T-gamma', 'Rename the widgets');
  await expect(page.getByTestId('task-card')).toHaveCount(3);
  const search = page.getByLabel('Search tasks');
  await expect(search).toHaveAttribute('data-testid', 'inbox-search');
  await search.fill('t-beta');
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  await expect(page.getByTestId('task-card')).toContainText('T-beta');
  await search.fill('widgets'); // a word of the title only
  await expect(page.getByTestId('task-card')).toHaveCount(1);
  await expect(page.getByTestId('task-card')).toContainText('T-gamma');
  await page.getByTestId('inbox-search').fill('nothing-like-this');
  await expect(page.getByTestId('inbox-empty')).toContainText('No task matches.');
});

test('PAGE-3: "Show older done tasks" counts the done tasks the app holds and pages on from the oldest of them, also while a search narrows the Done group', async ({ page, relayEnv }) => {
  // 600 done tasks, D-599 the newest: the snapshot carries the newest 50 (PAGE-1), a page of `repo.done` up to 500 (PAGE-2).
  const DONE = 600;
  const start = Date.now() - DONE * 1000;
  const lines: string[] = [];
  for (let i = 0; i < DONE; i++) {
    const id = `D-${String(i).padStart(3, '0')}`;
    writeFileSync(path.join(relayEnv.bus, 'done', `e2e-host_${1000 + i}_${id}.md`), `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# Done task ${i}\n\n## Context\ne2e\n`);
    lines.push(serializeEvent({ event: 'task_progress', task: id, note: `progress on ${id}` }, new Date(start + i * 1000)));
  }
  appendFileSync(path.join(relayEnv.bus, 'events.jsonl'), lines.join(''));
  await pairThroughScreen(page, relayEnv, 'E2E Phone');
  const more = page.getByTestId('inbox-done-more');
  await expect(more).toHaveText('Show older done tasks (50 of 600 loaded)');
  // A search shows D-590…D-599 only: the count is still what the app holds, and the next page
  // starts after D-550, the oldest held, not after D-590, the oldest shown.
  await page.getByTestId('inbox-search').fill('D-59');
  await expect(page.getByTestId('group-done').locator('summary')).toHaveText('Done (10)');
  await expect(more).toHaveText('Show older done tasks (50 of 600 loaded)');
  await more.click();
  await expect(more).toHaveText('Show older done tasks (550 of 600 loaded)');
  await expect(page.getByTestId('group-done').locator('summary')).toHaveText('Done (10)');
  await more.click();
  await expect(more).toHaveCount(0);
  await page.getByTestId('inbox-search').fill('');
  await expect(page.getByTestId('group-done').locator('summary')).toHaveText(`Done (${DONE})`);
});

