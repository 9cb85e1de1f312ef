// SUITE-7: the browser suite records no trace unless asked (COMMANDR_TEST_TRACE=1), and a failure
// still leaves a screenshot.
import { describe, expect, it } from 'vitest';
import config from '../playwright.config';
import { traceMode } from '../e2e/browsers';

describe('SUITE-7: traces only when asked for', () => {
  it('SUITE-7: no trace by default, a failed test\'s trace with COMMANDR_TEST_TRACE=1, and anything else is refused naming the variable', () => {
    expect(traceMode({})).toBe('off');
    expect(traceMode({ COMMANDR_TEST_TRACE: '' })).toBe('off');
    expect(traceMode({ COMMANDR_TEST_TRACE: '0' })).toBe('off');
    expect(traceMode({ COMMANDR_TEST_TRACE: '1' })).toBe('retain-on-failure');
    expect(() => traceMode({ COMMANDR_TEST_TRACE: 'yes' })).toThrow(/COMMANDR_TEST_TRACE must be 1 .* not "yes"/);
  });

  it('SUITE-7: the config records what traceMode says for this run, no project records more, and a failure leaves a screenshot', () => {
    expect(config.use?.trace).toBe(traceMode(process.env));
    for (const project of config.projects ?? []) expect(project.use?.trace, project.name).toBeUndefined();
    expect(config.use?.screenshot).toBe('only-on-failure');
  });
});
