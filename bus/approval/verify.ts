// `commandr verify` (VERIFY-n): every agent commit in a range must carry a valid
// relay-signed approval for exactly its own change — its first parent is the
// approval's base and its tree is the approval's tree — so `--no-verify`, a deleted
// hook or a forged token is caught at push time, where the agent cannot reach.
import { gitStream } from '../digest';
import { NULL_OID } from '../diff';
import { isTaskId } from '../../protocol/bus/ids';
import { approvalProblem } from './sign';
import { approvalOfMessage } from './trailer';
import type { VerifyingKey } from './keys';

export interface BadCommit { commit: string; subject: string; reason: string }
export interface VerifyReport { checked: number; bad: BadCommit[] }

/** One group of commits to check: git revision arguments and the task their branch names (if any). */
export interface VerifyTarget { revs: string[]; task?: string }

const ZERO = /^0+$/;

/** Checks every commit the targets select (one `git log` per target, no diff is computed). */
export async function verifyTargets(cwd: string, targets: VerifyTarget[], keys: VerifyingKey[]): Promise<VerifyReport> {
  const report: VerifyReport = { checked: 0, bad: [] };
  for (const target of targets) {
    for (const c of await commitsOf(cwd, target.revs)) {
      report.checked++;
      const approval = approvalOfMessage(c.message);
      const reason = approval === undefined
        ? 'no Commandr-Approval trailer: committed without an approval (or with --no-verify)'
        : approvalProblem(approval, keys, { task: target.task, base: c.parent, tree: c.tree });
      if (reason !== undefined) report.bad.push({ commit: c.commit, subject: c.message.split('\n')[0]!.slice(0, 120), reason });
    }
  }
  return report;
}

interface CommitFacts { commit: string; parent: string; tree: string; message: string }

async function commitsOf(cwd: string, revs: string[]): Promise<CommitFacts[]> {
  const parts: Buffer[] = [];
  await gitStream(cwd, ['log', '--format=%H%x00%P%x00%T%x00%B%x00%x01', ...revs, '--'], (chunk) => { parts.push(chunk); });
  const out = Buffer.concat(parts).toString('utf8');
  return out.split('\0\x01').map((r) => r.replace(/^\n/, '')).filter((r) => r.length > 0).map((record) => {
    const [commit, parents, tree, message] = record.split('\0');
    return { commit: commit!, parent: parents!.split(' ')[0] || NULL_OID, tree: tree!, message: message ?? '' };
  });
}

/** The task an agent branch names: `refs/heads/agent/<task>`; undefined for any other ref. */
export function taskOfRef(ref: string): string | undefined {
  const m = /^refs\/heads\/agent\/(.+)$/.exec(ref);
  return m && isTaskId(m[1]) ? m[1] : undefined;
}

/** `pre-receive` stdin (`<old> <new> <ref>` lines): the new commits of each updated agent branch (every branch with `all`). */
export function preReceiveTargets(stdin: string, all = false): VerifyTarget[] {
  const targets: VerifyTarget[] = [];
  for (const line of stdin.split('\n').filter((l) => l.trim() !== '')) {
    const [, next, ref] = line.trim().split(/\s+/);
    if (!next || !ref || ZERO.test(next) || !ref.startsWith('refs/heads/')) continue;
    const task = taskOfRef(ref);
    if (task === undefined && !all) continue;
    targets.push({ revs: [next, '--not', '--all'], ...(task ? { task } : {}) });
  }
  return targets;
}

/** `pre-push` stdin (`<local ref> <local oid> <remote ref> <remote oid>` lines): commits the remote does not have yet. */
export function prePushTargets(stdin: string, known: (oid: string) => boolean, all = false): VerifyTarget[] {
  const targets: VerifyTarget[] = [];
  for (const line of stdin.split('\n').filter((l) => l.trim() !== '')) {
    const [localRef, local, remoteRef, remoteOid] = line.trim().split(/\s+/);
    if (!local || !remoteRef || ZERO.test(local)) continue;
    const task = taskOfRef(remoteRef) ?? (localRef ? taskOfRef(localRef) : undefined);
    if (task === undefined && !all) continue;
    // Commits on any remote-tracking ref are not new; `remote` may be a URL, which names no tracking refs.
    const revs = [local, '--not', '--remotes'];
    if (remoteOid && !ZERO.test(remoteOid) && known(remoteOid)) revs.push(remoteOid);
    targets.push({ revs, ...(task ? { task } : {}) });
  }
  return targets;
}
