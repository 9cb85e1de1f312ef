// A task's life on one screen (TSTATE-1..5), on a phone, against a real relay, the real gate
// and real git commits: each stage shows the change that belongs to it and only the actions the
// relay takes there; the open page follows the agent's commit without a reload; a reload and a
// fresh device show the committed change; the "Committed" confirmation is a success, once.
import { readdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { devices, type Page } from '@playwright/test';
import { test, expect, pairThroughScreen, type RelayFixture } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
const stageOf = (page: Page) => page.getByTestId('task-screen');

function complete(env: RelayFixture, id: string): void {
  const file = readdirSync(path.join(env.bus, 'claimed')).find((f) => f.endsWith(`_${id}.md`))!;
  env.tool('complete', [path.join(env.bus, 'claimed', file), 'pass']);
}

/** The colour a CSS variable of the app resolves to, as the browser computes colours. */
async function cssColour(page: Page, variable: string): Promise<string> {
  return page.evaluate((v) => {
    const probe = document.createElement('span');
    probe.style.color = `var(${v})`;
    document.body.append(probe);
    const colour = getComputedStyle(probe).color;
    probe.remove();
    return colour;
  }, variable);
}

test('TSTATE-4: an inbox task offers Run agent as its main action; Approve, Deny and Run council are not there', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('I-1', 'Not started yet');
  await page.getByTestId('task-card').filter({ hasText: 'I-1' }).click();
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'inbox');
  const bar = page.getByTestId('task-actions');
  await expect(bar.getByTestId('run-agent')).toBeEnabled();
  await expect(bar.getByTestId('run-agent')).toHaveAttribute('data-variant', 'primary');
  await expect(page.getByTestId('run-agent')).toHaveCount(1); // the bar's, not a second one in the agent card
  for (const gone of ['approve', 'deny', 'run-council', 'approve-missing']) await expect(page.getByTestId(gone)).toHaveCount(0);
  await expect(page.getByTestId('changes')).toContainText('Nothing to review for this task yet.');
  await expect(page.getByTestId('diff-loading')).toHaveCount(0);
  await shot(page, '1-inbox');
  await bar.getByTestId('run-agent').click();
  await expect(page.getByTestId('run-agent-sheet')).toBeVisible();
});

test('JOB-7 TSTATE-4: an inbox task blocked by a task not done says so instead of offering Run agent; once that task is done Run agent comes back', async ({ paired: page, relayEnv }) => {
  relayEnv.addPacket('B-1', 'Comes first');
  const packet = path.join(relayEnv.bus, 'inbox', 'B-2.md');
  relayEnv.addPacket('B-2', 'Waits for B-1');
  writeFileSync(packet, readFileSync(packet, 'utf8').replace('scope: src/**\n', 'scope: src/**\nblocked-by: [B-1]\n'));
  await page.getByTestId('task-card').filter({ hasText: 'Waits for B-1' }).click();
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'inbox');
  await expect(page.getByTestId('agent-blocked')).toContainText('Blocked by B-1, not done yet');
  await expect(page.getByTestId('run-agent')).toHaveCount(0);
  await expect(page.getByTestId('task-actions').getByTestId('annotate')).toBeVisible();
  await shot(page, 'blocked');
  // B-1 done (as `complete` leaves it): the open page offers Run agent again, without a reload.
  renameSync(path.join(relayEnv.bus, 'inbox', 'B-1.md'), path.join(relayEnv.bus, 'done', 'B-1.md'));
  await expect(page.getByTestId('task-actions').getByTestId('run-agent')).toBeEnabled();
  await expect(page.getByTestId('agent-blocked')).toHaveCount(0);
});

