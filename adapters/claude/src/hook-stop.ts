// Claude Code `Stop` hook, bus part (ORDER-1): a neutral checkpoint when the work changed,
// written before the hook returns. The `idle` live event is posted by the poster (hooks/spool).
import { turnEndBus } from '../../lib/hook-actions';
import { runHook } from '../../lib/hook-io';
import { sessionRef } from '../lib/payload';

runHook((payload) => {
  const ref = sessionRef(payload);
  if (ref) turnEndBus(ref, process.env);
});
