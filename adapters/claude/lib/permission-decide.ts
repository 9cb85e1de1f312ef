// The decision of the Claude Code permission hook (PERM-HOOK-n, FAST-n), shared by the
// node hook (the slow path) and the relay's fast path: the policy's allow/deny, a job's
// say on edits (GUARD-8), or "a person must decide". Pure of process state: the caller
// passes the environment the hook ran with and how to load the policy.
import { loadPolicy, PolicyError } from '../../../policy/load';
import type { PermissionAsk } from '../../../protocol/wire/http';
import { checkPermission } from '../../lib/permission-check';
import { jobEdit } from '../../lib/permission-roots';
import type { Env } from '../../lib/env';
import { objectField, stringField } from '../../lib/hook-io';

export type PermissionOutcome =
  /** Print nothing: the agent's own rules apply (a job's launch intent). */
  | { kind: 'none' }
  | { kind: 'answer'; decision: 'allow' | 'deny' | 'ask'; reason: string }
  /** The policy needs a person: ask the relay (the phone). */
  | { kind: 'person'; ask: PermissionAsk; why: string };

/** The stdout line that carries a decision to Claude Code. */
export function hookAnswer(decision: 'allow' | 'deny' | 'ask', reason: string): string {
  return `${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } })}\n`;
}

/**
 * Decides one `PreToolUse` payload. `cwd` is the hook's own working directory (used when the
 * payload names none); undefined for a payload that is not a tool call.
 */
export function decidePermission(payload: Record<string, unknown>, env: Env, cwd: string, load = loadPolicy): PermissionOutcome | undefined {
  const session = stringField(payload, 'session_id');
  const tool = stringField(payload, 'tool_name');
  if (!session || !tool) return undefined;
  const input = objectField(payload, 'tool_input');
  const at = stringField(payload, 'cwd') ?? (env.CLAUDE_PROJECT_DIR || undefined) ?? cwd;
  let checked;
  try {
    checked = checkPermission({ session, cwd: at, tool, input, callId: stringField(payload, 'tool_use_id'), vendor: 'claude' }, env, load);
  } catch (error) {
    if (error instanceof PolicyError) return { kind: 'answer', decision: 'ask', reason: `Commandr's policy cannot be read (${error.message}), so a person must decide.` };
    throw error;
  }
  const { verdict } = checked;
  if (verdict.decision === 'deny') return { kind: 'answer', decision: 'deny', reason: `Commandr policy (${verdict.rule}): ${verdict.why}` };
  const job = jobEdit(tool, input, at, checked.policy.editTools, verdict.rule, env);
  if (job?.kind === 'deny') return { kind: 'answer', decision: 'deny', reason: job.reason };
  if (job?.kind === 'intent') return { kind: 'none' };
  if (verdict.decision === 'allow') {
    // A headless job's launch intent decides what runs unasked; the policy only widens interactive sessions.
    return env.AGENT_MODE ? { kind: 'none' } : { kind: 'answer', decision: 'allow', reason: `Commandr policy (${verdict.rule}): ${verdict.why}` };
  }
  return { kind: 'person', ask: checked.ask, why: verdict.why };
}

/**
 * The environment the decision reads (FAST-1): `hooks/permission-fast` sends exactly these
 * (those set) beside the payload, and the relay decides with them and nothing of its own
 * environment but `COMMANDR_HOME` (its data dir). `PWD` is the hook's working directory.
 */
export const DECISION_ENV_KEYS = [
  'PWD', 'HOME', 'CLAUDE_PROJECT_DIR', 'AGENTS_TASK_ID', 'COMMANDR_TASK', 'COMMANDR_AGENT_ID', 'AGENT_COMMANDS',
  'COMMANDR_PERMISSION_TIMEOUT_MS', 'AGENT_MODE', 'AGENT_CWD', 'AGENT_EDIT_ROOTS', 'GIT_DIR', 'GIT_WORK_TREE',
] as const;
