// Git plumbing of task refs (REMOTE-CLAIM-n, LEASE-n): lease commits on the empty
// tree, pushes that create, fast-forward or compare-and-swap `refs/tasks/<id>`,
// and reading the tips of a remote's task refs with their lease messages.
import { randomBytes } from 'node:crypto';
import { LeaseCommit } from '../protocol/bus/lease';
import { BusError } from './errors';
import { gitResult } from './git/run';
import { assertTaskId } from './layout';

export const TASK_REF_PREFIX = 'refs/tasks/';

export interface GitResult { code: number; stdout: string; stderr: string }

/** git through the hardened runner (GITRUN-1); a non-zero exit is a result, not an error. */
export async function runGit(cwd: string, args: string[], env: NodeJS.ProcessEnv = process.env, input?: string): Promise<GitResult> {
  const r = await gitResult(args, { cwd, env, input });
  return { code: r.code, stdout: r.stdout.toString('utf8'), stderr: r.stderr };
}

/** A remote spelled like an option would reach git as one (`--force`): refuse it before any git call. */
export function assertRemote(remote: string): void {
  if (remote === '' || remote.startsWith('-')) throw new BusError('E_BAD_ARGS', `remote ${JSON.stringify(remote)} is not a git remote name, URL or path`);
}

/** A task ref's tip as read from a remote. `lease` is undefined for a claim written by a tool without leases. */
export interface TaskTip {
  task: string;
  sha: string;
  /** The committer time of the tip, ISO. */
  committed: string;
  lease?: LeaseCommit;
  /** For a lease-less tip: the `{host}_{pid}` its message names, if any. */
  legacyClaimant?: string;
}

/** The message of a lease commit: `<kind> <task>`, a blank line, then `key: value` lines. */
export function formatLeaseMessage(lease: LeaseCommit): string {
  const [host, pid] = splitClaimant(lease.claimant);
  const lines = [
    `task: ${lease.task}`, `kind: ${lease.kind}`,
    // host/pid/time name the holder for people and for tools that predate leases.
    `host: ${host}`, `pid: ${pid}`, `claimant: ${lease.claimant}`, `machine: ${lease.machine}`,
    `lease-id: ${lease.lease_id}`, `lease-seconds: ${lease.lease_seconds}`, `lease-until: ${lease.lease_until}`,
    `since: ${lease.since}`, `time: ${lease.time}`,
    ...(lease.previous ? [`previous: ${lease.previous}`] : []),
    `nonce: ${randomBytes(8).toString('hex')}`,
  ];
  return `${lease.kind} ${lease.task}\n\n${lines.join('\n')}\n`;
}

function splitClaimant(claimant: string): [string, string] {
  const at = claimant.lastIndexOf('_');
  return [claimant.slice(0, at), claimant.slice(at + 1)];
}

/** Reads a tip's message back; anything that is not a whole lease is lease-less (never guessed at). */
export function parseLeaseMessage(message: string): { lease?: LeaseCommit; legacyClaimant?: string } {
  const fields = new Map<string, string>();
  for (const line of message.split('\n').slice(1)) {
    const match = /^([a-z-]+): (.*)$/.exec(line);
    if (match && !fields.has(match[1]!)) fields.set(match[1]!, match[2]!);
  }
  const seconds = Number(fields.get('lease-seconds'));
  const checked = LeaseCommit.safeParse({
    kind: fields.get('kind'), task: fields.get('task'), claimant: fields.get('claimant'), machine: fields.get('machine'),
    lease_id: fields.get('lease-id'), lease_seconds: Number.isInteger(seconds) ? seconds : undefined,
    lease_until: validTime(fields.get('lease-until')), time: validTime(fields.get('time')), since: validTime(fields.get('since')),
    previous: fields.get('previous'),
  });
  if (checked.success) return { lease: checked.data };
  const host = fields.get('host');
  const pid = fields.get('pid');
  return { legacyClaimant: host && pid ? `${host}_${pid}` : undefined };
}

function validTime(value: string | undefined): string | undefined {
  return value !== undefined && !Number.isNaN(Date.parse(value)) ? value : undefined;
}

