import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../protocol/live-events';
import { unsandboxedSessions } from './sandbox-state';

const ev = (session: string, at: string, fields: Partial<LiveEvent>) => ({ at, event: { v: 1 as const, session, kind: 'command' as const, summary: 'x', task: 'T-1', ...fields } });

describe('unsandboxedSessions', () => {
  it('SBXDEF-8: a task\'s session counts as unsandboxed by its newest event that says; other tasks and silent events do not count', () => {
    const live = {
      a: [ev('a', '2026-01-01T00:00:01Z', { sandbox: 'on' }), ev('a', '2026-01-01T00:00:02Z', { sandbox: 'off' }), ev('a', '2026-01-01T00:00:03Z', {})],
      b: [ev('b', '2026-01-01T00:00:01Z', { sandbox: 'off' }), ev('b', '2026-01-01T00:00:02Z', { sandbox: 'on' })],
      c: [ev('c', '2026-01-01T00:00:01Z', { sandbox: 'off', task: 'T-2' })],
      d: [ev('d', '2026-01-01T00:00:01Z', {})],
    };
    expect(unsandboxedSessions(live, 'T-1')).toEqual(['a']);
    expect(unsandboxedSessions(live, 'T-2')).toEqual(['c']);
    expect(unsandboxedSessions(live, 'T-3')).toEqual([]);
  });
});
