// The task's diff (DIFF-n, contract §10): which change a phone reviews for task T,
// with per-file stats and the one digest an approval may bind to. Approve-stale
// detection is `currentDigest(worktree)` compared with the digest the phone saw.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApprovalRequested } from '../protocol/bus/events';
import type { TaskDiffSummary } from '../protocol/bus/diff';
import { gitBytes, stagedDigest, type StagedDigest } from './digest';
import { assemble, DEFAULT_LIMITS, splitPatch, trackedStats, untrackedSection, type DiffLimits } from './diff-files';
import { readEvents } from './event-log';
import { assertTaskId } from './layout';

export interface TaskDiff extends TaskDiffSummary {
  /** Unified diff text (binary, huge and over-budget hunks left out). */
  patch: string;
}

export interface TaskDiffOptions extends Partial<DiffLimits> {
  /** The branch agent work is measured from; default main, then master, then the main checkout's branch. */
  mainBranch?: string;
}

const git = async (cwd: string, args: string[]) => (await gitBytes(cwd, args)).toString('utf8');
/** Fixed prefixes and no config-driven rewriting, so every client parses the same text. */
const VIEW_ARGS = ['-c', 'core.quotePath=false', 'diff', '--no-color', '--no-ext-diff', '--no-textconv', '-M', '--src-prefix=a/', '--dst-prefix=b/'];

/** The approvable digest now: the staged digest of `worktree` (DIGEST-1). */
export async function currentDigest(worktree: string): Promise<string> {
  return (await stagedDigest(worktree)).digest;
}

/** Picks the change under review for `task`: pending approval, else the agent/<task> worktree, else none. */
export async function taskDiff(bus: string, task: string, options: TaskDiffOptions = {}): Promise<TaskDiff> {
  assertTaskId(task);
  const limits = { ...DEFAULT_LIMITS, ...options };
  const approval = await approvalWorktree(bus, task);
  if (approval) return build(task, 'approval', approval.worktree, ['--cached'], approval.staged, limits, {});
  const repo = path.dirname(path.resolve(bus));
  const worktree = await branchWorktree(repo, `agent/${task}`);
  if (worktree) {
    const base = await mergeBase(worktree, repo, `agent/${task}`, options.mainBranch);
    const staged = await stagedDigest(worktree);
    return build(task, 'branch', worktree, [base], staged, limits, { branch: `agent/${task}`, base, untracked: true });
  }
  return { task, source: 'none', staged_files: 0, files: [], additions: 0, deletions: 0, patch_bytes: 0, truncated: false, patch: '' };
}

/** The worktree of the newest approval_requested for `task`, when its staged change still has that digest. */
async function approvalWorktree(bus: string, task: string): Promise<{ worktree: string; staged: StagedDigest } | undefined> {
  const { events } = readEvents(bus);
  for (let k = events.length - 1; k >= 0; k--) {
    if (events[k]!.event !== 'approval_requested' || events[k]!.task !== task) continue;
    const parsed = ApprovalRequested.safeParse(events[k]);
    if (!parsed.success) continue;
    const staged = await stagedDigest(parsed.data.worktree).catch(() => undefined);
    return staged?.digest === parsed.data.digest ? { worktree: parsed.data.worktree, staged } : undefined;
  }
  return undefined;
}

/** The checked-out worktree (main checkout included) whose branch is exactly `branch`. */
export async function branchWorktree(repo: string, branch: string): Promise<string | undefined> {
  let out: string;
  try { out = await git(repo, ['worktree', 'list', '--porcelain', '-z']); } catch { return undefined; }
  let current: string | undefined;
  for (const line of out.split('\0')) {
    if (line.startsWith('worktree ')) current = line.slice('worktree '.length);
    else if (line === `branch refs/heads/${branch}` && current && fs.existsSync(current)) return current;
  }
  return undefined;
}

async function mergeBase(worktree: string, repo: string, branch: string, preferred?: string): Promise<string> {
  const candidates = preferred ? [preferred] : ['main', 'master', await git(repo, ['symbolic-ref', '--short', '-q', 'HEAD']).catch(() => '')];
  for (const candidate of candidates.map((c) => c.trim()).filter((c) => c !== '' && c !== branch)) {
    const base = await git(worktree, ['merge-base', `refs/heads/${candidate}`, 'HEAD']).catch(() => '');
    if (base.trim() !== '') return base.trim();
  }
  return (await git(worktree, ['rev-parse', '--verify', 'HEAD'])).trim();
}

interface BuildExtras { branch?: string; base?: string; untracked?: boolean }

async function build(task: string, source: 'approval' | 'branch', worktree: string, range: string[], staged: StagedDigest, limits: DiffLimits, extras: BuildExtras): Promise<TaskDiff> {
  const [patch, nameStatus, numstat, untracked] = await Promise.all([
    git(worktree, [...VIEW_ARGS, ...range, '--']),
    git(worktree, ['diff', '--no-ext-diff', '--no-textconv', '-M', '--name-status', '-z', ...range, '--']),
    git(worktree, ['diff', '--no-ext-diff', '--no-textconv', '-M', '--numstat', '-z', ...range, '--']),
    extras.untracked ? git(worktree, ['ls-files', '--others', '--exclude-standard', '-z']) : Promise.resolve(''),
  ]);
  const stats = trackedStats(nameStatus, numstat);
  const sections = splitPatch(patch);
  const extra = untracked.split('\0').filter((f) => f !== '').slice(0, limits.maxUntracked).map((f) => untrackedSection(worktree, f, limits));
  const whole = assemble([...stats, ...extra.map((e) => e.stat)], [...sections, ...extra.map((e) => e.section)], limits);
  return {
    task, source, worktree, ...(extras.branch ? { branch: extras.branch } : {}), ...(extras.base ? { base: extras.base } : {}),
    ...(staged.files > 0 ? { digest: staged.digest } : {}),
    staged_files: staged.files,
    files: whole.files,
    additions: whole.files.reduce((n, f) => n + f.additions, 0),
    deletions: whole.files.reduce((n, f) => n + f.deletions, 0),
    patch_bytes: Buffer.byteLength(whole.patch),
    truncated: whole.truncated || untracked.split('\0').filter((f) => f !== '').length > limits.maxUntracked,
    patch: whole.patch,
  };
}
