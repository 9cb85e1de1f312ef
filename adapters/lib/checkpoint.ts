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

// Packets move only through the bus tools (a claim takes one out of inbox/): that is the bus's
// bookkeeping, not the agent's work, so it never counts as a changed file (HOOK-1).
// `--ignore-submodules=dirty`: a submodule's new commit still shows, but git does not run a
// `git status` inside each submodule, whose own config (`.git/modules/<name>/config`, which the
// agent can write) could name a filter command for the relay to run (REPORTGIT-1).
// One git process (HOOK-1): porcelain v2 with `--branch` names HEAD (`# branch.oid`), so no
// `git rev-parse HEAD` beside it; `--no-ahead-behind` spares the upstream walk. Its entries are
// turned back into v1 lines (below), so the state's hash and the changed files are as before.
const STATUS_ARGS = ['status', '--porcelain=v2', '--branch', '--no-ahead-behind', '--untracked-files=all', '--ignore-submodules=dirty', '--', '.', ...PACKET_DIRS.map((d) => `:(exclude).agents/${d}/`)];

/** Fields before the path: `1 XY sub mH mI mW hH hI`, `2 … Xscore`, `u XY sub m1 m2 m3 mW h1 h2 h3`. */
const FIELDS_BEFORE_PATH: Record<string, number> = { '1': 8, '2': 9, u: 10 };

/** v1 quotes a path holding a space; v2 quotes only what needs escaping: a quoted path is kept. */
const v1Path = (p: string): string => (p.startsWith('"') || !p.includes(' ') ? p : `"${p}"`);

/** The bytes of a path as git printed it (C-style quoted or not): the order git lists entries in. */
function pathBytes(p: string): Buffer {
  if (!p.startsWith('"')) return Buffer.from(p, 'utf8');
  const out: number[] = [];
  const ESC: Record<string, number> = { a: 7, b: 8, t: 9, n: 10, v: 11, f: 12, r: 13, '"': 34, '\\': 92 };
  for (let i = 1; i < p.length - 1; i++) {
    if (p[i] !== '\\') { out.push(...Buffer.from(p[i]!, 'utf8')); continue; }
    const octal = /^[0-7]{3}/.exec(p.slice(i + 1));
    if (octal) { out.push(parseInt(octal[0], 8)); i += 3; continue; }
    out.push(ESC[p[i + 1] ?? ''] ?? p.charCodeAt(i + 1)); i += 1;
  }
  return Buffer.from(out);
}

/**
 * `git status --porcelain=v2 --branch` → HEAD (none before the first commit) and the lines v1
 * (`git status --porcelain`) prints for the same state: `XY path`, `XY orig -> path`, `?? path`,
 * tracked entries in path order (v2 lists unmerged ones after the rest), then untracked ones.
 */
export function fromPorcelainV2(out: string): { head?: string; porcelain: string } {
  let head: string | undefined;
  const tracked: Array<{ key: Buffer; line: string }> = [];
  const others: string[] = [];
  for (const line of out.split('\n')) {
    if (line.startsWith('# ')) {
      const oid = /^# branch\.oid ([0-9a-f]{7,})$/.exec(line);
      if (oid) head = oid[1];
      continue;
    }
    if (line.startsWith('? ') || line.startsWith('! ')) {
      others.push(`${line[0]}${line[0]} ${v1Path(line.slice(2))}`);
      continue;
    }
    const fields = FIELDS_BEFORE_PATH[line[0] ?? ''];
    if (fields === undefined) continue;
    const parts = line.split(' ');
    const xy = (parts[1] ?? '').replace(/\./g, ' ');
    const rest = parts.slice(fields).join(' ');
    const tab = line[0] === '2' ? rest.indexOf('\t') : -1;
    const to = tab >= 0 ? rest.slice(0, tab) : rest;
    tracked.push({ key: pathBytes(to), line: tab >= 0 ? `${xy} ${v1Path(rest.slice(tab + 1))} -> ${v1Path(to)}` : `${xy} ${v1Path(to)}` });
  }
  const lines = [...tracked.sort((a, b) => Buffer.compare(a.key, b.key)).map((t) => t.line), ...others];
  return { head, porcelain: lines.length ? lines.join('\n') + '\n' : '' };
}

function stateOf(out: string): WorkState {
  const { head, porcelain } = fromPorcelainV2(out);
  const changed = porcelain.split('\n').filter((l) => l.length > 3).map((l) => l.slice(3));
  const hash = createHash('sha256').update(`${head ?? ''}\n${porcelain}`).digest('hex');
  return { hash, head, changed };
}

export function workState(worktree: string): WorkState {
  return stateOf(git(worktree, STATUS_ARGS));
}

/** workState without blocking: the relay computes it for a reported turn end (REPORT-2). */
export async function workStateAsync(worktree: string): Promise<WorkState> {
  return stateOf(await gitAsync(worktree, STATUS_ARGS));
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

/** checkpoint without blocking (REPORT-2); gives the state it read, which the session's end may count from (HOOK-2). */
export async function checkpointAsync(ctx: TaskContext, env: Env): Promise<WorkState> {
  const state = await workStateAsync(ctx.worktree);
  record(ctx, env, state);
  return state;
}

function record(ctx: TaskContext, env: Env, state: WorkState): CheckpointResult {
  const file = stateFile(ctx, env);
  if (remembered(file) === state.hash) return 'unchanged';
  appendProgress(ctx.bus, ctx.task, checkpointNote(state), env.COMMANDR_AGENT_ID?.trim() || undefined);
  remember(file, state.hash);
  return 'written';
}
