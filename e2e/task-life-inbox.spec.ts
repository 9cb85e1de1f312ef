// The Inbox groups a task by its stage of life, not by its bus state alone (APP-12, TSTATE-7): a
// failed run and a commit still to merge wait for the person; a merged task is done. Each card
// says its stage. And the task screen offers Run agent only where starting an agent makes sense
// (TSTATE-8): an inbox task, and a failed one, as a re-run from the dock; never a task that is
// running, awaiting approval, committed or merged. Real relay, real gate, real git commits.
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { appendEvent } from '../bus/event-log';
import { test, expect, type RelayFixture } from './fixtures';
import { git, openTask, requestApproval, startTask, type AgentTask } from './task-setup';

const card = (page: Page, group: string, id: string) => page.getByTestId(`group-${group}`).getByTestId('task-card').filter({ hasText: id });
const stage = (page: Page) => page.getByTestId('task-screen');

async function toInbox(page: Page, env: RelayFixture): Promise<void> {
  await page.goto(`${env.url}/`);
  await expect(page.getByTestId('connection-badge')).toHaveAttribute('data-state', 'live');
}

/** A claimed task whose agent run failed, as the relay's job writes it (`task_failed`). */
function failedTask(env: RelayFixture, id: string): AgentTask {
  const task = startTask(env, id, `Failing ${id}`);
  appendEvent(env.bus, { event: 'task_failed', task: id, agent: 'claude', reason: 'Claude Code is not logged in.' });
  return task;
}

test('APP-12 TSTATE-7: a failed run and a commit not merged yet wait for the person; once merged the task is done; each card says its stage', async ({ paired: page, relayEnv }) => {
  test.setTimeout(180_000); // several stages on a shared machine
  failedTask(relayEnv, 'L-fail');
  const committed = startTask(relayEnv, 'L-commit', 'Committed, not merged');
  requestApproval(relayEnv, committed, { 'src/l.js': 'export const l = 1;\n' });
  startTask(relayEnv, 'L-run', 'Still running');

  const failed = card(page, 'needs-you', 'L-fail');
  await expect(failed).toBeVisible();
  await expect(failed.getByTestId('task-stage-pill')).toHaveText('Failed');
  await expect(failed.getByTestId('task-stage-pill')).toHaveAttribute('data-tone', 'danger');
  await expect(card(page, 'in-progress', 'L-run')).toBeVisible();
  await expect(card(page, 'in-progress', 'L-run').getByTestId('task-stage-pill')).toHaveText('Running');
  await expect(card(page, 'approval', 'L-commit')).toBeVisible();

  await openTask(page, relayEnv, committed);
  await page.getByTestId('approve').click();
  await expect(stage(page)).toHaveAttribute('data-stage', 'approved');
  expect(committed.commit().code).toBe(0);
  await expect(stage(page)).toHaveAttribute('data-stage', 'committed');

  await toInbox(page, relayEnv);
  await expect(card(page, 'needs-you', 'L-commit').getByTestId('task-stage-pill')).toHaveText('Committed');
  await expect(page.getByTestId('group-in-progress').getByTestId('task-card')).toHaveCount(1); // L-run only

  // Completed but not merged: the merge is still the person's to do.
  const file = readdirSync(path.join(relayEnv.bus, 'claimed')).find((f) => f.endsWith('_L-commit.md'))!;
  relayEnv.tool('complete', [path.join(relayEnv.bus, 'claimed', file), 'pass']);
  await expect(card(page, 'needs-you', 'L-commit').getByTestId('task-stage-pill')).toHaveText('Done · not merged');
  await expect(page.getByTestId('group-done')).toHaveCount(0);

  await openTask(page, relayEnv, committed);
  await page.getByTestId('finish-merge').click();
  await expect(stage(page)).toHaveAttribute('data-stage', 'merged');
  await toInbox(page, relayEnv);
  await expect(page.getByTestId('group-done').locator('summary')).toHaveText('Done (1)');
  await page.getByTestId('group-done').locator('summary').click();
  await expect(card(page, 'done', 'L-commit').getByTestId('task-stage-pill')).toHaveText('Merged');
  await expect(page.getByTestId('group-needs-you').getByTestId('task-card')).toHaveCount(1); // L-fail only
  await page.screenshot({ path: test.info().outputPath('inbox-by-stage.png'), fullPage: true });
});

