// Byte-exact placement of log lines for followers (WATCH-3, WATCH-4, CURSOR-1).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AnyBusEvent } from '../protocol/bus/events';
import { isLineBoundary, logIdentity, parsePlacedLines, readEventRange } from './tail';

const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true }); });

const line = (note: string): string => JSON.stringify({ ts: '2026-01-01T00:00:00.000Z', event: 'task_progress', task: 'T', note }) + '\n';

describe('tail', () => {
  it('CURSOR-1: each event carries the byte offset after its line, also with multi-byte text', () => {
    const text = line('plain') + line('crème brûlée ✓ 🎉') + line('after');
    const data = Buffer.from(text);
    const batch = parsePlacedLines(data, 100);
    expect(batch.events.map((e) => e.event.note)).toEqual(['plain', 'crème brûlée ✓ 🎉', 'after']);
    let offset = 100;
    for (const e of batch.events) {
      expect(e.start).toBe(offset);
      offset += Buffer.byteLength(line(String(e.event.note)));
      expect(e.end).toBe(offset);
    }
    expect(batch.next).toBe(100 + data.length);
  });

  it('WATCH-3: a last line without its newline is not consumed', () => {
    const data = Buffer.from(line('whole') + line('torn').slice(0, 20));
    const batch = parsePlacedLines(data, 0);
    expect(batch.events).toHaveLength(1);
    expect(batch.next).toBe(Buffer.byteLength(line('whole')));
  });

  it('WATCH-4: junk, arrays and objects without ts/event are skipped exactly like AnyBusEvent rejects them; blank lines are ignored', () => {
    const samples = ['not json', '[1,2]', '{"ts":1,"event":"x"}', '{"event":"x"}', 'null', '{"ts":"t","event":"x","extra":{"a":1}}'];
    const batch = parsePlacedLines(Buffer.from(samples.join('\n') + '\n\n'), 0);
    const accepted = samples.filter((s) => { try { return AnyBusEvent.safeParse(JSON.parse(s)).success; } catch { return false; } });
    expect(batch.events.map((e) => JSON.stringify(e.event))).toEqual(accepted.map((s) => JSON.stringify(JSON.parse(s))));
    expect(batch.skipped).toHaveLength(samples.length - accepted.length);
  });

  it('CURSOR-2: line boundaries, ranges and the log identity are read from the file', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tail-'));
    dirs.push(dir);
    const file = path.join(dir, 'events.jsonl');
    expect(logIdentity(file)).toBeUndefined();
    fs.writeFileSync(file, line('a') + line('b'));
    const first = Buffer.byteLength(line('a'));
    expect(isLineBoundary(file, 0)).toBe(true);
    expect(isLineBoundary(file, first)).toBe(true);
    expect(isLineBoundary(file, first - 1)).toBe(false);
    expect(readEventRange(file, first, 10_000).events.map((e) => e.event.note)).toEqual(['b']);
    const id = logIdentity(file)!;
    expect(id.size).toBe(2 * first);
    expect(id.epoch).toMatch(/^\d+:\d+$/);
  });

  it('LIMIT-1: reading in small chunks places every line exactly as one whole read, a torn tail left unread', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tail-'));
    dirs.push(dir);
    const file = path.join(dir, 'events.jsonl');
    const text = line('a') + line('crème ✓ 🎉'.repeat(5)) + '\n' + 'junk\n' + line('b'.repeat(200)) + line('c') + '{"ts":"torn';
    fs.writeFileSync(file, text);
    const whole = parsePlacedLines(Buffer.from(text), 0);
    for (const chunk of [1, 7, 64, 100, 1000]) {
      const batch = readEventRange(file, 0, Buffer.byteLength(text), chunk);
      expect(batch.events, `chunk ${chunk}`).toEqual(whole.events);
      expect(batch.skipped, `chunk ${chunk}`).toEqual(whole.skipped);
      expect(batch.next, `chunk ${chunk}`).toBe(whole.next);
    }
    expect(whole.next).toBe(Buffer.byteLength(text) - '{"ts":"torn'.length);
  });
});
