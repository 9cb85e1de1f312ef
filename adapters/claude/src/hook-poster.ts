// Claude Code's background poster (ORDER-1): started by `hooks/spool` when none runs; turns each
// spooled hook payload into neutral live events and posts them in the order the hooks ran.
import { runPoster } from '../../lib/hook-poster';
import { translate } from '../lib/translate';

runPoster(process.env, translate)
  .catch((error: unknown) => {
    if (process.env.COMMANDR_HOOK_DEBUG) process.stderr.write(`commandr poster: ${String(error)}\n`);
  })
  .finally(() => { process.exitCode = 0; });
