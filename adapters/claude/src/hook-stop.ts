// Claude Code `Stop` hook: turn end: a neutral checkpoint when the work changed, and the idle live event.
// One entry per hook event so each can grow on its own (e.g. a permission step before tool use).
import { onTurnEnd } from '../../lib/hook-actions';
import { runHook } from '../../lib/hook-io';
import { sessionRef } from '../lib/payload';

runHook(async (payload) => {
  const ref = sessionRef(payload);
  if (!ref) return;
  await onTurnEnd(ref, process.env);
});
