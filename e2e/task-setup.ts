// Test setup for the review specs: a task claimed with the real `claim`, an
// agent worktree on branch agent/<task>, and a commit the real gate blocks,
// so the relay reports a pending approval with a real staged digest.
import { spawnSync, execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { realpathSync } from 'node:fs';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { repoIdOf } from '../relay/watch/repo-id';
import { expect, type RelayFixture } from './fixtures';

export const GIT_ENV = {
  GIT_AUTHOR_NAME: 'agent', GIT_AUTHOR_EMAIL: 'agent@example.com', GIT_COMMITTER_NAME: 'agent', GIT_COMMITTER_EMAIL: 'agent@example.com',
};

export interface AgentTask {
  id: string;
  repoId: string;
  worktree: string;
  /** Writes files and stages them in the worktree. */
  stage(files: Record<string, string>): void;
  /** `git commit` through the installed gate hook. */
  commit(): { code: number | null; stderr: string };
  head(): string;
}

export function git(cwd: string, args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', env: { ...process.env, ...GIT_ENV } });
}

/** Adds, claims and starts work on a task in its own worktree. */
export function startTask(env: RelayFixture, id: string, title: string): AgentTask {
  env.addPacket(id, title);
  expect(env.tool('claim')).toContain('claimed:');
  const worktree = path.join(path.dirname(env.repo), `wt-${id}`);
  git(env.repo, ['worktree', 'add', '-q', '-b', `agent/${id}`, worktree]);
  return {
    id,
    repoId: repoIdOf(realpathSync(env.repo)),
    worktree,
    stage(files) {
      for (const [name, content] of Object.entries(files)) {
        const file = path.join(worktree, name);
        mkdirSync(path.dirname(file), { recursive: true });
        writeFileSync(file, content);
      }
      git(worktree, ['add', '-A', '--', ...Object.keys(files)]);
    },
    commit() {
      // The gate trusts this relay's approval key (APPROVAL-6): $COMMANDR_HOME/approval/public.pem.
      const r = spawnSync('git', ['commit', '-q', '-m', `work on ${id}`], { cwd: worktree, encoding: 'utf8', env: { ...process.env, ...GIT_ENV, COMMANDR_HOME: env.relay.dataDir } });
      return { code: r.status, stderr: r.stderr };
    },
    head: () => git(worktree, ['rev-parse', 'HEAD']).trim(),
  };
}

/** Stages a change and lets the gate block it: an approval_requested lands on the bus. */
export function requestApproval(env: RelayFixture, task: AgentTask, files: Record<string, string>): void {
  task.stage(files);
  const blocked = task.commit();
  expect(blocked.code).not.toBe(0);
  expect(env.events().some((e) => e.event === 'approval_requested' && e.task === task.id)).toBe(true);
}

export function approvalToken(env: RelayFixture, id: string): string | null {
  const file = path.join(env.bus, 'approvals', `${id}.approved`);
  return existsSync(file) ? readFileSync(file, 'utf8') : null;
}

/**
 * Opens the task screen and waits for its diff to be on screen; with `{ diff: false }` (nothing staged
 * yet, so no diff view will come) only for the screen.
 */
export async function openTask(page: Page, env: RelayFixture, task: AgentTask, opts: { diff?: boolean } = {}): Promise<void> {
  await page.goto(`${env.url}/task?repo=${encodeURIComponent(task.repoId)}&id=${encodeURIComponent(task.id)}`);
  await expect(page.getByTestId('task-screen')).toBeVisible();
  if (opts.diff !== false) await expect(page.getByTestId('diff-view')).toBeVisible();
}

/** Ten files of 1,000 added lines each: 10,000 diff lines, none folded. */
export function bigChange(): Record<string, string> {
  const files: Record<string, string> = {};
  for (let f = 0; f < 10; f++) {
    files[`src/gen/part-${f}.ts`] = Array.from({ length: 1000 }, (_, i) => `export const value_${f}_${i} = ${i} * ${f} + 1; // line ${i + 1}`).join('\n') + '\n';
  }
  return files;
}
