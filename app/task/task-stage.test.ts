// The bar never offers Run agent while a job of the task runs (RUNREADY-5): the relay refuses a second.
import { describe, expect, it } from 'vitest';
import { barActions, canRunAgent, waitingOn } from './task-stage';
import { task } from '../lib/testing/fixtures';

describe('barActions', () => {
  it('RUNREADY-5: an inbox task offers Run agent, but not while its job runs; other stages are unchanged by a job', () => {
    expect(barActions('inbox')).toContain('run-agent');
    expect(barActions('inbox', undefined, { running: false })).toContain('run-agent');
    expect(barActions('inbox', undefined, { running: true })).toEqual(['annotate']);
    expect(barActions('approval', undefined, { running: true })).toEqual(barActions('approval'));
  });
});

describe('canRunAgent', () => {
  it('TSTATE-8: Run agent only where starting an agent makes sense', () => {
    expect(canRunAgent('inbox', null)).toBe(true);
    expect(canRunAgent('failed', null)).toBe(true);
    expect(canRunAgent('failed', { status: 'failed' })).toBe(true);
    expect(canRunAgent('running', null)).toBe(false); // an agent outside the relay may be at work
    expect(canRunAgent('running', { status: 'done' })).toBe(true); // the run started from here ended
    for (const stage of ['approval', 'approved', 'committed', 'merged', 'done'] as const) expect(canRunAgent(stage, null)).toBe(false);
    expect(canRunAgent('inbox', { status: 'running' })).toBe(false);
  });

  it('TSTATE-8, TSTATE-4: a failed task runs again from the bar; a running one with nothing staged offers no council', () => {
    expect(barActions('failed')[0]).toBe('run-agent');
    expect(barActions('running')).not.toContain('run-council');
    expect(barActions('approval')).toContain('run-council');
  });
});

describe('remote actions', () => {
  it('FINISH-10: no Push or Open pull request when the branch has no remote; offered when it has one or the relay does not say', () => {
    const commit = { hash: 'h', subject: 's', branch: 'agent/x', verified: true, ts: 't' };
    expect(barActions('committed', { stage: 'committed', commit, remote: false })).toEqual(['merge', 'annotate', 'run-council']);
    expect(barActions('done', { stage: 'done', commit, remote: false })).toEqual(['merge']);
    expect(barActions('committed', { stage: 'committed', commit, remote: true })).toContain('push');
    expect(barActions('committed', { stage: 'committed', commit })).toContain('pr');
  });
});

describe('waitingOn', () => {
  it('JOB-7: an inbox task waits for the tasks of its blocked-by that are held and not done; the bar then offers no Run agent', () => {
    const tasks = { A: task('A', { state: 'claimed' }), B: task('B', { state: 'done' }) };
    expect(waitingOn(task('C', { blockedBy: ['A', 'B', 'OLD'] }), tasks)).toEqual(['A']); // OLD: not held, the relay judges
    expect(waitingOn(task('C', { blockedBy: ['B'] }), tasks)).toEqual([]);
    expect(waitingOn(task('C', { state: 'claimed', blockedBy: ['A'] }), tasks)).toEqual([]); // claimed already: no longer waits
    expect(barActions('inbox', undefined, { blocked: true })).toEqual(['annotate']);
    expect(canRunAgent('inbox', null, true)).toBe(false);
  });
});
