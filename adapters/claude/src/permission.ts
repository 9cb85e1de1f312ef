// Claude Code `PreToolUse` permission hook (PERM-HOOK-n): the policy answers
// allow/deny locally; `ask` waits for a person on the phone. No decision (relay
// unreachable, bad policy, odd payload) prints nothing, so Claude Code applies
// its own permission rules — never an automatic allow.
import { checkPermission } from '../../lib/permission-check';
import { askRelay } from '../../lib/permission-ask';
import { runHook, stringField } from '../../lib/hook-io';
import { sessionRef, toolCall } from '../lib/payload';

function answer(decision: 'allow' | 'deny', reason: string): void {
  process.stdout.write(`${JSON.stringify({ hookSpecificOutput: { hookEventName: 'PreToolUse', permissionDecision: decision, permissionDecisionReason: reason } })}\n`);
}

runHook(async (payload) => {
  const ref = sessionRef(payload);
  const call = toolCall(payload);
  if (!ref || !call) return;
  const checked = checkPermission({ session: ref.session, cwd: ref.cwd, tool: call.tool, input: call.input, callId: stringField(payload, 'tool_use_id') });
  const { verdict } = checked;
  if (verdict.decision === 'deny') return answer('deny', `Commandr policy (${verdict.rule}): ${verdict.why}`);
  if (verdict.decision === 'allow') {
    // A headless job's launch intent decides what runs unasked; the policy only widens interactive sessions.
    if (!process.env.AGENT_MODE) answer('allow', `Commandr policy (${verdict.rule}): ${verdict.why}`);
    return;
  }
  const decided = await askRelay(checked.ask);
  if (decided) answer(decided.decision, decided.reason);
});