/** Writes a lease commit on the empty tree (a child of `parent` when given) and returns its id. */
export async function writeLeaseCommit(repo: string, lease: LeaseCommit, parent?: string): Promise<string> {
  const host = lease.machine;
  const ident = { GIT_AUTHOR_NAME: `claim ${host}`, GIT_AUTHOR_EMAIL: `claim@${host}`, GIT_COMMITTER_NAME: `claim ${host}`, GIT_COMMITTER_EMAIL: `claim@${host}` };
  const env = { ...process.env, ...ident };
  const tree = await runGit(repo, ['hash-object', '-t', 'tree', '-w', '--stdin'], env, '');
  if (tree.code !== 0) throw new BusError('E_GIT', `cannot write the empty tree in ${repo}: ${tree.stderr.trim()}`);
  const args = ['commit-tree', tree.stdout.trim(), ...(parent ? ['-p', parent] : []), '-F', '-'];
  const commit = await runGit(repo, args, env, formatLeaseMessage(lease));
  if (commit.code !== 0) throw new BusError('E_GIT', `cannot create the ${lease.kind} commit for ${lease.task} in ${repo}: ${commit.stderr.trim()}`);
  return commit.stdout.trim();
}

/**
 * How a push may move the ref: `create` (only if absent), `ff` (fast-forward of
 * what is there), `cas` (only if the remote tip is still `tip`). Never `--force`.
 */
export type PushMode = { kind: 'create' } | { kind: 'ff' } | { kind: 'cas'; tip: string };

/** `ok`, or `rejected` with git's line for it. The caller tells a lost race from a refusal by reading the tip again. */
export async function pushTaskRef(repo: string, remote: string, task: string, sha: string, mode: PushMode): Promise<{ ok: true } | { ok: false; reason: string }> {
  assertTaskId(task);
  assertRemote(remote);
  const ref = TASK_REF_PREFIX + task;
  const lease = mode.kind === 'cas' ? [`--force-with-lease=${ref}:${mode.tip}`] : [];
  const push = await runGit(repo, ['push', '--porcelain', ...lease, remote, `${sha}:${ref}`]);
  if (push.code === 0) return { ok: true };
  const line = push.stdout.split('\n').find((l) => l.startsWith('!\t'));
  return { ok: false, reason: (line ?? push.stderr).trim() || `git push exit ${push.code}` };
}

/** The tip of one task ref on `remote`, or undefined when the ref does not exist there. */
export async function fetchTaskTip(repo: string, remote: string, task: string): Promise<TaskTip | undefined> {
  assertTaskId(task);
  const tips = await fetchTips(repo, remote, TASK_REF_PREFIX + task);
  return tips.get(task);
}

/** Every task ref of `remote` with its tip, read with one fetch. */
export function fetchAllTips(repo: string, remote: string): Promise<Map<string, TaskTip>> {
  return fetchTips(repo, remote, `${TASK_REF_PREFIX}*`);
}

/**
 * Fetches into a namespace private to this call (so concurrent readers in one
 * clone never contend for a ref lock), reads the tips, and deletes the namespace.
 */
async function fetchTips(repo: string, remote: string, pattern: string): Promise<Map<string, TaskTip>> {
  assertRemote(remote);
  const space = `refs/commandr/read/${process.pid}-${randomBytes(4).toString('hex')}/`;
  const fetch = await runGit(repo, ['fetch', '--no-write-fetch-head', '--no-tags', '--quiet', remote, `+${pattern}:${space}${pattern.slice(TASK_REF_PREFIX.length)}`]);
  if (fetch.code !== 0) {
    if (/couldn't find remote ref/i.test(fetch.stderr)) return new Map();
    throw new BusError('E_GIT', `cannot read ${pattern} from ${remote}: ${fetch.stderr.trim() || `git fetch exit ${fetch.code}`}`);
  }
  const list = await runGit(repo, ['for-each-ref', '--format=%(refname)%00%(objectname)%00%(committerdate:iso-strict)%00%(contents)%00', space]);
  if (list.code !== 0) throw new BusError('E_GIT', `cannot list the task refs read from ${remote}: ${list.stderr.trim()}`);
  const tips = new Map<string, TaskTip>();
  const fields = list.stdout.split('\0');
  for (let i = 0; i + 3 < fields.length; i += 4) {
    const ref = fields[i]!.replace(/^\n/, '');
    const task = ref.slice(space.length);
    const parsed = parseLeaseMessage(fields[i + 3]!);
    tips.set(task, { task, sha: fields[i + 1]!, committed: new Date(fields[i + 2]!).toISOString(), ...parsed });
  }
  if (tips.size > 0) await runGit(repo, ['update-ref', '--stdin'], process.env, [...tips.keys()].map((t) => `delete ${space}${t}\n`).join(''));
  return tips;
}
