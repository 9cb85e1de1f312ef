// `claim`: takes the first claimable inbox packet of this repo's bus (CLAIM-n).
import { claimNext } from '../bus/claim';
import { locateBus } from '../bus/locate';
import { UsageError, runTool, warnToStderr } from './_shared/tool';

const USAGE = 'usage: claim    (run inside the repo or one of its worktrees)';

runTool('claim', USAGE, async (args) => {
  // Slot: `claim --remote <git-remote>` / AGENTS_CLAIM_REMOTE is wired here by bus/remote-claim.ts (REMOTE-CLAIM-n).
  if (args.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(args[0])}`);
  const claimed = await claimNext(locateBus(), { warn: warnToStderr });
  process.stdout.write(claimed ? `claimed:${claimed.path}\n${claimed.content}` : 'inbox:empty\n');
  return 0;
});
