// `pre-commit-gate [commit-msg <file> | post-commit | post-merge <squash>]`: run by the repo's
// git hooks. pre-commit and pre-merge-commit (no arguments) block an agent's commit unless a
// relay-signed token approves exactly what is staged (GATE-n, APPROVAL-n); commit-msg records
// that approval as a trailer; post-commit (and post-merge, after a merge commit) spends the
// token and reports the commit.
import { addApprovalTrailer, madeMergeCommit, spendAfterCommit } from '../bus/approval/commit-hooks';
import { runGate } from '../bus/gate';
import { runTool, UsageError, warnToStderr } from './_shared/tool';

const USAGE = 'usage: pre-commit-gate                  (from .git/hooks/pre-commit)\n       pre-commit-gate commit-msg <file>  (from .git/hooks/commit-msg)\n       pre-commit-gate post-commit        (from .git/hooks/post-commit)\n       pre-commit-gate post-merge <squash>  (from .git/hooks/post-merge)';

/** After a commit: spends the token it used; a failure warns and never undoes the commit. */
const spend = () => spendAfterCommit().catch((e: unknown) => warnToStderr(`warning: the approval token was not spent: ${(e as Error).message}`));

runTool('pre-commit-gate', USAGE, async (args) => {
  // The gate has decided by now: these two only record, so a failure warns and never blocks the commit.
  if (args[0] === 'commit-msg') {
    if (args.length !== 2) throw new UsageError('commit-msg takes the message file');
    await addApprovalTrailer(args[1]!).catch((e: unknown) => warnToStderr(`warning: the approval was not recorded in the commit message: ${(e as Error).message}`));
    return 0;
  }
  if (args[0] === 'post-commit') {
    await spend();
    return 0;
  }
  if (args[0] === 'post-merge') {
    if (args.length !== 2) throw new UsageError('post-merge takes git\'s squash flag');
    // A squash or a fast-forward made no merge commit: the commit that follows a squash is a plain one.
    if (args[1] === '1' || !(await madeMergeCommit().catch(() => false))) return 0;
    await spend();
    return 0;
  }
  if (args.length > 0) throw new UsageError(`unknown hook ${JSON.stringify(args[0])}`);
  const outcome = await runGate();
  outcome.messages.forEach(warnToStderr);
  return outcome.allow ? 0 : 1;
});
