// Claude Code `PreToolUse` hook: queues and posts the in-flight live event (running:true) for the tool call.
// One entry per hook event so each can grow on its own (e.g. a permission step before tool use).
import { onToolStart } from '../../lib/hook-actions';
import { runHook, stringField } from '../../lib/hook-io';
import { LiveOutbox } from '../../lib/live-queue';
import { sessionRef, toolCall } from '../lib/payload';

runHook(async (payload) => {
  const ref = sessionRef(payload);
  if (!ref) return;
  const call = toolCall(payload);
  if (!call) return;
  const out = new LiveOutbox();
  onToolStart(ref, call, process.env, out, stringField(payload, 'tool_use_id'));
  await out.drain();
});
