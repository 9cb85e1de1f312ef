// A commander whose start failed (CMDRFAIL-n, protocol/spec/failures.md), on the phone and the desktop,
// with a fake `claude` that prints what the real Claude Code printed when its login was gone: not logged
// in at all, the Start commander sheet says what to do and offers Retry (the same start, sent again);
// a saved login the CLI refuses, the commander's screen says why in one sentence with the CLI's output
// under Details, keeps it after a reload, and Retry starts the same first turn again.
import { mkdirSync, writeFileSync } from 'node:fs';
import { hostname } from 'node:os';
import path from 'node:path';
import { notLoggedInSentence } from '../adapters/lib/readiness';
import { useLoggedOutClaude } from './logged-out';
import { test, expect } from './fixtures';

const claude = useLoggedOutClaude('cmdr-fail-e2e-home-');

test('CMDRFAIL-3, CMDRFAIL-1, CMDRFAIL-2: a refused start offers Retry; a first turn that fails shows one sentence and Details, is kept after a reload, and Retry starts it again', async ({ paired: page }, info) => {
  const sentence = notLoggedInSentence(hostname());
  await page.getByTestId('nav-commanders').click();
  await page.getByTestId('cmdr-new').click();
  await page.getByTestId('cmdr-name').fill('Notes keeper');
  await page.getByTestId('cmdr-agent').selectOption('claude');
  await page.getByTestId('cmdr-first-message').fill('Sort my notes');
  await page.getByTestId('cmdr-start').click();

  // Not logged in at all: refused before anything is made, in the sheet, with Retry.
  await expect(page.getByTestId('start-error')).toHaveText(`${sentence.replaceAll('`', '')} Nothing was started.`); // its command as code (RUNFAIL-5)
  await expect(page.getByTestId('start-sheet')).toBeVisible();
  await expect(page).not.toHaveURL(/\/commander\?id=/);
  // ROOM-11: after the refusal, Retry is the one main button and the sheet's buttons are in view at its foot.
  await expect(page.getByTestId('start-retry')).toBeInViewport({ ratio: 1 });
  await expect(page.getByTestId('start-retry')).toHaveAttribute('data-variant', 'primary');
  await expect(page.getByTestId('cmdr-start')).not.toHaveAttribute('data-variant', 'primary');

  // A saved login the CLI no longer accepts: readiness passes, the first turn fails.
  mkdirSync(path.join(claude.home(), '.claude'), { recursive: true });
  writeFileSync(path.join(claude.home(), '.claude', '.credentials.json'), '{"claudeAiOauth":{"accessToken":"expired"}}\n');
  await page.getByTestId('start-retry').click();
  await expect(page).toHaveURL(/\/commander\?id=c-/);

  const failure = page.getByTestId('cmdr-failure');
  await expect(page.getByTestId('cmdr-failure-reason')).toHaveText(sentence, { timeout: 30_000 });
  await expect(failure).toContainText('This commander could not start.');
  await expect(page.getByTestId('cmdr-dead')).toHaveCount(0); // one message, not two
  const raw = page.getByTestId('cmdr-failure-output');
  await expect(raw).toBeHidden();
  await page.getByTestId('cmdr-failure-details').getByText('Details').click();
  await expect(raw).toContainText('Not logged in · Please run /login');
  await page.getByTestId('cmdr-failure-details').getByText('Details').click();
  if (info.project.name === 'phone') await page.screenshot({ path: info.outputPath('commander-failed-start-phone.png') });

  await page.reload();
  await expect(page.getByTestId('cmdr-failure-reason')).toHaveText(sentence);
  await expect(raw).toBeHidden();

  writeFileSync(path.join(claude.home(), 'logged-in'), '');
  await page.getByTestId('cmdr-retry').click();
  await expect(page.getByTestId('cmdr-status')).toHaveText(/idle|waiting for you/, { timeout: 30_000 });
  await expect(page.getByTestId('cmdr-failure')).toHaveCount(0);
  await expect(page.getByTestId('chat-commander').last()).toContainText('All done.');
});
