// The pre-commit approval gate (GATE-n, GATE-DIGEST-n, APPROVAL-n): who is
// committing, whether a token approves exactly what is staged, and token writing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApprovalToken } from '../protocol/bus/approval';
import { Sha256Digest } from '../protocol/bus/events';
import { isTaskId } from '../protocol/bus/ids';
import { stagedDigest } from './digest';
import { BusError, errnoOf, ioError } from './errors';
import { appendEvent } from './event-log';
import { createFileExclusive } from './fs-atomic';
import { assertBus, assertTaskId, listPackets, tokenPath } from './layout';
import { type Env, locateGit } from './locate';

export interface TaskIdentity {
  task?: string;
  /** Where the identity came from. */
  source?: 'env' | 'branch';
  warnings: string[];
}

/** The branch HEAD points at (`refs/heads/<name>`), read from the file; undefined when detached. */
export function currentBranch(gitDir: string): string | undefined {
  try {
    const head = fs.readFileSync(path.join(gitDir, 'HEAD'), 'utf8').trim();
    return head.startsWith('ref: refs/heads/') ? head.slice('ref: refs/heads/'.length) : undefined;
  } catch {
    return undefined;
  }
}

/** The task behind a branch named exactly `agent/<task-id>`. */
export function taskOfBranch(branch: string | undefined): string | undefined {
  if (!branch?.startsWith('agent/')) return undefined;
  const task = branch.slice('agent/'.length);
  return isTaskId(task) ? task : undefined;
}

/** `$AGENTS_TASK_ID` (not blank) wins over an `agent/<id>` branch; a difference is warned about. */
export function resolveTaskIdentity(envTask: string | undefined, branch: string | undefined): TaskIdentity {
  const fromBranch = taskOfBranch(branch);
  if (envTask !== undefined && envTask.trim().length > 0) {
    assertTaskId(envTask, 'AGENTS_TASK_ID');
    const warnings =
      fromBranch !== undefined && fromBranch !== envTask
        ? [`warning: AGENTS_TASK_ID=${envTask} differs from the branch ${branch}; gating task ${envTask}`]
        : [];
    return { task: envTask, source: 'env', warnings };
  }
  return fromBranch ? { task: fromBranch, source: 'branch', warnings: [] } : { warnings: [] };
}

export type TokenState = { kind: 'missing' } | { kind: 'any' } | { kind: 'digest'; digest: string } | { kind: 'invalid'; reason: string };

/** Reads `approvals/<task>.approved`: absent, empty (approves anything), or digest-bound. */
export function readApprovalToken(bus: string, task: string): TokenState {
  const file = tokenPath(bus, task);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { kind: 'missing' };
    throw ioError('read', file, error);
  }
  if (text.trim().length === 0) return { kind: 'any' };
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return { kind: 'invalid', reason: 'neither empty nor JSON' };
  }
  const token = ApprovalToken.safeParse(value);
  return token.success ? { kind: 'digest', digest: token.data.digest } : { kind: 'invalid', reason: 'JSON without a valid digest, ts and by' };
}

/** Writes a digest-bound token: exclusive create, mode 0600, never half-written. */
export function writeApprovalToken(bus: string, task: string, approval: { digest: string; by: string }, now = new Date()): string {
  assertTaskId(task);
  if (!Sha256Digest.safeParse(approval.digest).success) throw new BusError('E_BAD_DIGEST', `digest ${JSON.stringify(approval.digest)} is not sha256:<64 hex>`);
  assertBus(bus);
  const file = tokenPath(bus, task);
  const token: ApprovalToken = { digest: approval.digest, ts: now.toISOString(), by: approval.by };
  createFileExclusive(file, JSON.stringify(token), 0o600);
  return file;
}

export interface GateOutcome {
  allow: boolean;
  /** Lines for stderr, in order. */
  messages: string[];
}

/** Decides one commit. Blocking appends one approval_requested so a phone can be told. */
export async function runGate(cwd: string = process.cwd(), env: Env = process.env): Promise<GateOutcome> {
  const place = locateGit(cwd, env);
  const identity = resolveTaskIdentity(env.AGENTS_TASK_ID, currentBranch(place.gitDir));
  const messages = [...identity.warnings];
  if (!identity.task) {
    if (listPackets(place.bus, 'claimed').length > 0) {
      messages.push(`warning: no task identity (AGENTS_TASK_ID unset, branch not agent/<id>) while ${path.join(place.bus, 'claimed')} holds claimed tasks; commit allowed`);
    }
    return { allow: true, messages };
  }
  const task = identity.task;
  assertBus(place.bus);
  const token = readApprovalToken(place.bus, task);
  if (token.kind === 'any') return { allow: true, messages };
  const staged = await stagedDigest(place.worktree);
  if (token.kind === 'digest' && token.digest === staged.digest) return { allow: true, messages };
  appendEvent(place.bus, { event: 'approval_requested', task, digest: staged.digest, worktree: place.worktree, files: staged.files });
  messages.push(blockMessage(tokenPath(place.bus, task), token, staged.digest));
  return { allow: false, messages };
}

/** CLIUX-5: every block says what the person does next. */
const NEXT_STEP = 'approve it in Commandr on your phone, then run `git commit` again';

function blockMessage(file: string, token: TokenState, staged: string): string {
  switch (token.kind) {
    case 'missing':
      return `commit blocked: approval token ${file} is missing; approval requested for staged change ${staged} — ${NEXT_STEP}`;
    case 'digest':
      return `commit blocked: the staged change differs from what was approved (approved ${token.digest}, staged ${staged}); approval requested again — ${NEXT_STEP}`;
    default:
      return `commit blocked: approval token ${file} is invalid (${token.kind === 'invalid' ? token.reason : ''}); approval requested for ${staged} — ${NEXT_STEP}`;
  }
}
