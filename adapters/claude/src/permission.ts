// Claude Code `PreToolUse` permission hook (PERM-HOOK-n): the policy answers
// allow/deny locally; `ask` waits for a person on the phone. When no phone can be
// asked (relay down, no device) or the policy cannot be read, it fails closed
// (GUARD-6): `ask`, so Claude Code's own prompt asks the person at the terminal
// and a headless run refuses the call — the agent's own allow rules never decide it.
import { PolicyError } from '../../../policy/load';
import { checkPermission } from '../../lib/permission-check';
import { askRelay, unreachableReason } from '../../lib/permission-ask';
import { jobEdit } from '../../lib/permission-roots';
import { runHook, stringField } from '../../lib/hook-io';
import { sessionRef, toolCall } from '../lib/payload';

function answer(decision: 'allow' | 'deny' | 'ask', reason: string): void {
  process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } })}\n`);
}

runHook(async (payload) => {
  const ref = sessionRef(payload);
  const call = toolCall(payload);
  if (!ref || !call) return;
  let checked;
  try {
    checked = checkPermission({ session: ref.session, cwd: ref.cwd, tool: call.tool, input: call.input, callId: stringField(payload, 'tool_use_id') });
  } catch (error) {
    if (error instanceof PolicyError) return answer('ask', `Commandr's policy cannot be read (${error.message}), so a person must decide.`);
    throw error;
  }
  const { verdict } = checked;
  if (verdict.decision === 'deny') return answer('deny', `Commandr policy (${verdict.rule}): ${verdict.why}`);
  const job = jobEdit(call.tool, call.input, ref.cwd, checked.policy.editTools, verdict.rule);
  if (job?.kind === 'deny') return answer('deny', job.reason);
  if (job?.kind === 'intent') return;
  if (verdict.decision === 'allow') {
    // A headless job's launch intent decides what runs unasked; the policy only widens interactive sessions.
    if (!process.env.AGENT_MODE) answer('allow', `Commandr policy (${verdict.rule}): ${verdict.why}`);
    return;
  }
  const decided = await askRelay(checked.ask);
  if (decided) answer(decided.decision, decided.reason);
  else answer('ask', unreachableReason(`${verdict.why}; the relay could not be reached or no phone is paired`));
});
