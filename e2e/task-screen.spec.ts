// The task screen's reading parts against the real relay: header from the
// task summary, markdown body, and a timeline fed by the bus and by live events.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';

async function postLive(url: string, dataDir: string, event: Record<string, unknown>): Promise<void> {
  const token = readFileSync(path.join(dataDir, 'hook-token'), 'utf8').trim();
  const res = await fetch(`${url}/api/events`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, ...event }),
  });
  expect(res.status).toBeLessThan(300);
}

test('REVIEW-1: the header shows id, type, scope, state, owner and last note; REVIEW-2: the body is rendered markdown', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'H-1', 'Header task');
  relayEnv.tool('progress', ['H-1', 'wired the parser']);
  requestApproval(relayEnv, task, { 'src/h.js': 'h();\n' });
  await openTask(page, relayEnv, task);
  const header = page.getByTestId('task-header');
  await expect(page.getByTestId('task-id')).toHaveText('H-1');
  await expect(header).toContainText('implementation');
  await expect(header).toContainText('scope src/**');
  await expect(page.getByTestId('task-stage')).toHaveText('Awaiting approval'); // VOCAB-2: the stage word, not the bus state
  await expect(page.getByTestId('task-stage')).toHaveAttribute('data-state', 'claimed');
  // Who claimed it, in words (CLAIM-3's <host>_<pid>): the machine and the process, not the raw owner.
  await expect(page.getByTestId('task-owner')).toHaveText(/^claimed on .+ \(process \d+\)$/);
  await expect(page.getByTestId('timeline')).toContainText(/Claimed on .+ \(process \d+\)/);
  await expect(page.getByTestId('task-last-note')).toContainText('wired the parser');
  // The repo by its name; its id (name-<8 hex>) only as the title.
  await expect(page.getByTestId('task-repo')).toHaveText(path.basename(relayEnv.repo));
  await expect(page.getByTestId('task-repo')).toHaveAttribute('title', task.repoId);
  // A change is waiting for approval, so the brief starts folded and the diff comes first.
  const brief = page.getByTestId('task-brief');
  await expect(brief).not.toHaveAttribute('open', /.*/);
  await brief.locator('summary').click();
  await expect(page.getByTestId('task-body').locator('h2', { hasText: 'Acceptance criteria' })).toBeVisible();
});

test('REVIEW-8: the timeline shows bus events, new ones as they happen, live events, and a running action as the live line', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'L-1', 'Live task');
  requestApproval(relayEnv, task, { 'src/l.js': 'l();\n' });
  await openTask(page, relayEnv, task);
  const timeline = page.getByTestId('timeline');
  await expect(timeline.locator('[data-event="task_claimed"]')).toBeVisible();
  await expect(timeline.locator('[data-event="approval_requested"]')).toBeVisible();
  relayEnv.tool('progress', ['L-1', 'second pass on the parser']);
  await expect(timeline).toContainText('Progress: second pass on the parser');
  await postLive(relayEnv.url, relayEnv.relay.dataDir, { session: 'sess-1', kind: 'edit', summary: 'Edited src/l.js', file: 'src/l.js', task: 'L-1', ok: true });
  await postLive(relayEnv.url, relayEnv.relay.dataDir, { session: 'sess-1', kind: 'test', summary: 'npm test', cmd: 'npm test', task: 'L-1', running: true });
  await expect(timeline.locator('[data-kind="live"]')).toContainText('Edited src/l.js');
  await expect(page.getByTestId('timeline-running')).toContainText('Now: npm test');
  await postLive(relayEnv.url, relayEnv.relay.dataDir, { session: 'sess-1', kind: 'test', summary: 'npm test passed', cmd: 'npm test', task: 'L-1', ok: true });
  await expect(page.getByTestId('timeline-running')).toHaveCount(0);
  await expect(timeline).toContainText('npm test passed');
});

test('REVIEW-4: with nothing staged, Approve and Deny are off and the action bar says why (a phone shows no tooltip); once a change is staged the line goes and Approve works', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'N-1', 'Nothing staged yet');
  await page.goto(`${relayEnv.url}/task?repo=${encodeURIComponent(task.repoId)}&id=${encodeURIComponent(task.id)}`);
  const bar = page.getByTestId('task-actions');
  const why = bar.getByTestId('approve-missing');
  await expect(why).toHaveText('Nothing staged to approve yet: the agent has not asked to commit.');
  await expect(why).toBeInViewport();
  await expect(page.getByTestId('approve')).toBeDisabled();
  await expect(page.getByTestId('approve')).toHaveAccessibleDescription('Nothing staged to approve yet: the agent has not asked to commit.');
  await expect(page.getByTestId('deny')).toBeDisabled();
  // UX-10, ROOM-3: there is no gap between the dock and the tab bar for text scrolling behind it to show through.
  const gap = await page.locator('.task-dock').evaluate((dock) => document.querySelector('.shell-nav')!.getBoundingClientRect().top - dock.getBoundingClientRect().bottom);
  expect(Math.abs(gap)).toBeLessThanOrEqual(1);
  requestApproval(relayEnv, task, { 'src/n.js': 'n();\n' });
  await page.reload();
  await expect(page.getByTestId('approve')).toBeEnabled();
  await expect(why).toHaveCount(0);
});
