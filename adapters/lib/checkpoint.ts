// Turn-end checkpoints (HOOK-n): a neutral task_progress note when the task's work
// state (HEAD + `git status --porcelain`) changed since the last one. The remembered
// state lives under $COMMANDR_HOME/hook-state/, never on the bus.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendProgress, noteProblem } from '../../bus/progress';
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
const git = (cwd: string, args: string[]): string =>
  execFileSync('git', ['--no-optional-locks', ...args], { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], timeout: 5000, maxBuffer: 16 * 1024 * 1024 });

export function workState(worktree: string): WorkState {
  let head: string | undefined;
  try {
    head = git(worktree, ['rev-parse', '--verify', '-q', 'HEAD']).trim() || undefined;
  } catch {
    head = undefined; // no commit yet
  }
  // Packets move only through the bus tools (a claim takes one out of inbox/): that is the bus's
  // bookkeeping, not the agent's work, so it never counts as a changed file (HOOK-1).
  const porcelain = git(worktree, ['status', '--porcelain', '--untracked-files=all', '--', '.', ...PACKET_DIRS.map((d) => `:(exclude).agents/${d}/`)]);
  const changed = porcelain.split('\n').filter((l) => l.length > 3).map((l) => l.slice(3));
  const hash = createHash('sha256').update(`${head ?? ''}\n${porcelain}`).digest('hex');
  return { hash, head, changed };
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

function remember(file: string, hash: string): void {
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temp = `${file}.${process.pid}.tmp`;
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
  const state = workState(ctx.worktree);
  const file = stateFile(ctx, env);
  if (remembered(file) === state.hash) return 'unchanged';
  appendProgress(ctx.bus, ctx.task, checkpointNote(state), env.COMMANDR_AGENT_ID?.trim() || undefined);
  remember(file, state.hash);
  return 'written';
}
