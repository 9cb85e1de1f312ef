// Claude Code's background poster (ORDER-1): started by `hooks/spool` when none runs; turns each
// spooled hook payload into neutral live events and posts them in the order the hooks ran.
import { endEvent, idleEvent, toolEndEvent, toolStartEvent } from '../../lib/hook-actions';
import { stringField } from '../../lib/hook-io';
import { runPoster, type Happening } from '../../lib/hook-poster';
import type { SpoolRecord } from '../../lib/hook-spool';
import type { Env } from '../../lib/env';
import { sessionRef, toolCall, toolOutcome } from '../lib/payload';

function translate(record: SpoolRecord, env: Env): Happening | undefined {
  const payload = record.payload;
  if (!payload) return undefined;
  const ref = sessionRef(payload);
  if (!ref) return undefined;
  const seq = record.at;
  const callId = stringField(payload, 'tool_use_id');
  const call = toolCall(payload);
  switch (record.hook) {
    case 'PreToolUse':
      return call ? { type: 'tool-start', session: ref.session, callId, event: toolStartEvent(ref, call, env, seq) } : undefined;
    case 'PostToolUse':
    case 'PostToolUseFailure':
      return call ? { type: 'tool-end', session: ref.session, callId, event: toolEndEvent(ref, call, toolOutcome(payload), env, seq) } : undefined;
    case 'Stop':
      return { type: 'turn-end', session: ref.session, event: idleEvent(ref, env, seq) };
    case 'SessionEnd':
      return { type: 'session-end', session: ref.session, event: endEvent(ref, env, seq) };
    default:
      return undefined;
  }
}

runPoster(process.env, translate)
  .catch((error: unknown) => {
    if (process.env.COMMANDR_HOOK_DEBUG) process.stderr.write(`commandr poster: ${String(error)}\n`);
  })
  .finally(() => { process.exitCode = 0; });
