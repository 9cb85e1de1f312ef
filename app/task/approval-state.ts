// What the phone says about an approval (APPROVAL-9): derived from the task's bus
// events and the digest on screen. Pure, unit-tested; ActionBar renders it.
import type { TimelineItem } from './timeline';

export type ApprovalState =
  | { kind: 'none' }
  /** Approved; the agent has not committed it yet. Approve and Deny are off for this digest. */
  | { kind: 'waiting'; digest: string }
  /** The approved change landed as this commit. */
  | { kind: 'committed'; digest: string; commit: string; subject: string }
  /** The agent staged something else after the approval: it no longer applies. */
  | { kind: 'stale'; digest: string }
  /** A commit landed that does not carry this approval (its gate skipped, or a plain token): the approval no longer applies. */
  | { kind: 'uncarried'; digest: string; commit: string; subject: string };

/** `localApproved`: a digest this screen just approved, before its event arrives. */
export function approvalState(items: TimelineItem[], shown: string | null, localApproved: string | null = null): ApprovalState {
  let state: ApprovalState = localApproved ? { kind: 'waiting', digest: localApproved } : { kind: 'none' };
  for (const item of items) {
    if (item.kind !== 'bus') continue;
    const e = item.event as Record<string, unknown>;
    const digest = typeof e.digest === 'string' ? e.digest : undefined;
    if (e.event === 'approval_granted' && digest) state = { kind: 'waiting', digest };
    else if (e.event === 'approval_denied') state = { kind: 'none' };
    else if (state.kind === 'waiting' && e.event === 'task_committed') {
      // Committed with this approval, or without it: HEAD moved, so it can never pass the gate again.
      const commit = { commit: String(e.commit), subject: String(e.subject ?? '') };
      state = digest === state.digest ? { kind: 'committed', digest, ...commit } : { kind: 'uncarried', digest: state.digest, ...commit };
    } else if (state.kind === 'waiting' && e.event === 'approval_requested' && digest && digest !== state.digest) {
      state = { kind: 'stale', digest: state.digest };
    }
  }
  // A reloaded diff showing another staged change also makes a waiting approval stale.
  if (state.kind === 'waiting' && shown && shown !== state.digest) return { kind: 'stale', digest: state.digest };
  return state;
}
