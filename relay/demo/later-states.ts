// The demo's later states (DEMO-STATES-n): a task committed with a real signed approval, one
// merged into the base, one whose agent run failed, one running. Each is made as the real
// thing happens — the gate blocks the staged change, the relay's key signs the approval, the
// commit carries it and spends it, the relay's own merge moves the base, the job service's
// failure sentence and store — so the phone shows a newcomer a task's whole life.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addApprovalTrailer, spendAfterCommit } from '../../bus/approval/commit-hooks';
import { loadOrCreateSigningKey } from '../../bus/approval/keys';
import { repoKeyOf, signApproval } from '../../bus/approval/sign';
import { appendEvent } from '../../bus/event-log';
import { runGate, writeSignedToken } from '../../bus/gate';
import { git as gitRun } from '../../bus/git/run';
import { appendProgress } from '../../bus/progress';
import type { JobState } from '../../protocol/wire/frames';
import type * as z from 'zod/mini';
import { mergeTask } from '../actions/task-merge';
import { stagedState } from '../actions/staged-state';
import { explainFailure } from '../jobs/failure';

export const DEMO_AGENT = 'demo-host_4242';
/** Who approved and merged in the demo: no device did, so it says so. */
export const DEMO_PERSON = 'demo';

export function demoGitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env, GIT_AUTHOR_NAME: 'Commandr demo', GIT_AUTHOR_EMAIL: 'demo@commandr.invalid',
    GIT_COMMITTER_NAME: 'Commandr demo', GIT_COMMITTER_EMAIL: 'demo@commandr.invalid', AGENTS_TASK_ID: '',
  };
}

/** git in `cwd`, not blocking the event loop, so the demo's tasks are made side by side. */
export const gitAsync = async (cwd: string, ...args: string[]): Promise<string> => (await gitRun(args, { cwd, env: demoGitEnv() })).toString('utf8');

/**
 * The agent's commit, as its hooks make it: the gate allows it (a signed token for exactly this
 * staged change), the message carries the approval (APPROVAL-7), and the token is spent with
 * `task_committed {digest}` (APPROVAL-8). False, changing nothing, while the gate still blocks.
 */
export async function commitThroughGate(worktree: string, subject: string): Promise<boolean> {
  const env = demoGitEnv();
  const gate = await runGate(worktree, env);
  if (!gate.allow) return false;
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-demo-commit-'));
  try {
    const message = path.join(scratch, 'message');
    fs.writeFileSync(message, `${subject}\n`);
    await addApprovalTrailer(message, worktree, env);
    await gitRun(['commit', '-q', '--no-verify', '-F', message], { cwd: worktree, env });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  await spendAfterCommit(worktree, env);
  return true;
}

/** What `task.approve` does, with the relay's key: sign {repo, task, base, tree, digest} of the staged change, write the token, `approval_granted`. */
export async function approveStaged(bus: string, task: string, worktree: string, dataDir: string): Promise<string> {
  const state = await stagedState(worktree);
  if (state.tree instanceof Error) throw new Error(`demo: the staged change of ${task} has no tree: ${state.tree.message}`);
  const approval = signApproval({
    v: 1, repo: repoKeyOf(path.dirname(bus)), task, base: state.base, tree: state.tree, digest: state.digest, by: DEMO_PERSON, ts: new Date().toISOString(),
  }, loadOrCreateSigningKey(dataDir));
  writeSignedToken(bus, approval);
  appendEvent(bus, { event: 'approval_granted', task, digest: state.digest, by: DEMO_PERSON });
  return state.digest;
}

export interface DemoChange { task: string; file: string; text: string; subject: string; /** The commit agent/<task> starts from. */ from: string }

/** agent/<task> in its own worktree: the change staged, blocked by the gate, approved, committed. */
export async function commitApprovedChange(bus: string, repo: string, root: string, dataDir: string, change: DemoChange): Promise<void> {
  const worktree = path.join(root, 'worktrees', change.task);
  await gitAsync(repo, 'worktree', 'add', '-q', '-b', `agent/${change.task}`, worktree, change.from);
  fs.mkdirSync(path.dirname(path.join(worktree, change.file)), { recursive: true });
  fs.writeFileSync(path.join(worktree, change.file), change.text);
  await gitAsync(worktree, 'add', '--', change.file);
  const blocked = await runGate(worktree, demoGitEnv());
  if (blocked.allow) throw new Error(`demo: the gate let ${change.task}'s unapproved commit through`);
  await approveStaged(bus, change.task, worktree, dataDir);
  if (!(await commitThroughGate(worktree, change.subject))) throw new Error(`demo: the gate blocked ${change.task}'s approved commit`);
  appendProgress(bus, change.task, 'Committed the approved change', DEMO_AGENT);
}

/** The relay's own merge (FINISH-1, FINISH-2: verified first) and its `task_merged`, as `task.merge` writes it. */
export async function mergeIntoBase(bus: string, repo: string, task: string, dataDir: string): Promise<void> {
  const merged = await mergeTask({ repo, task, by: DEMO_PERSON, dataDir });
  appendEvent(bus, { event: 'task_merged', task, base: merged.base, commit: merged.commit, mode: merged.mode, by: DEMO_PERSON });
}

/** Claude Code's output when its login is gone, as the real CLI prints it through the adapter (test/jobs/recorded/). */
export const NOT_LOGGED_IN_OUTPUT = 'SESSION: c11bf9bf-018a-4366-91c1-a8b17e19de15\nNot logged in · Please run /login\n';

/**
 * A run of Claude Code on `task` that failed as RUNFAIL-1 describes: the job service's own sentence
 * (explainFailure) on the bus as `task_failed`, and the job kept in `<dataDir>/jobs/failed.json`
 * (RUNFAIL-2) with the raw output as its details.
 */
export function failedRun(bus: string, repo: string, task: string, dataDir: string): z.infer<typeof JobState> {
  const job = `j-${crypto.randomBytes(6).toString('hex')}`;
  const failure = explainFailure('claude', { code: 1, signal: null, stderrTail: '', spawnError: null, stopped: false }, NOT_LOGGED_IN_OUTPUT);
  appendEvent(bus, { event: 'task_failed', task, agent: `claude-${job}`, reason: failure.reason });
  const repoId = repoKeyOf(repo);
  const end: z.infer<typeof JobState> = { type: 'job.state', job, repo: repoId, task, mode: 'work', status: 'failed', exitCode: 1, agent: 'claude', ...failure };
  const dir = path.join(dataDir, 'jobs');
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, 'failed.json');
  let kept: Record<string, unknown> = {};
  try {
    const raw: unknown = JSON.parse(fs.readFileSync(file, 'utf8'));
    if (typeof raw === 'object' && raw !== null) kept = raw as Record<string, unknown>;
  } catch { /* none yet */ }
  kept[`${repoId}\t${task}`] = end;
  const tmp = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(tmp, `${JSON.stringify(kept)}\n`, { mode: 0o600 });
  fs.renameSync(tmp, file);
  return end;
}
