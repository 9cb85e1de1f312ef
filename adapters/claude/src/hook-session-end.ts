// Claude Code `SessionEnd` hook: appends session_end to the bus and posts the end live event.
// One entry per hook event so each can grow on its own (e.g. a permission step before tool use).
import { onSessionEnd } from '../../lib/hook-actions';
import { runHook } from '../../lib/hook-io';
import { sessionRef } from '../lib/payload';

runHook(async (payload) => {
  const ref = sessionRef(payload);
  if (!ref) return;
  await onSessionEnd(ref, process.env);
});
