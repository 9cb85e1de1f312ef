// Run council from the task screen with a stand-in evaluator (COUNCIL_EVALUATOR_CMD
// in the relay's environment) and see the verdict with its three votes.
import { chmodSync, existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { test, expect } from './fixtures';
import { openTask, requestApproval, startTask } from './task-setup';

let scratch: string;
const saved = { cmd: process.env.COUNCIL_EVALUATOR_CMD, key: process.env.ANTHROPIC_API_KEY };
test.beforeEach(() => { scratch = mkdtempSync(path.join(tmpdir(), 'commandr-council-')); });
test.afterEach(() => {
  for (const [name, value] of [['COUNCIL_EVALUATOR_CMD', saved.cmd], ['ANTHROPIC_API_KEY', saved.key]] as const) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
  rmSync(scratch, { recursive: true, force: true });
});

/** Votes PASS on acceptance criteria and code quality; fails to run for style (an abstention). */
function evaluator(): string {
  const script = path.join(scratch, 'evaluator.js');
  writeFileSync(script, [
    'const dimension = process.argv[process.argv.length - 1];',
    "if (dimension === 'style') process.exit(2);",
    "process.stdout.write('VOTE: PASS\\nREASON: the ' + dimension + ' look right to me\\n');",
  ].join('\n'));
  chmodSync(script, 0o755);
  return `node ${script}`;
}

test('REVIEW-5: Run council shows the verdict, three votes with their reasons, and why one abstained', async ({ paired: page, relayEnv }) => {
  process.env.COUNCIL_EVALUATOR_CMD = evaluator();
  const task = startTask(relayEnv, 'C-1', 'Council me');
  requestApproval(relayEnv, task, { 'src/c.js': 'c();\n' });
  await openTask(page, relayEnv, task);
  await expect(page.getByTestId('council-verdict')).toHaveCount(0);
  await page.getByTestId('finish-more-toggle').click(); // Run council is under More (ROOM-1)
  await page.getByTestId('run-council').click();
  await expect(page.getByTestId('council-done')).toBeVisible();
  const verdict = page.getByTestId('council-verdict');
  await expect(verdict).toHaveAttribute('data-verdict', 'PASS');
  await expect(page.getByTestId('council-vote')).toHaveCount(3);
  await expect(verdict).toContainText('the code-quality look right to me');
  // When, as the app says every time: the phone's clock, the day only if it is not today.
  await expect(verdict.locator('time')).toHaveText(/^(?:[A-Z][a-z]{2} \d{1,2}, )?\d{1,2}:\d\d(?:\s[AP]M)?$/);
  await expect(page.locator('[data-testid="council-vote"][data-vote="ABSTAIN"]')).toContainText('evaluator failed (evaluator exit 2)');
  expect(relayEnv.events().find((e) => e.event === 'council_verdict' && e.task === 'C-1')).toMatchObject({ verdict: 'PASS', abstentions: 1 });
});

test('REVIEW-5 RUNREADY-4: with no evaluator and no API key, Run council is refused before it starts and says what to set where; no verdict appears', async ({ paired: page, relayEnv }) => {
  delete process.env.COUNCIL_EVALUATOR_CMD;
  delete process.env.ANTHROPIC_API_KEY;
  const task = startTask(relayEnv, 'C-2', 'No key');
  requestApproval(relayEnv, task, { 'src/k.js': 'k();\n' });
  await openTask(page, relayEnv, task);
  await page.getByTestId('finish-more-toggle').click(); // Run council is under More (ROOM-1)
  await page.getByTestId('run-council').click();
  const refused = page.locator('.action-status[role="status"]');
  await expect(refused).toContainText('The council needs an Anthropic API key on');
  await expect(refused).toContainText('Set ANTHROPIC_API_KEY');
  await expect(page.getByTestId('council-verdict')).toHaveCount(0);
  expect(existsSync(path.join(relayEnv.bus, 'council', `${task.id}.json`))).toBe(false);
});
