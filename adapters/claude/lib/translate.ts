// What one Claude Code hook call means, in neutral terms (ORDER-1): a spooled record (the poster)
// or a reported one (the relay's `POST /api/hooks/report`, REPORT-n) becomes the same Happening.
import { endEvent, idleEvent, toolEndEvent, toolStartEvent } from '../../lib/hook-actions';
import { stringField } from '../../lib/hook-io';
import type { Happening } from '../../lib/hook-poster';
import type { SpoolRecord } from '../../lib/hook-spool';
import type { Env } from '../../lib/env';
import { sessionRef, toolCall, toolOutcome } from './payload';

export function translate(record: Pick<SpoolRecord, 'at' | 'hook' | 'payload'>, env: Env): Happening | undefined {
  const payload = record.payload;
  if (!payload) return undefined;
  const ref = sessionRef(payload, env);
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
