// The phone says the truth about an approval (APPROVAL-9) against a real relay,
// the real gate and real git commits: waiting for the commit with Approve/Deny
// off, the commit in the timeline once the gate passed, and a stale approval.
import { test, expect } from './fixtures';
import { git, openTask, requestApproval, startTask } from './task-setup';

test('APPROVAL-9: after Approve the task waits for the agent’s commit with Approve/Deny off; the commit then shows in the timeline', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'S-1', 'Approve then commit');
  requestApproval(relayEnv, task, { 'src/ok.js': 'export const ok = true;\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('approval-state')).toContainText('Approved, waiting for the agent’s commit');
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

test('APPROVAL-9: a commit made without the approval (the gate skipped) ends the wait: the card names it and says the approval no longer applies', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'S-3', 'Approve then skip the gate');
  requestApproval(relayEnv, task, { 'src/b.js': 'export const b = 1;\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('approval-done')).toBeVisible();
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'waiting');
  git(task.worktree, ['commit', '-q', '--no-verify', '-m', 'work on S-3 by hand']); // post-commit still reports it
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'uncarried');
  await expect(page.getByTestId('approval-state')).toContainText(`Committed ${task.head().slice(0, 10)}: work on S-3 by hand — without your approval in it`);
  await expect(page.getByTestId('approval-done')).toHaveCount(0); // "Approved…" would contradict the card
});

test.describe('with the demo workspace', () => {
  test.use({ demo: true });

  test('APPROVAL-9, DEMO-5: approving the demo change ends with one truthful card: committed, the approval carried', async ({ paired: page }) => {
    const card = page.getByTestId('group-approval').getByTestId('task-card').first();
    await card.click();
    await expect(page.getByTestId('diff-digest')).toBeVisible();
    await page.getByTestId('approve').click();
    await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'committed');
    await expect(page.getByTestId('approval-state')).toContainText('Demo: greet people by name');
    await expect(page.getByTestId('approval-done')).toHaveCount(0);
    await expect(page.getByTestId('timeline')).not.toContainText('without an approval');
  });
});

test('REVIEW-9: a task awaiting approval opens on its diff, above the agent card; approving does not reorder the screen', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'S-4', 'Review first');
  requestApproval(relayEnv, task, { 'src/r.js': 'export const r = 1;\n' });
  await openTask(page, relayEnv, task);
  await expect(page.getByTestId('diff-digest')).toBeVisible();
  const top = async (testId: string) => (await page.getByTestId(testId).first().boundingBox())!.y;
  // No agent card at all here: no job of this task, and none to start while a change waits (TSTATE-8).
  await expect(page.getByTestId('agent-run')).toHaveCount(0);
  expect(await top('changes')).toBeLessThan(await top('timeline'));
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('approval-state')).toHaveAttribute('data-state', 'waiting');
  await expect(page.getByTestId('agent-run')).toHaveCount(0);
  expect(await top('changes')).toBeLessThan(await top('timeline')); // the order stays as it opened
});
