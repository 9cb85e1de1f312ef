// Claude Code `SessionEnd` hook, bus part (ORDER-1): appends session_end before the hook
// returns. The `end` live event is posted by the poster (hooks/spool).
import { sessionEndBus } from '../../lib/hook-actions';
import { runHook } from '../../lib/hook-io';
import { sessionRef } from '../lib/payload';

runHook((payload) => {
  const ref = sessionRef(payload);
  if (ref) sessionEndBus(ref, process.env);
});
