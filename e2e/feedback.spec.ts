// Trust at a glance on the task screen (UX-1, UX-2, UX-7, UX-9), against a real relay,
// real git and the real gate: an outcome shows right above the action bar, on screen;
// the brief never opens by itself; an honest council; refusals said as they are (the
// relay's own reason).
import { chmodSync, cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { test, expect } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';

const FAKE_ADAPTER = path.resolve(__dirname, '..', 'test', 'stand-ins', 'fake-adapter');
let scratch: string;
const saved = { cmd: process.env.COUNCIL_EVALUATOR_CMD, key: process.env.ANTHROPIC_API_KEY, home: process.env.FAKE_ADAPTER_HOME };
test.beforeEach(() => { scratch = mkdtempSync(path.join(tmpdir(), 'commandr-feedback-')); });
test.afterEach(() => {
  for (const [name, value] of [['COUNCIL_EVALUATOR_CMD', saved.cmd], ['ANTHROPIC_API_KEY', saved.key], ['FAKE_ADAPTER_HOME', saved.home]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** An evaluator voting `votes[dimension]`; a dimension it does not know exits 2 (an abstention). */
function evaluator(votes: Record<string, 'PASS' | 'FAIL'>): string {
  const script = path.join(scratch, 'evaluator.js');
  writeFileSync(script, [
    `const votes = ${JSON.stringify(votes)};`,
    'const vote = votes[process.argv[process.argv.length - 1]];',
    'if (!vote) process.exit(2);',
    "process.stdout.write('VOTE: ' + vote + '\\nREASON: stand-in says ' + vote + '\\n');",
  ].join('\n'));
  chmodSync(script, 0o755);
  return `node ${script}`;
}

/** The outcome is on screen and sits directly above the action bar. */
async function expectAboveBar(page: Page, testId: string): Promise<void> {
  const status = page.getByTestId(testId);
  await expect(status).toBeInViewport();
  const box = (await status.boundingBox())!;
  const bar = (await page.getByTestId('task-actions').boundingBox())!;
  expect(box.y + box.height).toBeLessThanOrEqual(bar.y + 1);
  expect(bar.y - (box.y + box.height)).toBeLessThan(16);
}

test('UX-1: the result of Approve shows right above the action bar, on screen; UX-2: the brief stays folded when the state changes', async ({ paired: page, relayEnv }) => {
  const task = startTask(relayEnv, 'F-1', 'Feedback where I tapped');
  requestApproval(relayEnv, task, { 'src/f.js': Array.from({ length: 80 }, (_, i) => `line(${i});`).join('\n') + '\n' });
  await openTask(page, relayEnv, task);
  const brief = page.getByTestId('task-brief');
  await expect(brief).not.toHaveAttribute('open', /.*/);
  await page.getByTestId('approve').click();
  await expectAboveBar(page, 'approval-done');
  // The approval clears the pending state; the brief must not spring open and push the diff away.
  await expect(page.getByTestId('task-screen').locator('.pill', { hasText: 'Awaiting approval' })).toHaveCount(0);
  await expect(brief).not.toHaveAttribute('open', /.*/);
  await page.getByTestId('action-status-dismiss').click();
  await expect(page.getByTestId('approval-done')).toHaveCount(0);
});

test('UX-9: Run agent refused by the relay (a job already runs on the task) says the relay\'s own reason, once, never "already decided", and leaves nothing to retry', async ({ paired: page, relayEnv }) => {
  // The stand-in agent, installed as this relay's local "claude" adapter, hangs: its job keeps
  // running while the task is still in the inbox, where Run agent is the bar's main action.
  cpSync(FAKE_ADAPTER, path.join(relayEnv.relay.dataDir, 'adapters', 'claude'), { recursive: true });
  process.env.FAKE_ADAPTER_HOME = relayEnv.fakeAdapterHome;
  writeFileSync(path.join(relayEnv.bus, 'inbox', 'F-2.md'),
    '---\nid: F-2\ntype: implementation\nscope: src/**\n---\n# Run me twice\n\n## Context\nFAKE:hang\n\n## Acceptance criteria\n- works\n\n## Files to touch\n- src/x.js\n\n## Do not touch\n- .agents/\n');
  await page.getByTestId('task-card').filter({ hasText: 'F-2' }).click();
  await expect(page.getByTestId('task-actions')).toHaveAttribute('data-stage', 'inbox');
  // This screen's Run agent sheet is open when the same task's job is started from another tab:
  // the bar then stops offering Run agent (RUNREADY-5), but the open sheet can still send it.
  await page.getByTestId('run-agent').click();
  const other = await page.context().newPage();
  await other.goto(page.url());
  await other.getByTestId('run-agent').click();
  await other.getByTestId('run-agent-start').click();
  await expect(other.getByTestId('job')).toHaveAttribute('data-status', 'running');
  await expect(other.getByTestId('job-output')).toContainText('hanging: until killed');
  const running = await other.getByTestId('job').getAttribute('data-job');
  await other.close();
  const job = page.getByTestId('job');
  await expect(job).toHaveAttribute('data-job', running!);
  await expect(page.getByTestId('task-actions')).toHaveAttribute('data-stage', 'inbox');

  // A second run of the same task: the relay refuses it (E_CONFLICT), and the sheet says its reason (RUNREADY-2).
  await page.getByTestId('run-agent-start').click();
  const refused = page.getByTestId('run-agent-refusal');
  await expect(refused).toContainText(`Not done: task F-2 already has a running job (${running}).`);
  await expect(refused).toHaveAttribute('data-tone', 'danger');
  await expect(refused).toHaveCount(1);
  await expect(refused).not.toContainText('already decided');
  await page.keyboard.press('Escape');
  await expect(refused).toHaveCount(0);
  await expect(job).toHaveAttribute('data-job', running!); // the first job is the one still shown
  await expect(page.getByTestId('queued-item')).toHaveCount(0);
  await page.getByTestId('job-stop').click();
  await expect(job).toHaveAttribute('data-status', 'failed');
  await page.getByTestId('back').click();
  await expect(page).toHaveURL(`${relayEnv.url}/`);
  await expect(page.getByTestId('queued-item')).toHaveCount(0);
});

test('UX-14: the tally and each vote show; approving over a FAIL asks first', async ({ paired: page, relayEnv }) => {
  process.env.COUNCIL_EVALUATOR_CMD = evaluator({ 'acceptance-criteria': 'PASS', 'code-quality': 'FAIL', style: 'FAIL' });
  const task = startTask(relayEnv, 'F-3', 'Council says no');
  requestApproval(relayEnv, task, { 'src/c.js': 'c();\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('finish-more-toggle').click(); // Run council is under More (ROOM-1)
  await page.getByTestId('run-council').click();
  const verdict = page.getByTestId('council-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'FAIL');
  await expect(page.getByTestId('council-tally')).toHaveText('1 of 3 reviewers passed it');
  await expect(page.getByTestId('council-vote')).toHaveCount(3);
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('confirm-approve-sheet')).toContainText('The council voted FAIL: 1 of 3 reviewers passed it.');
  await page.getByTestId('confirm-approve').click();
  await expectAboveBar(page, 'approval-done');
  expect(relayEnv.events().some((e) => e.event === 'approval_granted' && e.task === 'F-3')).toBe(true);
});

test('UX-14: when no reviewer could vote the app says the council is not configured, in neutral colours, and Approve asks nothing', async ({ paired: page, relayEnv }) => {
  process.env.COUNCIL_EVALUATOR_CMD = evaluator({});
  const task = startTask(relayEnv, 'F-4', 'No reviewers');
  requestApproval(relayEnv, task, { 'src/n.js': 'n();\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('finish-more-toggle').click(); // Run council is under More (ROOM-1)
  await page.getByTestId('run-council').click();
  await expect(page.getByTestId('council-none')).toHaveText('No reviewer could vote — council not configured');
  const verdict = page.getByTestId('council-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'none');
  await expect(verdict.locator('[data-tone="danger"]')).toHaveCount(0);
  expect(relayEnv.events().find((e) => e.event === 'council_verdict' && e.task === 'F-4')).toMatchObject({ verdict: 'FAIL', abstentions: 3 });
  await page.getByTestId('approve').click();
  await expect(page.getByTestId('confirm-approve-sheet')).toHaveCount(0);
  await expect(page.getByTestId('approval-done')).toBeVisible();
});
