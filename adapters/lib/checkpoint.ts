// Turn-end checkpoints (HOOK-n): a neutral task_progress note when the task's work
// state (HEAD + `git status --porcelain`) changed since the last one. The remembered
// state lives under $COMMANDR_HOME/hook-state/, never on the bus.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendProgress, noteProblem } from '../../bus/progress';
import { git as runGit, gitSync } from '../../bus/git/run';
import { type Env, commandrHome } from './env';
import type { TaskContext } from './task-context';

/** Bus folders of committed packets, moved by claim and complete. */
const PACKET_DIRS = ['inbox', 'done'];

export interface WorkState {
  hash: string;
  head?: string;
  changed: string[];
}

// --no-optional-locks: this runs beside the agent, whose own git commands must never meet our index.lock.
// Every run goes through the hardened runner (GITRUN-1, REPORTGIT-1): the relay runs these for a
// directory a hook report names, and `git status` would otherwise run the repository's fsmonitor,
// hooks and filter drivers. The agent's own hook (workState) keeps its environment whole.
const GIT_OPTIONS = { timeoutMs: 5000, maxBytes: 16 * 1024 * 1024 };
const git = (cwd: string, args: string[]): string =>
  gitSync(['--no-optional-locks', ...args], { cwd, env: process.env, ...GIT_OPTIONS }).toString('utf8');
const gitAsync = async (cwd: string, args: string[]): Promise<string> =>
  (await runGit(['--no-optional-locks', ...args], { cwd, top: cwd, ...GIT_OPTIONS })).toString('utf8');

const HEAD_ARGS = ['rev-parse', '--verify', '-q', 'HEAD'];
// Packets move only through the bus tools (a claim takes one out of inbox/): that is the bus's
// bookkeeping, not the agent's work, so it never counts as a changed file (HOOK-1).
// `--ignore-submodules=dirty`: a submodule's new commit still shows, but git does not run a
// `git status` inside each submodule, whose own config (`.git/modules/<name>/config`, which the
// agent can write) could name a filter command for the relay to run (REPORTGIT-1).
const STATUS_ARGS = ['status', '--porcelain', '--untracked-files=all', '--ignore-submodules=dirty', '--', '.', ...PACKET_DIRS.map((d) => `:(exclude).agents/${d}/`)];

function stateOf(head: string | undefined, porcelain: string): WorkState {
  const changed = porcelain.split('\n').filter((l) => l.length > 3).map((l) => l.slice(3));
  const hash = createHash('sha256').update(`${head ?? ''}\n${porcelain}`).digest('hex');
  return { hash, head, changed };
}

export function workState(worktree: string): WorkState {
  let head: string | undefined;
  try {
    head = git(worktree, HEAD_ARGS).trim() || undefined;
  } catch {
    head = undefined; // no commit yet
  }
  return stateOf(head, git(worktree, STATUS_ARGS));
}

/** workState without blocking: the relay computes it for a reported turn end (REPORT-2). */
export async function workStateAsync(worktree: string): Promise<WorkState> {
  const [head, porcelain] = await Promise.all([gitAsync(worktree, HEAD_ARGS).then((out) => out.trim() || undefined, () => undefined), gitAsync(worktree, STATUS_ARGS)]);
  return stateOf(head, porcelain);
}

export const stateFile = (ctx: TaskContext, env: Env): string => {
  const place = createHash('sha256').update(ctx.worktree).digest('hex').slice(0, 12);
  return path.join(commandrHome(env), 'hook-state', `${ctx.task}.${place}.state`);
};

function remembered(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8').trim();
  } catch {
    return undefined;
  }
}

let temps = 0;

function remember(file: string, hash: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.${++temps}.tmp`;
  fs.writeFileSync(temp, hash + '\n');
  fs.renameSync(temp, file);
}

/** One line of human-readable status; falls back to counts when a file name is unfit for a note. */
export function checkpointNote(state: WorkState): string {
  const at = state.head ? ` at ${state.head.slice(0, 7)}` : '';
  if (state.changed.length === 0) return `checkpoint: working tree clean${at}`;
  const count = `${state.changed.length} file${state.changed.length === 1 ? '' : 's'} changed`;
  const names = state.changed.slice(0, 3).join(', ') + (state.changed.length > 3 ? ', …' : '');
  const detailed = `checkpoint: ${count} (${names})${at}`;
  return detailed.length <= 300 && noteProblem(detailed) === undefined ? detailed : `checkpoint: ${count}${at}`;
}

export type CheckpointResult = 'written' | 'unchanged';

/** Appends task_progress when the work state differs from the remembered one, then remembers it. */
export function checkpoint(ctx: TaskContext, env: Env = process.env): CheckpointResult {
  return record(ctx, env, workState(ctx.worktree));
}

export async function checkpointAsync(ctx: TaskContext, env: Env): Promise<CheckpointResult> {
  return record(ctx, env, await workStateAsync(ctx.worktree));
}

function record(ctx: TaskContext, env: Env, state: WorkState): CheckpointResult {
  const file = stateFile(ctx, env);
  if (remembered(file) === state.hash) return 'unchanged';
  appendProgress(ctx.bus, ctx.task, checkpointNote(state), env.COMMANDR_AGENT_ID?.trim() || undefined);
  remember(file, state.hash);
  return 'written';
}
