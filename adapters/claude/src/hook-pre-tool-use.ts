// Claude Code `PreToolUse` hook: posts the in-flight live event (running:true) for the tool call.
// One entry per hook event so each can grow on its own (e.g. a permission step before tool use).
import { onToolStart } from '../../lib/hook-actions';
import { runHook, stringField } from '../../lib/hook-io';
import { sessionRef, toolCall } from '../lib/payload';

runHook(async (payload) => {
  const ref = sessionRef(payload);
  if (!ref) return;
  const call = toolCall(payload);
  if (call) await onToolStart(ref, call, process.env, stringField(payload, 'tool_use_id'));
});
