// The phone says the truth about an approval (APPROVAL-9) against a real relay,
// the real gate and real git commits: waiting for the commit with Approve/Deny
// off, the commit in the timeline once the gate passed, and a stale approval.
import { test, expect } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';

test('APPROVAL-9: after Approve the task waits for the agent’s commit with Approve/Deny off; the commit then shows in the timeline', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'S-1', 'Approve then commit');
  requestApproval(relayEnv, task, { 'src/ok.js': 'export const ok = true;\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('approval-state')).toContainText('Approved — waiting for the agent’s commit');
  await expect(page.getByTestId('approve')).toBeDisabled();
  await expect(page.getByTestId('deny')).toBeDisabled();
  const commit = task.commit();
  expect(commit.stderr).toBe('');
  expect(commit.code).toBe(0);
  const hash = task.head();
  await expect(page.getByTestId('timeline')).toContainText(`Committed ${hash.slice(0, 10)}: work on S-1`);
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'committed');
});

test('APPROVAL-9: when the agent stages a different change after the approval, the card says the approval is stale', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'S-2', 'Approve then change');
  requestApproval(relayEnv, task, { 'src/a.js': 'export const a = 1;\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'waiting');
  task.stage({ 'src/a.js': 'export const a = 2; // changed after approval\n' });
  expect(task.commit().code).not.toBe(0);
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'stale');
  await expect(page.getByTestId('approval-state')).toContainText('approval is stale');
  await page.getByTestId('approval-reload').click();
  await expect(page.getByTestId('diff-view')).toContainText('changed after approval');
  await expect(page.getByTestId('approve')).toBeEnabled();
});
