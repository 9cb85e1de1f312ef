import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { appendEvent, parseEventLines, readEvents, serializeEvent } from './event-log';

let dir: string | undefined;
afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

describe('event log', () => {
  it('EVENTS-1: serializeEvent puts ts and event first and leaves undefined fields out', () => {
    const line = serializeEvent({ event: 'task_progress', task: 'T', note: 'n', agent: undefined }, new Date(0));
    expect(line).toBe('{"ts":"1970-01-01T00:00:00.000Z","event":"task_progress","task":"T","note":"n"}\n');
  });

  it('EVENTS-4: writers emit only defined, well-formed events', () => {
    expect(() => serializeEvent({ event: 'made_up' } as never)).toThrow(expect.objectContaining({ code: 'E_BAD_EVENT' }));
    expect(() => serializeEvent({ event: 'task_complete', task: 'T', result: 'maybe' } as never)).toThrow(/result/);
    expect(() => serializeEvent({ event: 'task_progress', task: '../x', note: 'n' })).toThrow(/task/);
  });

  it('EVENTS-3: readers skip blank and junk lines with a reason, keep unknown events, and leave a torn tail unconsumed', () => {
    const text = '{"ts":"a","event":"x"}\n\nnot json\n{"no":"event"}\n{"ts":"b","event":"task_progress","extra":1}\n{"ts":"c","ev';
    const batch = parseEventLines(Buffer.from(text), 100);
    expect(batch.events.map((e) => e.ts)).toEqual(['a', 'b']);
    expect(batch.skipped.map((s) => s.offset)).toEqual([100 + 24, 100 + 33]);
    expect(batch.next).toBe(100 + text.lastIndexOf('\n') + 1);
  });

  it('EVENTS-3: readEvents resumes from a byte offset without gap or duplicate', () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'events-'));
    appendEvent(dir, { event: 'task_progress', task: 'T', note: 'one' });
    const first = readEvents(dir);
    appendEvent(dir, { event: 'task_progress', task: 'T', note: 'two' });
    const second = readEvents(dir, first.next);
    expect(first.events.map((e) => e.note)).toEqual(['one']);
    expect(second.events.map((e) => e.note)).toEqual(['two']);
    expect(readEvents(path.join(dir, 'missing'))).toEqual({ events: [], next: 0, skipped: [] });
  });
});
