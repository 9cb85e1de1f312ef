// The two commit-time steps after the gate (APPROVAL-7, APPROVAL-8): `commit-msg`
// writes the approval into the commit as a trailer, `post-commit` spends the token
// the commit used and tells the bus which commit landed (hash and subject).
import * as fs from 'node:fs';
import { appendEvent } from '../event-log';
import { gitBytes, stagedDigest } from '../digest';
import { errnoOf } from '../errors';
import { currentBranch, gateConfig, readApprovalToken, resolveTaskIdentity, tokenProblem } from '../gate';
import { tokenPath } from '../layout';
import { type Env, locateGit } from '../locate';
import { approvalOfMessage, withTrailer } from './trailer';

function identityOf(cwd: string, env: Env) {
  const place = locateGit(cwd, env);
  return { place, task: resolveTaskIdentity(env.AGENTS_TASK_ID, currentBranch(place.gitDir)).task };
}

/** `commit-msg <file>`: when a signed token approves exactly what is being committed, record it in the message. */
export async function addApprovalTrailer(messageFile: string, cwd: string = process.cwd(), env: Env = process.env): Promise<boolean> {
  const { place, task } = identityOf(cwd, env);
  if (!task) return false;
  const token = readApprovalToken(place.bus, task);
  if (token.kind !== 'signed') return false;
  const staged = await stagedDigest(place.worktree);
  const config = await gateConfig(place.worktree, env);
  if (await tokenProblem(token, config, { task, digest: staged.digest, worktree: place.worktree, bus: place.bus }) !== undefined) return false;
  const message = fs.readFileSync(messageFile, 'utf8');
  fs.writeFileSync(messageFile, withTrailer(message, token.approval));
  return true;
}

/**
 * After `git merge`: whether it made a merge commit (HEAD has two parents, the first the HEAD
 * the merge started from), not a fast-forward onto commits that already existed.
 */
export async function madeMergeCommit(cwd: string = process.cwd(), env: Env = process.env): Promise<boolean> {
  const place = locateGit(cwd, env);
  const parents = (await gitBytes(place.worktree, ['rev-list', '--parents', '-n', '1', 'HEAD'])).toString('utf8').trim().split(' ').slice(1);
  if (parents.length < 2) return false;
  const before = (await gitBytes(place.worktree, ['rev-parse', '--verify', '-q', 'ORIG_HEAD'])).toString('utf8').trim();
  return parents[0] === before;
}

/** `post-commit`: spends the token the new commit carries and appends `task_committed`. */
export async function spendAfterCommit(cwd: string = process.cwd(), env: Env = process.env): Promise<void> {
  const { place, task } = identityOf(cwd, env);
  if (!task) return;
  const [commit, message] = (await gitBytes(place.worktree, ['log', '-1', '--format=%H%x00%B', 'HEAD'])).toString('utf8').split('\0');
  const carried = approvalOfMessage(message ?? '') as { sig?: unknown; digest?: unknown } | undefined | null;
  const token = readApprovalToken(place.bus, task);
  const spent = token.kind === 'signed' && carried?.sig === token.approval.sig;
  if (spent) {
    try {
      fs.unlinkSync(tokenPath(place.bus, task));
    } catch (error) {
      if (errnoOf(error) !== 'ENOENT') throw error;
    }
  }
  const subject = (message ?? '').split('\n')[0]!.slice(0, 200);
  appendEvent(place.bus, { event: 'task_committed', task, commit: commit!.trim(), subject, ...(spent ? { digest: token.approval.digest } : {}) });
}
