// What a task notification may say about its change (PUSH-3): the staged change's
// file count and +/− totals, and the council's failing dimensions — names and
// counts only, read from git and the verdict file at the moment the event lands.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitBytes, stagedDigest } from '../../bus/digest';
import { parseNumstat } from '../../bus/diff-files';
import type { AnyBusEvent } from '../../protocol/bus/events';
import { Verdict } from '../../protocol/bus/verdict';
import type { RepoInfo } from '../../protocol/wire/views';
import type { TaskContext } from './messages';

/** Context for `busEventMessage`; never throws (a missing worktree only drops the counts). */
export async function taskContext(repo: RepoInfo, bus: string, event: AnyBusEvent): Promise<TaskContext> {
  const ctx: TaskContext = { repoId: repo.id, repoName: repo.name };
  if (event.event === 'approval_requested' && typeof event.worktree === 'string' && typeof event.digest === 'string') {
    const stats = await stagedStats(event.worktree, event.digest);
    if (stats) ctx.stats = stats;
  }
  if (event.event === 'council_verdict' && typeof event.task === 'string') ctx.verdict = readVerdict(bus, event.task);
  return ctx;
}

/** Counts of the staged change, only while it is still the change the gate blocked. */
async function stagedStats(worktree: string, digest: string): Promise<TaskContext['stats'] | undefined> {
  try {
    const [staged, numstat] = await Promise.all([
      stagedDigest(worktree),
      gitBytes(worktree, ['diff', '--cached', '--no-ext-diff', '--no-textconv', '--ignore-submodules=none', '-M', '--numstat', '-z']),
    ]);
    if (staged.digest !== digest) return undefined;
    const entries = parseNumstat(numstat.toString('utf8'));
    return {
      files: staged.files,
      additions: entries.reduce((n, e) => n + e.additions, 0),
      deletions: entries.reduce((n, e) => n + e.deletions, 0),
    };
  } catch {
    return undefined;
  }
}

function readVerdict(bus: string, task: string): Verdict | null {
  try {
    const parsed = Verdict.safeParse(JSON.parse(fs.readFileSync(path.join(bus, 'council', `${task}.json`), 'utf8')));
    return parsed.success && parsed.data.task === task ? parsed.data : null;
  } catch {
    return null;
  }
}
