// Child process for large-staged.test.ts: runs what the relay runs for task.diff
// and approve (taskDiff, stagedDigest, indexTree) on a bus and prints its peak RSS.
import { currentDigest, indexTree, taskDiff } from '../../bus/diff';

async function main(): Promise<void> {
  const [bus, task, worktree] = process.argv.slice(2) as [string, string, string];
  const baseRssKb = process.resourceUsage().maxRSS;
  const diff = await taskDiff(bus, task);
  const digest = await currentDigest(worktree);
  const tree = await indexTree(worktree);
  const big = diff.files.find((f) => f.path === 'big.log');
  process.stdout.write(JSON.stringify({ digest, shown: diff.digest, tree, patchBytes: diff.patch_bytes, big, baseRssKb, maxRssKb: process.resourceUsage().maxRSS }) + '\n');
}

void main().catch((error: unknown) => { process.stderr.write(String(error) + '\n'); process.exitCode = 1; });
