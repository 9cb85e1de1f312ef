// What the task screen offers and says per stage (TSTATE-4): the pure part, app/task/task-stage.ts.
import { describe, expect, it } from 'vitest';
import { barActions, changesLine, lifeKey, stageOf } from '../../app/task/task-stage';
import type { TaskSummary } from '../../protocol/wire/views';
import type { DiffResult } from '../../app/task/use-task';

const diff = (over: Partial<DiffResult>): DiffResult => ({ patch: '', files: [], digest: null, source: 'none', commit: null, arrivedAt: 0, ...over });
const digest = `sha256:${'a'.repeat(64)}`;

describe('task stage on the screen', () => {
  it('TSTATE-4: the bar offers Approve and Deny only while a change can be approved; Run agent leads an inbox task; a done task offers nothing', () => {
    expect(barActions('inbox')).toEqual(['run-agent', 'annotate']);
    for (const stage of ['approval', 'approved'] as const) expect(barActions(stage)).toEqual(['approve', 'deny', 'annotate', 'run-council']);
    expect(barActions('running')).toEqual(['approve', 'deny', 'annotate']); // nothing staged: nothing for a council to review
    expect(barActions('committed')).not.toContain('approve');
    expect(barActions('committed')).not.toContain('deny');
    expect(barActions('done')).toEqual([]);
    expect(barActions('failed')).not.toContain('approve');
  });

  it('TSTATE-2: the line above the diff names the change for the stage: staged, approved and waiting, or committed with its commit', () => {
    expect(changesLine(diff({ source: 'approval', digest }), { stage: 'approval', digest }).text).toBe(`Staged change to approve · ${digest.slice(7, 19)}`);
    expect(changesLine(diff({ source: 'approval', digest }), { stage: 'approved', digest }).text).toMatch(/^Approved change, waiting for the agent’s commit/);
    const commit = { hash: 'b'.repeat(40), subject: 'add it', branch: 'agent/T-1', verified: false, ts: 'x' };
    const line = changesLine(diff({ source: 'commit', commit: { tip: commit.hash, base: 'c'.repeat(40), branch: 'agent/T-1' } }), { stage: 'done', commit });
    expect(line).toEqual({ testId: 'diff-committed', text: `Committed ${'b'.repeat(10)} on agent/T-1: add it · made without your approval` });
    expect(lifeKey({ stage: 'committed', commit })).not.toBe(lifeKey({ stage: 'done', commit }));
    const old = { state: 'claimed', pendingApproval: null, result: null } as unknown as TaskSummary;
    expect(stageOf(old)).toBe('running'); // a relay without stages
  });
});
