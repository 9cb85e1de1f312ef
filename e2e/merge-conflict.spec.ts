// A merge the relay refuses because main moved and the two conflict (FINISH-3), as the phone shows it:
// one sentence that names the conflicting file and what to do, in the dock, without stuttering (QUEUE-4).
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';

test.use({ demo: true });

test('QUEUE-4: a conflicting merge says "Not merged: …" naming the file and what to do, once, and main is left as it was', async ({ paired: page, relayEnv }) => {
  const repo = path.dirname(relayEnv.demoBus);
  const git = (...args: string[]) => execFileSync('git', args, {
    cwd: repo, encoding: 'utf8', env: { ...process.env, GIT_AUTHOR_NAME: 'p', GIT_AUTHOR_EMAIL: 'p@example.com', GIT_COMMITTER_NAME: 'p', GIT_COMMITTER_EMAIL: 'p@example.com' },
  }).trim();
  // The person changes, on main, the file the committed task adds.
  mkdirSync(path.join(repo, 'src'), { recursive: true });
  writeFileSync(path.join(repo, 'src/farewell.js'), 'export const bye = "mine";\n');
  git('add', 'src/farewell.js');
  git('-c', 'core.hooksPath=/dev/null', 'commit', '-q', '-m', 'person edits farewell');
  const main = git('rev-parse', 'main');

  await page.getByTestId('task-card').filter({ hasText: 'demo-7-farewell' }).click();
  await page.getByTestId('finish-merge').click();
  const refused = page.getByTestId('merge-refused').locator('.action-status-text');
  await expect(refused).toHaveText(/^Not merged: main moved since the task branched and the two conflict in src\/farewell\.js; have the agent rebase agent\/demo-7-farewell on main/);
  await expect(refused).not.toContainText('Not done: not merged');
  await page.screenshot({ path: test.info().outputPath('merge-conflict.png') });
  expect(git('rev-parse', 'main')).toBe(main);
  await expect(page.getByTestId('finish-merge')).toBeEnabled(); // still committed: nothing moved
});
