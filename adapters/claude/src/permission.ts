// Claude Code `PreToolUse` permission hook, the slow path (PERM-HOOK-n, FAST-3): the policy
// answers allow/deny locally; `ask` waits for a person on the phone. When no phone can be
// asked (relay down, no device) or the policy cannot be read, it fails closed (GUARD-6):
// `ask`, so Claude Code's own prompt asks the person at the terminal and a headless run
// refuses the call — the agent's own allow rules never decide it. `hooks/permission` runs
// this only when the relay's fast path (FAST-n) cannot answer.
import { askRelay, unreachableReason } from '../../lib/permission-ask';
import { MAX_PAYLOAD_BYTES, runHook } from '../../lib/hook-io';
import { decidePermission, hookAnswer } from '../lib/permission-decide';

runHook(async (payload) => {
  const outcome = decidePermission(payload, process.env, process.cwd());
  if (!outcome || outcome.kind === 'none') return;
  if (outcome.kind === 'answer') {
    process.stdout.write(hookAnswer(outcome.decision, outcome.reason));
    return;
  }
  const decided = await askRelay(outcome.ask);
  process.stdout.write(decided
    ? hookAnswer(decided.decision, decided.reason)
    : hookAnswer('ask', unreachableReason(`${outcome.why}; the relay could not be reached or no phone is paired`)));
}, () => {
  // Unread, the call is unjudged: never leave it to the agent's own allow rules (GUARD-6).
  process.stdout.write(hookAnswer('ask', tooLargeReason()));
});

function tooLargeReason(): string {
  return `This tool call is over ${MAX_PAYLOAD_BYTES / 1024 / 1024} MiB, too large for Commandr's policy to check, so a person must decide; split it into smaller calls.`;
}
