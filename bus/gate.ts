// The pre-commit approval gate (GATE-n, GATE-DIGEST-n, APPROVAL-n): who is
// committing, whether a token approves exactly what is staged on this base for
// this task under the relay's key, and token reading and writing.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ApprovalToken, SignedApproval } from '../protocol/bus/approval';
import { readVerifyingKey, defaultDataDir, publicKeyFile } from './approval/keys';
import { approvalProblem, repoKeyOf } from './approval/sign';
import { headOf, indexTree } from './diff';
import { Sha256Digest } from '../protocol/bus/events';
import { isTaskId } from '../protocol/bus/ids';
import { gitBytes, stagedDigest } from './digest';
import { BusError, errnoOf, ioError } from './errors';
import { appendEvent } from './event-log';
import { createFileExclusive, writeFileAtomic } from './fs-atomic';
import { assertBus, assertTaskId, listPackets, tokenPath } from './layout';
import { type Env, locateGit } from './locate';
import { readPlainText } from './plain-file';

export interface TaskIdentity {
  task?: string;
  /** Where the identity came from. */
  source?: 'env' | 'branch';
  warnings: string[];
}

/** The branch HEAD points at (`refs/heads/<name>`), read from the file; undefined when detached. */
export function currentBranch(gitDir: string): string | undefined {
  try {
    const head = readPlainText(path.join(gitDir, 'HEAD'), 64 * 1024)?.trim() ?? ''; // GITREAD-1
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

export type TokenState =
  | { kind: 'missing' }
  | { kind: 'any' }
  | { kind: 'digest'; digest: string }
  | { kind: 'signed'; approval: SignedApproval }
  | { kind: 'invalid'; reason: string };

/** Reads `approvals/<task>.approved`: absent, empty (plain: approves anything), plain digest-bound, or relay-signed. */
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
  if (!token.success) return { kind: 'invalid', reason: 'JSON without a valid digest, ts and by' };
  if (token.data.sig === undefined) return { kind: 'digest', digest: token.data.digest };
  const signed = SignedApproval.safeParse(value);
  return signed.success ? { kind: 'signed', approval: signed.data } : { kind: 'invalid', reason: 'a signed token missing repo, task, base or key' };
}

/** Writes a plain digest-bound token (seed format): exclusive create, mode 0600, never half-written. */
export function writeApprovalToken(bus: string, task: string, approval: { digest: string; by: string }, now = new Date()): string {
  assertTaskId(task);
  if (!Sha256Digest.safeParse(approval.digest).success) throw new BusError('E_BAD_DIGEST', `digest ${JSON.stringify(approval.digest)} is not sha256:<64 hex>`);
  assertBus(bus);
  const file = tokenPath(bus, task);
  const token: ApprovalToken = { digest: approval.digest, ts: now.toISOString(), by: approval.by };
  createFileExclusive(file, JSON.stringify(token), 0o600);
  return file;
}

/** Writes (or replaces, atomically) a relay-signed token: the seed's digest, ts, by plus the signed fields. Mode 0600. */
export function writeSignedToken(bus: string, approval: SignedApproval): string {
  assertTaskId(approval.task);
  assertBus(bus);
  const file = tokenPath(bus, approval.task);
  writeFileAtomic(file, JSON.stringify(approval), 0o600);
  return file;
}

export interface GateOutcome {
  allow: boolean;
  /** Lines for stderr, in order. */
  messages: string[];
}

/** The person's gate settings, from git config (`commandr.plainTokens`, `commandr.approvalKey`). */
export interface GateConfig { plainTokens: boolean; keyFile: string }

/**
 * Git's per-process config variables (`git -c`/`--config-env` set GIT_CONFIG_PARAMETERS;
 * GIT_CONFIG_COUNT/KEY_n/VALUE_n; GIT_CONFIG_GLOBAL/SYSTEM/NOSYSTEM; GIT_CONFIG). An agent
 * sets them for its own commit, so trust is never read through them (APPROVAL-3).
 */
export const PER_PROCESS_CONFIG = /^GIT_CONFIG(_PARAMETERS|_COUNT|_KEY_\d+|_VALUE_\d+|_GLOBAL|_SYSTEM|_NOSYSTEM)?$/;

/** The environment for a trust read: the caller's, minus its per-process git config. */
export function trustEnv(env: Env): NodeJS.ProcessEnv {
  const out = {} as NodeJS.ProcessEnv;
  for (const [k, v] of Object.entries(env)) if (v !== undefined && !PER_PROCESS_CONFIG.test(k)) out[k] = v;
  return out;
}

/**
 * Reads the gate's trust settings from git's config files only (system, global, repo,
 * worktree), never from per-process config variables (APPROVAL-3, APPROVAL-6).
 */
export async function gateConfig(worktree: string, env: Env): Promise<GateConfig> {
  const out = await gitBytes(worktree, ['config', '--get-regexp', '^commandr\\.'], undefined, trustEnv(env)).catch(() => Buffer.alloc(0));
  const values = new Map<string, string>();
  for (const line of out.toString('utf8').split('\n')) {
    const at = line.indexOf(' ');
    if (at > 0) values.set(line.slice(0, at).toLowerCase(), line.slice(at + 1));
  }
  const key = values.get('commandr.approvalkey');
  return {
    plainTokens: ['true', 'yes', 'on', '1'].includes((values.get('commandr.plaintokens') ?? '').toLowerCase()),
    keyFile: key ? path.resolve(worktree, key.replace(/^~(?=\/)/, env.HOME ?? '~')) : publicKeyFile(defaultDataDir(env as NodeJS.ProcessEnv)),
  };
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
  const config = token.kind === 'missing' ? undefined : await gateConfig(place.worktree, env);
  if (token.kind === 'any' && config?.plainTokens) return { allow: true, messages };
  const staged = await stagedDigest(place.worktree);
  const problem = await tokenProblem(token, config, { task, digest: staged.digest, worktree: place.worktree, bus: place.bus });
  if (problem === undefined) return { allow: true, messages };
  appendEvent(place.bus, { event: 'approval_requested', task, digest: staged.digest, worktree: place.worktree, files: staged.files });
  messages.push(`commit blocked: ${problem}; approval requested for staged change ${staged.digest} — ${NEXT_STEP}`);
  return { allow: false, messages };
}

/** CLIUX-5: every block says what the person does next. */
const NEXT_STEP = 'approve it in Commandr on your phone, then run `git commit` again';

interface Staged { task: string; digest: string; worktree: string; bus: string }

/** Undefined when the token approves exactly this staged change; else why not. */
export async function tokenProblem(token: TokenState, config: GateConfig | undefined, staged: Staged): Promise<string | undefined> {
  const file = tokenPath(staged.bus, staged.task);
  switch (token.kind) {
    case 'missing':
      return `approval token ${file} is missing`;
    case 'invalid':
      return `approval token ${file} is invalid (${token.reason})`;
    case 'any':
    case 'digest':
      if (!config?.plainTokens) return `approval token ${file} is not signed by the relay (plain tokens pass only with git config commandr.plainTokens true)`;
      return token.kind === 'any' || token.digest === staged.digest ? undefined : `the staged change differs from what was approved (approved ${token.digest}, staged ${staged.digest})`;
    case 'signed': {
      let key;
      try {
        key = readVerifyingKey(config!.keyFile);
      } catch (error) {
        return (error as Error).message;
      }
      const expect = { task: staged.task, repo: repoKeyOf(path.dirname(staged.bus)), base: await headOf(staged.worktree), tree: await indexTree(staged.worktree), digest: staged.digest };
      const problem = approvalProblem(token.approval, [key], expect);
      if (problem === undefined) return undefined;
      return token.approval.digest !== staged.digest ? `the staged change differs from what was approved (approved ${token.approval.digest}, staged ${staged.digest})` : problem;
    }
  }
}
