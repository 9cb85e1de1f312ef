// Failures a person can act on (protocol/spec/failures.md), on the phone and the desktop: Run agent
// with Claude Code not ready is refused inside the sheet and starts nothing; a run that fails the way
// the real Claude Code does when its login is gone (its recorded output, printed by a fake `claude`)
// says why in one sentence with the raw output under Details, is still there after a reload, and
// Retry starts it again (and succeeds once the fake is "logged in").
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { notLoggedInSentence } from '../adapters/lib/readiness';
import { useLoggedOutClaude } from './logged-out';
import { test, expect, type RelayFixture } from './fixtures';
import type { Page } from '@playwright/test';

const claude = useLoggedOutClaude('failures-e2e-home-');
/** A sentence as the app shows it: its `commands` as code, without the backticks (RUNFAIL-5). */
const shown = (sentence: string) => sentence.replaceAll('`', '');

async function startClaude(page: Page, env: RelayFixture, id: string): Promise<void> {
  env.addPacket(id, 'Parse dates in the CSV import');
  await page.getByTestId('task-card').filter({ hasText: id }).click();
  await page.getByTestId('run-agent').click();
  await page.getByTestId('agent-claude').check();
  await page.getByTestId('intent-work').check();
  await page.getByTestId('run-agent-start').click();
}

test('RUNREADY-1, RUNREADY-2: Claude Code not logged in: the Run agent sheet says what to do and nothing starts', async ({ paired: page, relayEnv }) => {
  await startClaude(page, relayEnv, 'F-1');
  const refusal = page.getByTestId('run-agent-refusal');
  await expect(refusal).toHaveText(`${shown(notLoggedInSentence(hostname()))} Nothing was started.`);
  await expect(page.getByTestId('run-agent-sheet')).toBeVisible();
  await expect(page.getByTestId('job')).toHaveCount(0);
  expect(existsSync(path.join(relayEnv.bus, 'events.jsonl')) ? relayEnv.events().filter((e) => e.task === 'F-1') : []).toEqual([]);
  const jobs = path.join(relayEnv.relay.dataDir, 'jobs');
  expect(readdirSync(jobs).filter((f) => f.endsWith('.log'))).toEqual([]);
});

test('RUNFAIL-1, RUNFAIL-2, RUNFAIL-4: a run that fails (not logged in, as the real CLI says it) shows one sentence and Details, is kept after a reload, and Retry starts it again', async ({ paired: page, relayEnv }, info) => {
  // A saved login the CLI no longer accepts: readiness passes, the run fails.
  mkdirSync(path.join(claude.home(), '.claude'), { recursive: true });
  writeFileSync(path.join(claude.home(), '.claude', '.credentials.json'), '{"claudeAiOauth":{"accessToken":"expired"}}\n');
  await startClaude(page, relayEnv, 'F-2');
  const reason = page.getByTestId('job-reason');
  await expect(reason).toHaveText(shown(notLoggedInSentence(hostname())), { timeout: 30_000 });
  await expect(page.getByTestId('job')).toHaveAttribute('data-status', 'failed');
  // The raw output is folded under Details until asked for.
  const raw = page.getByTestId('job-output');
  await expect(raw).toBeHidden();
  await page.getByTestId('job-details').getByText('Details').click();
  await expect(raw).toContainText('Not logged in · Please run /login');
  await page.getByTestId('job-details').getByText('Details').click();
  await page.getByTestId('job-reason').scrollIntoViewIfNeeded();
  if (info.project.name === 'phone') await page.screenshot({ path: info.outputPath('failed-run-phone.png') });

  await page.reload();
  await expect(page.getByTestId('job-reason')).toHaveText(shown(notLoggedInSentence(hostname())));
  await expect(page.getByTestId('job-output')).toBeHidden();

  writeFileSync(path.join(claude.home(), 'logged-in'), '');
  await page.getByTestId('job-retry').click();
  await expect(page.getByTestId('job')).toHaveAttribute('data-status', 'done', { timeout: 30_000 });
  await expect(page.getByTestId('job-reason')).toHaveCount(0);
  await expect(page.getByTestId('job-output')).toContainText('All done.');
});

test('RUNFAIL-5: Retry that the relay refuses says so and that nothing was started, once', async ({ paired: page, relayEnv }) => {
  const login = path.join(claude.home(), '.claude', '.credentials.json');
  mkdirSync(path.dirname(login), { recursive: true });
  writeFileSync(login, '{"claudeAiOauth":{"accessToken":"expired"}}\n');
  await startClaude(page, relayEnv, 'F-3');
  await expect(page.getByTestId('job-reason')).toHaveText(shown(notLoggedInSentence(hostname())), { timeout: 30_000 });
  // RUNFAIL-5, ROOM-10: the sentence's commands are code, not backticks; "Details" is a 44 px target.
  await expect(page.getByTestId('job-reason').locator('code').first()).toHaveText('claude');
  expect((await page.getByTestId('job-details').locator('summary').boundingBox())!.height).toBeGreaterThanOrEqual(44);
  rmSync(login); // now readiness refuses the run before anything starts (RUNREADY-1)
  await page.getByTestId('job-retry').click();
  const notice = page.getByTestId('agent-notice');
  // The sentence's commands are shown as code, without their backticks.
  await expect(notice).toHaveText(`Retry refused: ${shown(notLoggedInSentence(hostname()))} Nothing was started.`);
  await expect(notice.locator('code').first()).toHaveText('claude');
  await expect(page.getByTestId('job')).toHaveAttribute('data-status', 'failed');
  await page.getByTestId('job-retry').click();
  await expect(page.getByTestId('job-retry')).toBeEnabled();
  await expect(notice).toHaveCount(1);
});
