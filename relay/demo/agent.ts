// The demo's simulated agent (DEMO-5): once the person approves the demo change, it
// commits it through the real gate (its approval carried and spent, as the hooks do) and
// completes the task, so the story ends "committed, done".
import { gitSync } from '../../bus/git/run';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { addApprovalTrailer, spendAfterCommit } from '../../bus/approval/commit-hooks';
import { completePacket } from '../../bus/complete';
import { runGate } from '../../bus/gate';
import { appendProgress } from '../../bus/progress';
import { REVIEW_TASK } from './packets';

export { REVIEW_TASK as DEMO_REVIEW_TASK };

const AGENT = 'demo-host_4242';

function gitEnv(): NodeJS.ProcessEnv {
  return {
    ...process.env, GIT_AUTHOR_NAME: 'Commandr demo', GIT_AUTHOR_EMAIL: 'demo@commandr.invalid',
    GIT_COMMITTER_NAME: 'Commandr demo', GIT_COMMITTER_EMAIL: 'demo@commandr.invalid', AGENTS_TASK_ID: '',
  };
}

/**
 * Commits the approved demo change in its agent worktree and completes the task.
 * The gate decides exactly as for a real agent (in-process, so it works without a
 * built bin/); returns false, changing nothing, when it still blocks.
 */
export async function commitApprovedDemo(repo: string): Promise<boolean> {
  const bus = path.join(repo, '.agents');
  const worktree = path.join(path.dirname(repo), 'worktrees', REVIEW_TASK);
  const claimed = fs.readdirSync(path.join(bus, 'claimed')).find((f) => f.endsWith(`_${REVIEW_TASK}.md`));
  if (!claimed || !fs.existsSync(worktree)) return false;
  const env = gitEnv();
  const gate = await runGate(worktree, env);
  if (!gate.allow) return false;
  // The hooks' two other steps, in process too: the commit carries the approval as its
  // trailer (APPROVAL-7), and the token is spent with `task_committed {digest}` (APPROVAL-8),
  // so the phone says "committed", not "waiting". The repo's hooks are not run a second time.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-demo-commit-'));
  try {
    const message = path.join(scratch, 'message');
    fs.writeFileSync(message, 'Demo: greet people by name\n');
    await addApprovalTrailer(message, worktree, env);
    gitSync(['commit', '-q', '--no-verify', '-F', message], { cwd: worktree, env });
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  await spendAfterCommit(worktree, env);
  appendProgress(bus, REVIEW_TASK, 'Committed the approved change', AGENT);
  await completePacket(path.join(bus, 'claimed', claimed), 'pass');
  return true;
}
