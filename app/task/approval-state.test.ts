import { describe, expect, it } from 'vitest';
import { approvalState } from './approval-state';
import type { TimelineItem } from './timeline';

const D1 = `sha256:${'1'.repeat(64)}`;
const D2 = `sha256:${'2'.repeat(64)}`;
let n = 0;
const bus = (event: Record<string, unknown>): TimelineItem => ({ kind: 'bus', key: `k${n++}`, ts: '2026-01-01T00:00:00.000Z', event: { ts: '2026-01-01T00:00:00.000Z', task: 'T', ...event } as never });

describe('approvalState', () => {
  it('APPROVAL-9: approved and not committed is waiting; the commit of that digest is committed; another staged digest is stale', () => {
    expect(approvalState([], D1)).toEqual({ kind: 'none' });
    expect(approvalState([], D1, D1)).toEqual({ kind: 'waiting', digest: D1 });
    const granted = [bus({ event: 'approval_requested', digest: D1 }), bus({ event: 'approval_granted', digest: D1, by: 'p' })];
    expect(approvalState(granted, D1)).toEqual({ kind: 'waiting', digest: D1 });
    expect(approvalState([...granted, bus({ event: 'task_committed', commit: 'abc', subject: 'work', digest: D1 })], null))
      .toEqual({ kind: 'committed', digest: D1, commit: 'abc', subject: 'work' });
    expect(approvalState([...granted, bus({ event: 'approval_requested', digest: D2 })], D1)).toEqual({ kind: 'stale', digest: D1 });
    expect(approvalState(granted, D2)).toEqual({ kind: 'stale', digest: D1 });
    expect(approvalState([...granted, bus({ event: 'approval_denied', digest: D1, by: 'p' })], D1)).toEqual({ kind: 'none' });
  });

  it('APPROVAL-9: a commit that does not carry the waiting approval (no digest: its gate skipped, or a plain token) ends the wait as uncarried, never as committed', () => {
    const granted = [bus({ event: 'approval_requested', digest: D1 }), bus({ event: 'approval_granted', digest: D1, by: 'p' })];
    expect(approvalState([...granted, bus({ event: 'task_committed', commit: 'def', subject: 'by hand' })], null))
      .toEqual({ kind: 'uncarried', digest: D1, commit: 'def', subject: 'by hand' });
    // A commit with no approval waiting changes nothing.
    expect(approvalState([bus({ event: 'task_committed', commit: 'def', subject: 'by hand' })], null)).toEqual({ kind: 'none' });
  });
});
