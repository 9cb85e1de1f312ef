// Claude Code `PostToolUse / PostToolUseFailure` hook: queues and posts the completed live event, with the check verdict when it is one.
// One entry per hook event so each can grow on its own (e.g. a permission step before tool use).
import { onToolEnd } from '../../lib/hook-actions';
import { runHook, stringField } from '../../lib/hook-io';
import { LiveOutbox } from '../../lib/live-queue';
import { sessionRef, toolCall, toolOutcome } from '../lib/payload';

runHook(async (payload) => {
  const ref = sessionRef(payload);
  if (!ref) return;
  const call = toolCall(payload);
  if (!call) return;
  const out = new LiveOutbox();
  await onToolEnd(ref, call, toolOutcome(payload), process.env, out, stringField(payload, 'tool_use_id'));
  await out.drain();
});
