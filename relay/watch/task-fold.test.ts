// The per-task fold: what pendingApproval, lastNote and result mean (SNAPSHOT-2).
import { describe, expect, it } from 'vitest';
import { emptyFold, foldEvent } from './task-fold';

const d = (c: string): string => `sha256:${c.repeat(64)}`;
const ev = (event: string, extra: Record<string, unknown> = {}) => ({ ts: new Date().toISOString(), event, task: 'T', ...extra });

describe('task fold', () => {
  it('SNAPSHOT-2: pendingApproval is the newest request not answered by a grant or deny of the same digest', () => {
    const fold = emptyFold();
    foldEvent(fold, ev('approval_requested', { digest: d('a'), worktree: '/w', files: 2 }));
    expect(fold.pending).toMatchObject({ digest: d('a'), worktree: '/w', files: 2 });
    foldEvent(fold, ev('approval_granted', { digest: d('b'), by: 'x' }));
    expect(fold.pending?.digest).toBe(d('a'));
    foldEvent(fold, ev('approval_requested', { digest: d('c'), worktree: '/w', files: 1 }));
    foldEvent(fold, ev('approval_denied', { digest: d('a'), by: 'x' }));
    expect(fold.pending?.digest).toBe(d('c'));
    foldEvent(fold, ev('approval_granted', { digest: d('c'), by: 'x' }));
    expect(fold.pending).toBeNull();
    expect(fold.reviewWorktree).toBe('/w');
  });

  it('SNAPSHOT-2: last note, result and time follow the log; unknown events only move the time', () => {
    const fold = emptyFold();
    foldEvent(fold, ev('task_progress', { note: 'one' }));
    foldEvent(fold, ev('task_complete', { result: 'fail' }));
    expect(fold).toMatchObject({ lastNote: 'one', result: 'fail' });
    foldEvent(fold, ev('task_failed', { agent: 'a', reason: 'crash' }));
    expect(fold.result).toBe('failed');
    const later = { ts: '2099-01-01T00:00:00.000Z', event: 'something_new', task: 'T' };
    foldEvent(fold, later);
    expect(fold.lastEventTs).toBe(later.ts);
    expect(fold.lastNote).toBe('one');
  });
});
