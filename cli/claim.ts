// `claim`: takes the first claimable inbox packet of this repo's bus (CLAIM-n).
import { claimNext } from '../bus/claim';
import { locateBus } from '../bus/locate';
import { claimNextRemote } from '../bus/remote-claim';
import { UsageError, runTool, warnToStderr } from './_shared/tool';

const USAGE = 'usage: claim [--remote <git-remote>]    (run inside the repo or one of its worktrees; AGENTS_CLAIM_REMOTE sets the remote)';

/** `--remote <r>` wins each task on a shared remote first (REMOTE-CLAIM-n); the variable is the default. */
function remoteOf(args: string[]): string | undefined {
  if (args.length === 0) return process.env.AGENTS_CLAIM_REMOTE?.trim() || undefined;
  if (args[0] === '--remote' && args.length === 2 && args[1]!.trim() !== '') return args[1];
  throw new UsageError(`unexpected argument ${JSON.stringify(args[0] === '--remote' ? args.slice(1).join(' ') : args[0])}`);
}

runTool('claim', USAGE, async (args) => {
  const remote = remoteOf(args);
  const bus = locateBus();
  const claimed = remote ? await claimNextRemote(bus, remote, { warn: warnToStderr }) : await claimNext(bus, { warn: warnToStderr });
  process.stdout.write(claimed ? `claimed:${claimed.path}\n${claimed.content}` : 'inbox:empty\n');
  return 0;
});