test('TSTATE-8: Run agent is not offered on a task that is running, awaiting approval, committed or merged', async ({ paired: page, relayEnv }) => {
  test.setTimeout(180_000);
  await page.clock.install(); // the page's clock: the commit's confirmation (TSTATE-5) stays until measured
  const task = startTask(relayEnv, 'R-1', 'No second agent');
  const noRunAgent = async (name: string) => {
    await expect(page.getByTestId('task-actions').or(page.getByTestId('task-finished'))).toBeVisible();
    await expect(page.getByTestId('run-agent'), `no Run agent while ${name}`).toHaveCount(0);
  };
  await openTask(page, relayEnv, task, { diff: false });
  await expect(stage(page)).toHaveAttribute('data-stage', 'running');
  await noRunAgent('running');

  requestApproval(relayEnv, task, { 'src/r.js': 'export const r = 1;\n' });
  await expect(stage(page)).toHaveAttribute('data-stage', 'approval');
  await noRunAgent('awaiting approval');

  await page.getByTestId('approve').click();
  await expect(stage(page)).toHaveAttribute('data-stage', 'approved');
  expect(task.commit().code).toBe(0);
  await expect(stage(page)).toHaveAttribute('data-stage', 'committed');
  await noRunAgent('committed');
  // ROOM-10: the "Committed …" confirmation's × sits beside its text, not on a line of its own.
  const confirmation = page.getByTestId('approval-state');
  const [text, dismiss] = await Promise.all([confirmation.locator('span').first().boundingBox(), page.getByTestId('committed-dismiss').boundingBox()]);
  expect(dismiss!.y).toBeLessThan(text!.y + text!.height);
  expect(dismiss!.x).toBeGreaterThanOrEqual(text!.x + text!.width);

  await page.getByTestId('finish-merge').click();
  await expect(stage(page)).toHaveAttribute('data-stage', 'merged');
  await expect(page.getByTestId('task-finished')).toContainText('there is nothing left to do');
  await noRunAgent('merged');
});

test('TSTATE-8 RUNFAIL-5: a failed task\'s main action in the dock runs the agent again; the sheet opens from it', async ({ paired: page, relayEnv }) => {
  const task = failedTask(relayEnv, 'R-fail');
  await openTask(page, relayEnv, task, { diff: false });
  await expect(stage(page)).toHaveAttribute('data-stage', 'failed');
  const bar = page.getByTestId('task-actions');
  const again = bar.getByTestId('run-agent');
  await expect(again).toHaveText('Run agent again');
  await expect(again).toHaveAttribute('data-variant', 'primary');
  await expect(page.getByTestId('run-agent')).toHaveCount(1); // the dock's; no second one in the Agent card
  await again.click();
  await expect(page.getByTestId('run-agent-sheet')).toBeVisible();
});

test('TSTATE-4: Run council is not offered while nothing is staged: there is nothing for it to review', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'C-0', 'Nothing staged yet');
  await openTask(page, relayEnv, task, { diff: false });
  await expect(stage(page)).toHaveAttribute('data-stage', 'running');
  await expect(page.getByTestId('approve-missing')).toContainText('Nothing staged');
  await expect(page.getByTestId('run-council')).toHaveCount(0);
  const more = page.getByTestId('finish-more-toggle');
  if (await more.count()) {
    await more.click();
    await expect(page.getByTestId('finish-more')).toBeVisible();
    await expect(page.getByTestId('run-council')).toHaveCount(0);
    await page.keyboard.press('Escape');
    await expect(page.getByTestId('finish-more')).toHaveCount(0);
  }
  await expect(page.getByTestId('run-council')).toHaveCount(0);

  requestApproval(relayEnv, task, { 'src/c.js': 'export const c = 1;\n' });
  await expect(stage(page)).toHaveAttribute('data-stage', 'approval');
  await page.getByTestId('finish-more-toggle').click();
  await expect(page.getByTestId('run-council')).toBeEnabled();
});

test('FINISH-10: in a repo with no remote, a committed task offers no Push or Open pull request and says why; with origin added, they come', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'P-1', 'Nowhere to push');
  requestApproval(relayEnv, task, { 'src/p.js': 'export const p = 1;\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('approve').click();
  await expect(stage(page)).toHaveAttribute('data-stage', 'approved');
  expect(task.commit().code).toBe(0);
  await expect(stage(page)).toHaveAttribute('data-stage', 'committed');
  await expect(page.getByTestId('no-remote')).toContainText('No remote to push to');
  await expect(page.getByTestId('no-remote').locator('code')).toHaveText('git remote add origin <url>');
  await expect(page.getByTestId('finish-merge')).toBeEnabled();
  await expect(page.getByTestId('finish-pr')).toHaveCount(0);
  await page.getByTestId('finish-more-toggle').click();
  await expect(page.getByTestId('finish-more')).toBeVisible();
  await expect(page.getByTestId('finish-push')).toHaveCount(0);
  await page.keyboard.press('Escape');

  // A remote added: the task's next summary (here, its completion) offers them again.
  git(relayEnv.repo, ['remote', 'add', 'origin', path.join(path.dirname(relayEnv.repo), 'remote.git')]);
  const file = readdirSync(path.join(relayEnv.bus, 'claimed')).find((f) => f.endsWith('_P-1.md'))!;
  relayEnv.tool('complete', [path.join(relayEnv.bus, 'claimed', file), 'pass']);
  await expect(stage(page)).toHaveAttribute('data-stage', 'done');
  await expect(page.getByTestId('finish-pr')).toBeEnabled();
  await expect(page.getByTestId('no-remote')).toHaveCount(0);
});
