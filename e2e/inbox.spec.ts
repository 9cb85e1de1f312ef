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
  // Who holds the claim, in words (CLAIM-3's <host>_<pid>), as the task screen says it (REVIEW-1).
  await expect(claimed.getByTestId('task-card-owner')).toHaveText(/^on .+ \(process \d+\)$/);
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


test('ROOM-6: a card says how long ago its task moved and keeps it current; its note is in the card\'s ⋯ menu, not on a row of its own', async ({ paired: page, relayEnv }) => {
  // The page's clock, so "later" needs no waiting; installed before the card (and its shared tick) exists.
  await page.clock.install();
  relayEnv.addPacket('T-age', 'How old am I');
  appendFileSync(path.join(relayEnv.bus, 'events.jsonl'), serializeEvent({ event: 'task_progress', task: 'T-age', note: 'looked at' }, new Date()));
  const card = page.getByTestId('group-inbox').locator('.task-card-wrap').filter({ hasText: 'T-age' });
  await expect(card.getByTestId('task-age')).toHaveText('just now');
  await page.clock.fastForward('04:30');
  await expect(card.getByTestId('task-age')).toHaveText('4 min ago');
  // No note row: the card is its link and a 44 px ⋯ button; the menu holds Add note.
  await expect(card.getByTestId('task-note')).toHaveCount(0);
  const menuButton = card.getByTestId('task-menu');
  await expect(menuButton).toHaveAccessibleName('More for T-age');
  const box = (await menuButton.boundingBox())!;
  expect(box.width).toBeGreaterThanOrEqual(44);
  expect(box.height).toBeGreaterThanOrEqual(44);
  await menuButton.click();
  await expect(menuButton).toHaveAttribute('aria-expanded', 'true');
  await card.getByRole('menuitem', { name: 'Add note to T-age' }).click();
  const sheet = page.getByTestId('note-sheet');
  await expect(sheet).toBeVisible();
  await expect(sheet.locator('select')).toHaveCount(0);
  await expect(sheet.getByTestId('note-body')).toBeFocused();
});

test('ROOM-6: a task with only its packet (no event yet) is as old as its packet file', async ({ paired: page, relayEnv }) => {
  await page.clock.install();
  relayEnv.addPacket('T-fresh', 'Nobody touched me');
  const fresh = page.getByTestId('group-inbox').locator('.task-card-wrap').filter({ hasText: 'T-fresh' });
  await expect(fresh.getByTestId('task-age')).toHaveText('just now');
  await page.clock.fastForward('10:00');
  await expect(fresh.getByTestId('task-age')).toHaveText('10 min ago');
});

test('ROOM-7: every Inbox group, Done too, has the same heading with a chevron and folds under it', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('T-open', 'Still to do');
  writeFileSync(path.join(relayEnv.bus, 'done', 'e2e-host_1000_T-old.md'), '---\nid: T-old\ntype: implementation\nscope: src/**\n---\n# Finished\n\n## Context\ne2e\n');
  appendFileSync(path.join(relayEnv.bus, 'events.jsonl'), serializeEvent({ event: 'task_progress', task: 'T-old', note: 'done' }, new Date()));
  await page.reload();
  // The app itself, not the copy painted before it starts (FASTPAIR-2): React replaces that copy's nodes,
  // and a node read while it is being replaced has no computed style.
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
  const inbox = page.getByTestId('group-inbox');
  const done = page.getByTestId('group-done');
  await expect(inbox.getByTestId('task-card')).toHaveCount(1);
  await expect(done.locator('summary')).toHaveText('Done (1)');
  const look = (group: typeof inbox) => group.locator('summary').evaluate((el) => {
    const s = getComputedStyle(el);
    const title = getComputedStyle(el.querySelector('h2')!);
    return { chevron: getComputedStyle(el, '::before').content, colour: s.color, size: title.fontSize, transform: title.textTransform, height: el.getBoundingClientRect().height };
  });
  const a = await look(inbox);
  const b = await look(done);
  expect(a.chevron).toBe('"▸"');
  expect({ ...b, height: 0 }).toEqual({ ...a, height: 0 });
  expect(b.height).toBeGreaterThanOrEqual(44);
  // Done starts folded; any group folds and opens under its heading.
  await expect(done.getByTestId('task-card')).toHaveCount(0);
  await done.locator('summary').click();
  await expect(done.getByTestId('task-card')).toHaveCount(1);
  await inbox.locator('summary').click();
  await expect(inbox.getByTestId('task-card')).toBeHidden();
});

test('ROOM-8: New task opens on Title, says what is missing only once Add is tapped, keeps Add in view on a phone, and asks for criteria "one per line"', async ({ paired: page }) => {
  await page.getByTestId('new-task').click();
  const sheet = page.getByTestId('new-task-sheet');
  await expect(sheet.getByTestId('new-task-title')).toBeFocused();
  await expect(sheet.getByTestId('new-task-id')).toHaveValue('T-1');
  await expect(sheet.getByTestId('new-task-problems')).toHaveCount(0);
  await expect(sheet.getByText('Acceptance criteria (one per line)')).toBeVisible();
  const create = sheet.getByTestId('new-task-create');
  await expect(create).toBeInViewport({ ratio: 1 });
  await expect(create).toBeDisabled(); // aria-disabled: it still answers a tap
  await create.click({ force: true }); // aria-disabled: Playwright waits for enabled; a person's tap goes through
  await expect(sheet.getByTestId('new-task-problems')).toHaveText('Still needed or not valid: Title, Scope.');
  await expect(sheet.getByTestId('new-task-title')).toBeFocused();
  await sheet.getByTestId('new-task-title').fill('Something');
  await expect(sheet.getByTestId('new-task-problems')).toHaveText('Still needed or not valid: Scope.');
});