test('TSTATE-2 TSTATE-4 TSTATE-5 TSTATE-6: on the open page the task goes from awaiting approval to approved to committed to done to merged; the change shown and the bar follow without a reload', async ({ paired: page, relayEnv }) => {
  test.setTimeout(180_000); // five stages on a shared machine
  await page.clock.install(); // the page's clock, so the confirmation's going by itself needs no waiting
  const task = startTask(relayEnv, 'S-1', 'Greet by name');
  await openTask(page, relayEnv, task, { diff: false }); // nothing staged yet: no diff view
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'running');
  await expect(page.getByTestId('task-stage')).toHaveText('Running');
  await expect(page.getByTestId('diff-nothing')).toContainText('Nothing staged yet');
  await expect(page.getByTestId('approve')).toBeDisabled();
  await shot(page, '2-running');

  requestApproval(relayEnv, task, { 'src/greet.js': 'export const greet = (name) => `Hello, ${name}`;\n' });
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'approval');
  await expect(page.getByTestId('diff-digest')).toContainText('Staged change to approve · ');
  await expect(page.getByTestId('diff-view')).toContainText('Hello, ${name}');
  await expect(page.getByTestId('approve')).toBeEnabled();
  await shot(page, '3-approval');

  await page.getByTestId('approve').click();
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'approved');
  await expect(page.getByTestId('task-stage')).toHaveText('Approved, waiting for the agent’s commit');
  await expect(page.getByTestId('diff-digest')).toContainText('Approved change, waiting for the agent’s commit · ');
  await expect(page.getByTestId('approve')).toBeDisabled();
  await expect(page.getByTestId('deny')).toBeDisabled();
  await shot(page, '4-approved');

  const made = task.commit();
  expect(made.stderr).toBe('');
  expect(made.code).toBe(0);
  const hash = task.head();
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'committed');
  await expect(page.getByTestId('changes')).toHaveAttribute('data-source', 'commit');
  await expect(page.getByTestId('diff-committed')).toHaveText(`Committed ${hash.slice(0, 10)} on agent/S-1: work on S-1 · carries your approval`);
  await expect(page.getByTestId('diff-view')).toContainText('Hello, ${name}');
  for (const gone of ['approve', 'deny', 'approve-missing', 'diff-digest', 'approval-done']) await expect(page.getByTestId(gone)).toHaveCount(0);
  // Committed: finish it — Merge is the main action, the rest under More (FINISH-9).
  await expect(page.getByTestId('finish-merge')).toBeEnabled();
  await expect(page.getByTestId('finish-merge')).toHaveText('Merge into main'); // VOCAB-6: the button names the base
  await page.getByTestId('finish-more-toggle').click();
  await expect(page.getByTestId('run-council')).toBeEnabled();
  await expect(page.getByTestId('finish-push')).toHaveCount(0); // this repo has no remote to push to (FINISH-10)
  await page.getByTestId('finish-more-toggle').click();
  await expect(page.getByTestId('finish-more')).toHaveCount(0);
  // The confirmation: one, a success (the ok colour, not the notice's warning stripe), and it goes by itself.
  const confirmation = page.getByTestId('approval-state');
  await expect(confirmation).toHaveCount(1);
  await expect(confirmation).toHaveAttribute('data-state', 'committed');
  await expect(confirmation).toHaveText(new RegExp(`^Committed ${hash.slice(0, 10)}: work on S-1 — it carries your approval\\.`));
  const stripe = await confirmation.evaluate((el) => getComputedStyle(el).borderLeftColor);
  expect(stripe).toBe(await cssColour(page, '--ok'));
  expect(stripe).not.toBe(await cssColour(page, '--warn'));
  await shot(page, '5-committed');
  await page.clock.fastForward(8_000); // COMMITTED_NOTICE_MS, with no tap
  await expect(confirmation).toHaveCount(0);

  complete(relayEnv, 'S-1');
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'done');
  await expect(page.getByTestId('task-stage')).toHaveText('Done');
  // Done, but its commit is not merged: nothing to approve, and it can still be finished (TSTATE-6).
  for (const gone of ['approve', 'deny']) await expect(page.getByTestId(gone)).toHaveCount(0);
  await expect(page.getByTestId('finish-merge')).toBeEnabled();
  await expect(page.getByTestId('diff-committed')).toContainText(`Committed ${hash.slice(0, 10)} on agent/S-1`);
  await shot(page, '6-done');

  await page.getByTestId('finish-merge').click();
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'merged');
  await expect(page.getByTestId('task-stage')).toHaveText('Merged');
  await expect(page.getByTestId('task-finished')).toContainText(`: there is nothing left to do.`);
  await expect(page.getByTestId('task-finished')).toContainText(`Merged into `);
  for (const gone of ['finish-merge', 'approve', 'deny']) await expect(page.getByTestId(gone)).toHaveCount(0);
  await shot(page, '6b-merged');
});

test('TSTATE-3 TSTATE-5: after a reload, and on a freshly paired device, a done task shows its committed change and commit, with no banner and nothing to approve', async ({ paired: page, relayEnv, browser }) => {
  test.setTimeout(180_000); // two phones on a shared machine
  const task = startTask(relayEnv, 'S-2', 'Committed then reloaded');
  requestApproval(relayEnv, task, { 'src/two.js': 'export const two = 2;\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('approve').click();
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'approved');
  expect(task.commit().code).toBe(0);
  const hash = task.head();
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'committed');
  complete(relayEnv, 'S-2');
  await expect(stageOf(page)).toHaveAttribute('data-stage', 'done');

  const expectDone = async (p: Page, name: string) => {
    await expect(stageOf(p)).toHaveAttribute('data-stage', 'done');
    await expect(p.getByTestId('diff-committed')).toHaveText(`Committed ${hash.slice(0, 10)} on agent/S-2: work on S-2 · carries your approval`);
    await expect(p.getByTestId('diff-view')).toContainText('export const two = 2;');
    for (const gone of ['approval-state', 'approve', 'deny', 'diff-loading', 'diff-nothing']) await expect(p.getByTestId(gone)).toHaveCount(0);
    await expect(p.getByTestId('finish-merge')).toBeEnabled(); // not merged yet: it can still be finished (TSTATE-6)
    await expect(p.getByTestId('changes')).not.toContainText('Nothing staged');
    await expect(p.getByTestId('task-screen')).not.toContainText(path.dirname(relayEnv.repo)); // no machine paths
    await shot(p, name);
  };
  await page.reload();
  await expectDone(page, '7-done-after-reload');

  const phone = await browser.newContext({ ...devices['Pixel 7'], serviceWorkers: 'allow' });
  try {
    const fresh = await phone.newPage();
    await pairThroughScreen(fresh, relayEnv, 'Second phone');
    await fresh.goto(`${relayEnv.url}/task?repo=${encodeURIComponent(task.repoId)}&id=S-2`);
    await expectDone(fresh, '8-done-fresh-device');
  } finally {
    await phone.close();
  }
});
