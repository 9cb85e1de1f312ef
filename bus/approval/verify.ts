// `commandr verify` (VERIFY-n, RVERIFY-n): every commit a walk makes new must carry a
// valid relay-signed approval for exactly its own change — its first parent is the
// approval's base and its tree is the approval's tree — or, where the guarded repo
// names allowed signers, an SSH signature by one of them (a person's own commit).
// A walk is "these tips, minus what is known good": the server's verified set, the
// remote's advertised tips, or a range's base — never refs a pusher could write.
import { NULL_OID } from '../diff';
import { isTaskId } from '../../protocol/bus/ids';
import { gitRun } from './git';
import { approvalProblem } from './sign';
import { approvalOfMessage } from './trailer';
import type { VerifyingKey } from './keys';

export interface BadCommit { commit: string; subject: string; ref: string; reason: string }
export interface VerifyReport { checked: number; bad: BadCommit[] }

/** One tip to check: a commit id, the ref (or range) it came in as, and the task that ref names. */
export interface Tip { oid: string; ref: string; task?: string }
/** Every commit reachable from `tips` and not from `known` (commit ids that exist) is checked. */
export interface Walk { tips: Tip[]; known: string[] }
/** What makes a commit good: an approval under one of `keys`, or a signature by one of the `signers` file's keys. */
export interface Trust { keys: VerifyingKey[]; signers?: string }

interface CommitFacts { commit: string; parent: string; tree: string; signature: string; source: string; message: string }

/** Checks every commit of the walk with one `git log` (plus one `rev-list` per task tip when tips differ in task). */
export async function verifyWalk(cwd: string, walk: Walk, trust: Trust): Promise<VerifyReport> {
  const report: VerifyReport = { checked: 0, bad: [] };
  if (walk.tips.length === 0) return report;
  const commits = await commitsOf(cwd, walk, trust.signers);
  const tasks = await tasksOf(cwd, walk, commits);
  const refOf = new Map<string, string>();
  for (const tip of walk.tips) if (!refOf.has(tip.oid)) refOf.set(tip.oid, tip.ref);
  for (const c of commits) {
    report.checked++;
    const reason = problemOf(c, trust, tasks.get(c.commit));
    if (reason !== undefined) report.bad.push({ commit: c.commit, subject: c.message.split('\n')[0]!.slice(0, 120), ref: refOf.get(c.source) ?? c.source, reason });
  }
  return report;
}

function problemOf(c: CommitFacts, trust: Trust, tasks: Set<string> | undefined): string | undefined {
  if (trust.signers !== undefined && c.signature === 'G') return undefined;
  const approval = approvalOfMessage(c.message);
  if (approval === undefined) {
    const signed = trust.signers !== undefined && c.signature !== 'N' ? ` (its signature is not by an allowed signer: git says ${c.signature})` : '';
    return `no Commandr-Approval trailer: committed without an approval (or with --no-verify)${signed}`;
  }
  // Bound to the tasks of the agent branches it arrives on: its approval must name one of them
  // (the same answer as pushing those branches one at a time).
  const named = (approval as { task?: unknown } | null)?.task;
  const task = tasks === undefined ? undefined : typeof named === 'string' && tasks.has(named) ? named : [...tasks].join(' or ');
  return approvalProblem(approval, trust.keys, { task, base: c.parent, tree: c.tree });
}

async function commitsOf(cwd: string, walk: Walk, signers: string | undefined): Promise<CommitFacts[]> {
  // %G? verifies SSH signatures against the guard's allowed signers only: gpg and x509 are
  // disabled, so a key in the server user's own keyring never makes a commit good.
  const sig = signers === undefined ? [] : ['-c', `gpg.ssh.allowedSignersFile=${signers}`, '-c', 'gpg.ssh.program=ssh-keygen', '-c', 'gpg.program=false', '-c', 'gpg.openpgp.program=false', '-c', 'gpg.x509.program=false'];
  const format = `--format=%H%x00%P%x00%T%x00${signers === undefined ? '' : '%G?'}%x00%S%x00%B%x00%x01`;
  const out = await gitRun(cwd, [...sig, 'log', '--no-show-signature', '--source', format, '--stdin'], walkInput([...new Set(walk.tips.map((t) => t.oid))], walk.known));
  return out.toString('utf8').split('\0\x01').map((r) => r.replace(/^\n/, '')).filter((r) => r.length > 0).map((record) => {
    const [commit, parents, tree, signature, source, message] = record.split('\0');
    return { commit: commit!, parent: parents!.split(' ')[0] || NULL_OID, tree: tree!, signature: signature || 'N', source: source ?? '', message: message ?? '' };
  });
}

/** Revisions for `--stdin`: the tips, then each known commit negated (git 2.39 takes no `--not` on stdin). */
function walkInput(tips: string[], known: string[]): string {
  return [...tips, ...known.map((k) => `^${k}`)].map((l) => `${l}\n`).join('');
}

/** The tasks each new commit is bound to: those of the task tips it is reachable from. */
async function tasksOf(cwd: string, walk: Walk, commits: CommitFacts[]): Promise<Map<string, Set<string>>> {
  const tasks = new Map<string, Set<string>>();
  const bound = walk.tips.filter((t) => t.task !== undefined);
  if (bound.length === 0) return tasks;
  if (bound.length === walk.tips.length && new Set(bound.map((t) => t.task)).size === 1) {
    // Every tip names the same task: every new commit is bound to it, no walk per tip needed.
    for (const c of commits) tasks.set(c.commit, new Set([bound[0]!.task!]));
    return tasks;
  }
  for (const tip of bound) {
    const out = await gitRun(cwd, ['rev-list', '--stdin'], walkInput([tip.oid], walk.known));
    for (const commit of out.toString('utf8').split('\n').filter((l) => l !== '')) {
      const set = tasks.get(commit) ?? new Set<string>();
      set.add(tip.task!);
      tasks.set(commit, set);
    }
  }
  return tasks;
}

/** The task an agent branch names: `refs/heads/agent/<task>`; undefined for any other ref. */
export function taskOfRef(ref: string): string | undefined {
  const m = /^refs\/heads\/agent\/(.+)$/.exec(ref);
  return m && isTaskId(m[1]) ? m[1] : undefined;
}

export interface RefUpdate { old: string; next: string; ref: string }
const ZERO = /^0+$/;
export const isZero = (oid: string): boolean => ZERO.test(oid);

/** `pre-receive` stdin: `<old> <new> <ref>` lines. A malformed line is an error, never skipped. */
export function parsePreReceive(stdin: string): RefUpdate[] {
  return stdin.split('\n').filter((l) => l.trim() !== '').map((line) => {
    const [old, next, ref, extra] = line.trim().split(/\s+/);
    if (!old || !next || !ref || extra !== undefined || !/^[0-9a-f]+$/.test(old) || !/^[0-9a-f]+$/.test(next)) throw new Error(`unexpected pre-receive line ${JSON.stringify(line)}`);
    return { old, next, ref };
  });
}

export interface PushUpdate { localRef: string; local: string; remoteRef: string; remote: string }

/** `pre-push` stdin: `<local ref> <local oid> <remote ref> <remote oid>` lines. */
export function parsePrePush(stdin: string): PushUpdate[] {
  return stdin.split('\n').filter((l) => l.trim() !== '').map((line) => {
    const [localRef, local, remoteRef, remote] = line.trim().split(/\s+/);
    if (!localRef || !local || !remoteRef || !remote) throw new Error(`unexpected pre-push line ${JSON.stringify(line)}`);
    return { localRef, local, remoteRef, remote };
  });
}
