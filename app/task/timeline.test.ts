// The task timeline merge (REVIEW-8).
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../protocol/live-events';
import { busItems, mergeTimeline } from './timeline';

const cursor = (offset: number) => ({ offset, epoch: '1:2' });
const claimed = { cursor: cursor(10), event: { ts: '2026-01-01T00:00:01Z', event: 'task_claimed', task: 'T1', agent: 'a', machine: 'm' } };
const progress = { cursor: cursor(20), event: { ts: '2026-01-01T00:00:03Z', event: 'task_progress', task: 'T1', note: 'half way' } };
const other = { cursor: cursor(30), event: { ts: '2026-01-01T00:00:04Z', event: 'task_progress', task: 'T2', note: 'not mine' } };
const live = (summary: string, at: string, extra: Partial<LiveEvent> = {}) => ({ at, event: { v: 1 as const, session: 's1', kind: 'command' as const, summary, task: 'T1', ...extra } });

describe('mergeTimeline', () => {
  it('REVIEW-8: bus events from the read and the store once each, only this task, with live events in time order', () => {
    const { items } = mergeTimeline(busItems([claimed]), [claimed, progress, other], { s1: [live('ran tests', '2026-01-01T00:00:02Z')] }, 'T1');
    expect(items.map((i) => (i.kind === 'bus' ? i.event.event : i.event.summary))).toEqual(['task_claimed', 'ran tests', 'task_progress']);
  });

  it('REVIEW-8: the newest running live event of the task is the live line, not a timeline row', () => {
    const running = live('npm test', '2026-01-01T00:00:05Z', { running: true });
    const result = mergeTimeline([], [], { s1: [live('edit a.ts', '2026-01-01T00:00:04Z'), running], s2: [{ ...live('other task', '2026-01-01T00:00:06Z', { running: true }), event: { ...running.event, session: 's2', task: 'T9' } }] }, 'T1');
    expect(result.running?.summary).toBe('npm test');
    expect(result.items.map((i) => (i.kind === 'live' ? i.event.summary : ''))).toEqual(['edit a.ts']);
    const finished = mergeTimeline([], [], { s1: [running, live('npm test passed', '2026-01-01T00:00:07Z', { ok: true })] }, 'T1');
    expect(finished.running).toBeNull();
  });
});
