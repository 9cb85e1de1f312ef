// The task timeline merge (REVIEW-8).
import { describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../protocol/live-events';
import { busItems, cutFields, mergeTimeline, sizeLabel } from './timeline';

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

describe('cut notes', () => {
  const cut = { ts: '2026-01-01T00:00:03Z', event: 'task_progress', task: 'T1', note: 'x'.repeat(2048), truncated: { note: 307_200 } };

  it('NOTEUI-1: a bus item keeps its cursor (the `task.note` read names it) and a cut field is found with its whole size', () => {
    const [item] = busItems([{ cursor: cursor(99), event: cut }]);
    expect(item?.kind === 'bus' ? item.cursor : null).toEqual(cursor(99));
    expect(cutFields(cut)).toEqual([{ field: 'note', bytes: 307_200 }]);
    expect(sizeLabel(307_200)).toBe('300 KB');
    expect(sizeLabel(2100)).toBe('2 KB');
    expect(sizeLabel(10)).toBe('1 KB');
    expect(sizeLabel(1024 * 1024 + 1)).toBe('1.0 MB');
  });

  it('NOTEUI-1: an event that was not cut, or a malformed `truncated` map, offers no "Show all"', () => {
    expect(cutFields(progress.event)).toEqual([]);
    for (const truncated of [null, 'note', ['note'], { note: 'big' }, { note: -1 }, { note: Number.NaN }, { reason: 5000 }]) {
      expect(cutFields({ ...cut, truncated } as never)).toEqual([]);
    }
  });
});
