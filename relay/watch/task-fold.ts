// What the event log says about one task (last note, last event time, result,
// the approval that waits for a person), folded event by event as lines arrive.
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { PendingApproval, TaskCommit, TaskLife, TaskSummary } from '../../protocol/wire/views';

export interface TaskFold {
  lastNote: string | null;
  lastEventTs: string | null;
  result: TaskSummary['result'];
  /** The newest approval_requested not yet answered by a grant or deny of the same digest. */
  pending: PendingApproval | null;
  /** Worktree named by the newest approval_requested, answered or not (the change under review). */
  reviewWorktree: string | null;
  /** The newest grant not yet followed by a commit, a deny or a request for another digest (TSTATE-1). */
  approved: { digest: string; ts: string } | null;
  /** The newest `task_committed` (TSTATE-1). */
  commit: TaskCommit | null;
  /** The newest `task_merged` not followed by another commit (TSTATE-6). */
  merged: NonNullable<TaskLife['merged']> | null;
  /** The newest `pr_opened`. */
  pr: NonNullable<TaskLife['pr']> | null;
}

export function emptyFold(): TaskFold {
  return { lastNote: null, lastEventTs: null, result: null, pending: null, reviewWorktree: null, approved: null, commit: null, merged: null, pr: null };
}

const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** Applies one event (already known to be about this task); unknown types only move the time. */
export function foldEvent(fold: TaskFold, event: AnyBusEvent): void {
  fold.lastEventTs = event.ts;
  const e = event as Record<string, unknown>;
  switch (event.event) {
    case 'task_progress':
      if (str(e.note) !== undefined) fold.lastNote = str(e.note)!;
      break;
    case 'task_complete':
      if (e.result === 'pass' || e.result === 'fail') fold.result = e.result;
      break;
    case 'task_failed':
      fold.result = 'failed';
      break;
    case 'task_claimed':
      fold.result = null;
      fold.approved = null;
      break;
    case 'approval_requested': {
      const digest = str(e.digest);
      const worktree = str(e.worktree);
      if (digest === undefined || worktree === undefined) break;
      fold.pending = { digest, worktree, files: typeof e.files === 'number' ? e.files : 0, ts: event.ts };
      fold.reviewWorktree = worktree;
      if (fold.approved && fold.approved.digest !== digest) fold.approved = null; // another change: that approval is stale
      break;
    }
    case 'approval_granted':
    case 'approval_denied':
      if (fold.pending && fold.pending.digest === e.digest) fold.pending = null;
      if (event.event === 'approval_granted' && str(e.digest)) fold.approved = { digest: str(e.digest)!, ts: event.ts };
      else if (event.event === 'approval_denied' && fold.approved?.digest === e.digest) fold.approved = null;
      break;
    case 'task_committed': {
      const commit = str(e.commit);
      if (!commit) break;
      const task = str(e.task) ?? '';
      // `digest` is there only when the commit carried a valid approval, which it spent (APPROVAL-8).
      fold.commit = { hash: commit, subject: str(e.subject) ?? '', branch: `agent/${task}`, verified: str(e.digest) !== undefined, ts: event.ts };
      fold.approved = null;
      fold.merged = null; // a new commit is not merged yet
      // A change committed is no longer waiting: a request for it is answered by the commit.
      if (fold.pending && fold.pending.digest === e.digest) fold.pending = null;
      break;
    }
    case 'task_merged': {
      const base = str(e.base);
      const commit = str(e.commit);
      if (base && commit) fold.merged = { base, commit, mode: e.mode === 'fast-forward' ? 'fast-forward' : 'merge', ts: event.ts };
      break;
    }
    case 'pr_opened': {
      const url = str(e.url);
      if (url) fold.pr = { url, base: str(e.base) ?? '' };
      break;
    }
  }
}
