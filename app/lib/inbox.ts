// The Inbox's grouping, filtering and search over task summaries (pure, unit-tested):
// each task lands in exactly one group, the one that most needs a person. The group follows
// the task's stage of life (TSTATE-7), not its bus state alone: a claimed task may have failed
// or be committed and waiting to be merged, and a done one may still wait for its merge.
//
// API:
//   GROUPS: [{key, title}] in display order
//   groupTasks(tasks by repo, {repo?, query?}) → [{key, title, tasks}] (every group, maybe empty)
//   heldDone(tasks of a repo) → {count, oldest}: the done tasks the app holds, and where the next page starts (PAGE-3)
import type { TaskSummary } from '../../protocol/wire/views';
import { barActions, stageOf } from '../task/task-stage';
import { AWAITING_APPROVAL, WAITING_FOR_YOU } from './words';

export type GroupKey = 'approval' | 'council-failed' | 'needs-you' | 'in-progress' | 'inbox' | 'done';
export const GROUPS: { key: GroupKey; title: string }[] = [
  { key: 'approval', title: AWAITING_APPROVAL },
  { key: 'council-failed', title: 'Council failed' },
  { key: 'needs-you', title: WAITING_FOR_YOU },
  { key: 'in-progress', title: 'In progress' },
  { key: 'inbox', title: 'Inbox' },
  { key: 'done', title: 'Done' },
];

export function groupOf(task: TaskSummary): GroupKey {
  if (task.pendingApproval) return 'approval';
  const stage = stageOf(task);
  const settled = task.state === 'done' || stage === 'merged';
  // A FAIL no reviewer voted on is "council not configured", not a failed review (UX-7).
  if (task.verdict?.verdict === 'FAIL' && task.verdict.votes.some((v) => v.vote !== 'ABSTAIN') && !settled) return 'council-failed';
  // Its run failed (the next step is to run it again), or its commit waits to be merged: the person's move.
  if (stage === 'failed' || barActions(stage, task.life).includes('merge')) return 'needs-you';
  if (stage === 'merged' || stage === 'done') return 'done';
  if (task.state === 'inbox') return 'inbox';
  return 'in-progress';
}

export function groupTasks(
  tasks: Record<string, Record<string, TaskSummary>>,
  filter: { repo?: string | null; query?: string } = {},
): { key: GroupKey; title: string; tasks: TaskSummary[] }[] {
  const query = filter.query?.trim().toLowerCase() ?? '';
  const buckets = new Map<GroupKey, TaskSummary[]>(GROUPS.map((g) => [g.key, []]));
  for (const [repo, byId] of Object.entries(tasks)) {
    if (filter.repo && repo !== filter.repo) continue;
    for (const task of Object.values(byId)) {
      if (query && !task.id.toLowerCase().includes(query) && !(task.title ?? '').toLowerCase().includes(query)) continue;
      buckets.get(groupOf(task))!.push(task);
    }
  }
  return GROUPS.map((g) => ({ ...g, tasks: buckets.get(g.key)!.sort(newestFirst) }));
}

function newestFirst(a: TaskSummary, b: TaskSummary): number {
  const at = a.lastEventTs ?? '';
  const bt = b.lastEventTs ?? '';
  if (at !== bt) return at < bt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

/**
 * The done tasks the app holds of one repo: how many, and the oldest in the Done group's
 * order, the `before` of the repo's next `repo.done` page (PAGE-2, PAGE-3). Read from the
 * store, not from the Done group on screen, which a search narrows and a deferred render lags.
 */
export function heldDone(byId: Record<string, TaskSummary> | undefined): { count: number; oldest: TaskSummary | undefined } {
  let count = 0;
  let oldest: TaskSummary | undefined;
  for (const task of Object.values(byId ?? {})) {
    if (task.state !== 'done') continue;
    count += 1;
    if (!oldest || newestFirst(task, oldest) > 0) oldest = task;
  }
  return { count, oldest };
}
