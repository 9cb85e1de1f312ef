// `claim`: takes the first claimable inbox packet of this repo's bus (CLAIM-n).
import { claimNext } from '../bus/claim';
import { leaseSeconds } from '../bus/lease';
import { locateBus } from '../bus/locate';
import { claimNextRemote } from '../bus/remote-claim';
import { UsageError, runTool, warnToStderr } from './_shared/tool';

const USAGE = 'usage: claim [--remote <git-remote> [--lease <seconds>]]    (run inside the repo or one of its worktrees; AGENTS_CLAIM_REMOTE sets the remote, AGENTS_CLAIM_LEASE the lease, default 1800)';

/**
 * `--remote <r>` wins each task on a shared remote first (REMOTE-CLAIM-n), holding
 * it with a lease of `--lease S` seconds (LEASE-1); the variables are the defaults.
 */
function optionsOf(args: string[]): { remote?: string; lease?: string } {
  const options: { remote?: string; lease?: string } = {};
  for (let i = 0; i < args.length; i += 2) {
    const flag = args[i]!;
    const value = args[i + 1];
    if ((flag !== '--remote' && flag !== '--lease') || value === undefined || value.trim() === '') {
      throw new UsageError(`unexpected argument ${JSON.stringify(flag === '--remote' || flag === '--lease' ? `${flag} without a value` : flag)}`);
    }
    const key = flag === '--remote' ? 'remote' : 'lease';
    if (options[key] !== undefined) throw new UsageError(`${flag} given twice`);
    options[key] = value;
  }
  options.remote ??= process.env.AGENTS_CLAIM_REMOTE?.trim() || undefined;
  if (options.lease !== undefined && options.remote === undefined) throw new UsageError('--lease applies to a remote claim: give --remote too');
  return options;
}

runTool('claim', USAGE, async (args) => {
  const { remote, lease } = optionsOf(args);
  const bus = locateBus();
  const claimed = remote
    ? await claimNextRemote(bus, remote, { warn: warnToStderr, lease: leaseSeconds(lease) })
    : await claimNext(bus, { warn: warnToStderr });
  if (claimed && 'previous' in claimed && claimed.previous) warnToStderr(`claim: took over ${claimed.task} from ${claimed.previous}, whose lease had lapsed`);
  // The packet's bytes as they are, whatever their encoding (CLAIM-4).
  process.stdout.write(claimed ? Buffer.concat([Buffer.from(`claimed:${claimed.path}\n`), claimed.bytes]) : 'inbox:empty\n');
  return 0;
});
