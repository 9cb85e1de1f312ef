// The committed task's bar (FINISH-9): Merge is the main action, with Open pull request and Push
// branch under "More" — one row of two buttons on a phone — and only in the committed stage.
import { describe, expect, it } from 'vitest';
import { barActions } from '../../app/task/task-stage';
import { finishedText } from '../../app/task/task-stage';

describe('FINISH: the action bar of a committed task', () => {
  it('FINISH-9: only a committed task offers merge, pull request and push; no other stage does', () => {
    expect(barActions('committed').slice(0, 3)).toEqual(['merge', 'pr', 'push']);
    expect(barActions('committed')).not.toContain('approve');
    for (const stage of ['inbox', 'running', 'approval', 'approved', 'merged', 'done', 'failed'] as const) {
      for (const a of ['merge', 'pr', 'push'] as const) expect(barActions(stage)).not.toContain(a);
    }
  });

  it('TSTATE-6: a done task whose commit is not merged can still be finished; a merged one, or one with an open pull request, is not offered it again', () => {
    const commit = { hash: 'a'.repeat(40), subject: 's', branch: 'agent/T-1', verified: true, ts: '2026-12-03T00:00:00Z' };
    expect(barActions('done', { stage: 'done', commit })).toEqual(['merge', 'pr', 'push']);
    expect(barActions('done', { stage: 'done', commit, pr: { url: 'https://x/pull/1', base: 'main' } })).toEqual(['merge', 'push']);
    expect(barActions('committed', { stage: 'committed', commit, pr: { url: 'https://x/pull/1', base: 'main' } })).not.toContain('pr');
    const merged = { base: 'main', commit: commit.hash, mode: 'fast-forward' as const, ts: commit.ts };
    expect(barActions('done', { stage: 'done', commit, merged })).toEqual([]);
    expect(barActions('merged', { stage: 'merged', commit, merged })).toEqual([]);
    expect(barActions('done', { stage: 'done' })).toEqual([]);
  });

  it('FINISH-9: what each finish action did, said from the relay\'s answer', () => {
    expect(finishedText('task.merge', { base: 'main', mode: 'fast-forward', commit: 'a'.repeat(40) })).toBe(`Merged into main (fast-forward) · ${'a'.repeat(10)}.`);
    expect(finishedText('task.merge', { base: 'trunk', mode: 'merge' })).toBe('Merged into trunk with a merge commit.');
    expect(finishedText('task.push', { branch: 'agent/T-1', remote: 'origin' })).toBe('Pushed agent/T-1 to origin.');
    expect(finishedText('task.pr', { url: 'https://x/pull/7' })).toBe('Pull request opened: https://x/pull/7');
  });
});
