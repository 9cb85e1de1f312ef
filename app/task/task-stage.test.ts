// The bar never offers Run agent while a job of the task runs (RUNREADY-5): the relay refuses a second.
import { describe, expect, it } from 'vitest';
import { barActions } from './task-stage';

describe('barActions', () => {
  it('RUNREADY-5: an inbox task offers Run agent, but not while its job runs; other stages are unchanged by a job', () => {
    expect(barActions('inbox')).toContain('run-agent');
    expect(barActions('inbox', undefined, { running: false })).toContain('run-agent');
    expect(barActions('inbox', undefined, { running: true })).toEqual(['annotate']);
    expect(barActions('approval', undefined, { running: true })).toEqual(barActions('approval'));
  });
});
