// The demo's simulated agent (DEMO-5): once the person approves the demo change, it
// commits it through the real gate (its approval carried and spent, as the hooks do) and
// stops there, as the demo's other committed task did (DEMO-STATES-1): the story goes on
// "committed", then Merge into main from the phone. It does not complete the task, so the
// same git state never reads "Done" on one task and "Committed" on the other.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { appendProgress } from '../../bus/progress';
import { commitThroughGate, DEMO_AGENT } from './later-states';
import { REVIEW_TASK } from './packets';

export { REVIEW_TASK as DEMO_REVIEW_TASK };

/**
 * Commits the approved demo change in its agent worktree. The gate decides exactly as for a
 * real agent (in-process, so it works without a built bin/); returns false, changing
 * nothing, when it still blocks.
 */
export async function commitApprovedDemo(repo: string): Promise<boolean> {
  const bus = path.join(repo, '.agents');
  const worktree = path.join(path.dirname(repo), 'worktrees', REVIEW_TASK);
  const claimed = fs.readdirSync(path.join(bus, 'claimed')).find((f) => f.endsWith(`_${REVIEW_TASK}.md`));
  if (!claimed || !fs.existsSync(worktree)) return false;
  // The hooks' two other steps, in process too: the commit carries the approval as its
  // trailer (APPROVAL-7), and the token is spent with `task_committed {digest}` (APPROVAL-8),
  // so the phone says "committed", not "waiting". The repo's hooks are not run a second time.
  if (!(await commitThroughGate(worktree, 'Demo: greet people by name'))) return false;
  appendProgress(bus, REVIEW_TASK, 'Committed the approved change', DEMO_AGENT);
  return true;
}
