import { describe, expect, it } from 'vitest';
import { groupTasks, heldDone } from './inbox';
import { task } from './testing/fixtures';

const approval = { digest: `sha256:${'a'.repeat(64)}`, worktree: '/w', files: 2, ts: 't' };
const vote = (dimension: string, v: string) => ({ dimension, vote: v, reason: '' });
const fail = { task: 'x', verdict: 'FAIL' as const, ts: 't', votes: [vote('acceptance-criteria', 'FAIL'), vote('code-quality', 'PASS'), vote('style', 'ABSTAIN')] as never };
const noVote = { task: 'x', verdict: 'FAIL' as const, ts: 't', votes: [vote('acceptance-criteria', 'ABSTAIN'), vote('code-quality', 'ABSTAIN'), vote('style', 'ABSTAIN')] as never };

describe('inbox grouping', () => {
  it('APP-12: each task lands in exactly one group, the one needing a person first; filter by repo and search by id', () => {
    const tasks = {
      'demo-0123abcd': {
        a: task('a', { state: 'claimed', pendingApproval: approval }),
        b: task('b', { state: 'claimed', verdict: fail }),
        c: task('c', { state: 'claimed', lastEventTs: '2026-01-02' }),
        d: task('d', { state: 'claimed', lastEventTs: '2026-01-03' }),
        e: task('e'),
        f: task('f', { state: 'done', verdict: fail }),
      },
      'other-89abcdef': { g: task('g', { repo: 'other-89abcdef' }) },
    };
    const ids = (groups: ReturnType<typeof groupTasks>) => Object.fromEntries(groups.map((g) => [g.key, g.tasks.map((t) => t.id)]));
    expect(ids(groupTasks(tasks))).toEqual({ approval: ['a'], 'council-failed': ['b'], 'needs-you': [], 'in-progress': ['d', 'c'], inbox: ['e', 'g'], done: ['f'] });
    expect(ids(groupTasks(tasks, { repo: 'other-89abcdef' })).inbox).toEqual(['g']);
    expect(ids(groupTasks(tasks, { query: 'C' }))['in-progress']).toEqual(['c']);
  });

  it('TSTATE-7: the group follows the stage of life: a failed run and a commit to merge wait for the person, a merged task is done', () => {
    const commit = { hash: 'h', subject: 's', branch: 'agent/x', verified: true, ts: 't' };
    const merged = { base: 'main', commit: 'm', mode: 'merge' as const, ts: 't' };
    const tasks = {
      'demo-0123abcd': {
        failedRun: task('failedRun', { state: 'claimed', result: 'failed', life: { stage: 'failed' } }),
        failedDone: task('failedDone', { state: 'done', result: 'fail', life: { stage: 'failed' } }),
        committed: task('committed', { state: 'claimed', life: { stage: 'committed', commit } }),
        doneUnmerged: task('doneUnmerged', { state: 'done', result: 'pass', life: { stage: 'done', commit } }),
        mergedClaimed: task('mergedClaimed', { state: 'claimed', life: { stage: 'merged', commit, merged } }),
        approved: task('approved', { state: 'claimed', life: { stage: 'approved', digest: 'd' } }),
        doneNoCommit: task('doneNoCommit', { state: 'done', result: 'pass', life: { stage: 'done' } }),
      },
    };
    const group = (key: string) => groupTasks(tasks).find((g) => g.key === key)!.tasks.map((t) => t.id).sort();
    expect(group('needs-you')).toEqual(['committed', 'doneUnmerged', 'failedDone', 'failedRun']);
    expect(group('in-progress')).toEqual(['approved']);
    expect(group('done')).toEqual(['doneNoCommit', 'mergedClaimed']);
  });

  it('UX-14: a FAIL no reviewer voted on is not "council failed": the task stays where its state puts it', () => {
    const tasks = { 'demo-0123abcd': { h: task('h', { state: 'claimed', verdict: noVote }) } };
    expect(groupTasks(tasks).find((g) => g.key === 'in-progress')!.tasks.map((t) => t.id)).toEqual(['h']);
  });

  it('PAGE-3: the next page of done tasks starts after the oldest done task held, in the Done group\'s order, whatever a search shows', () => {
    const byId = {
      x: task('x', { state: 'done', lastEventTs: '2026-01-03' }),
      y: task('y', { state: 'done', lastEventTs: '2026-01-01' }),
      z: task('z', { state: 'done', lastEventTs: '2026-01-01' }),
      w: task('w', { state: 'done', lastEventTs: '2026-01-02' }),
      a: task('a', { state: 'claimed', lastEventTs: '2025-12-01' }),
    };
    // Same time: the group orders by id, so z comes after y and is the oldest.
    expect(groupTasks({ r: byId }).find((g) => g.key === 'done')!.tasks.map((t) => t.id)).toEqual(['x', 'w', 'y', 'z']);
    expect(heldDone(byId)).toEqual({ count: 4, oldest: byId.z });
    expect(heldDone(undefined)).toEqual({ count: 0, oldest: undefined });
  });
});

