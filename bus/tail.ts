// Byte-range reads of `events.jsonl` for followers (the relay's tailer): the log's
// identity, a bounded range of complete lines, and a line-boundary check — all synchronous.
import * as fs from 'node:fs';
import { errnoOf, ioError } from './errors';
import type { AnyBusEvent } from '../protocol/bus/events';
import type { SkippedLine } from './event-log';

export interface LogIdentity {
  /** `${dev}:${ino}`: changes when the log is replaced. */
  epoch: string;
  size: number;
}

/** The log's identity and size, or undefined when it does not exist yet. */
export function logIdentity(file: string): LogIdentity | undefined {
  try {
    const stat = fs.statSync(file, { bigint: true });
    return { epoch: `${stat.dev}:${stat.ino}`, size: Number(stat.size) };
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw ioError('stat', file, error);
  }
}

/** Reads bytes [from, to) of an open file; fewer when the file is shorter. */
export function readRange(fd: number, from: number, to: number): Buffer {
  const length = Math.max(0, to - from);
  const buffer = Buffer.allocUnsafe(length);
  let got = 0;
  while (got < length) {
    const n = fs.readSync(fd, buffer, got, length - got, from + got);
    if (n === 0) break;
    got += n;
  }
  return buffer.subarray(0, got);
}

/** One event line and where it sits: `end` is the offset just past its newline (its cursor). */
export interface PlacedEvent {
  event: AnyBusEvent;
  start: number;
  end: number;
}

export interface PlacedBatch {
  events: PlacedEvent[];
  /** Offset just past the last complete line; a torn tail starts here. */
  next: number;
  skipped: SkippedLine[];
}

/** Parses the complete lines of `data` (log bytes starting at `base`), keeping each line's place. */
export function parsePlacedLines(data: Buffer, base: number): PlacedBatch {
  const text = data.toString('utf8');
  // All ASCII (the usual case): string positions are byte positions, so one decode serves every line.
  if (text.length === data.length) return placeLines(base, (from) => text.indexOf('\n', from), (start, end) => text.slice(start, end));
  return placeLines(base, (from) => data.indexOf(0x0a, from), (start, end) => data.toString('utf8', start, end));
}

type NextNewline = (from: number) => number;
type LineAt = (start: number, end: number) => string;

function placeLines(base: number, nextNewline: NextNewline, lineAt: LineAt): PlacedBatch {
  const events: PlacedEvent[] = [];
  const skipped: SkippedLine[] = [];
  let start = 0;
  for (let nl = nextNewline(start); nl !== -1; nl = nextNewline(start)) {
    const text = lineAt(start, nl).trim();
    if (text.length > 0) {
      const event = parseLine(text);
      if (typeof event === 'string') skipped.push({ offset: base + start, reason: event });
      else events.push({ event, start: base + start, end: base + nl + 1 });
    }
    start = nl + 1;
  }
  return { events, next: base + start, skipped };
}

function parseLine(text: string): AnyBusEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  return isEventObject(value) ? value : 'not an event object with ts and event';
}

/**
 * The check `AnyBusEvent` makes (an object with string `ts` and `event`, other
 * keys kept), written out because a relay start reads 100,000 lines through it.
 */
function isEventObject(value: unknown): value is AnyBusEvent {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return false;
  const v = value as Record<string, unknown>;
  return typeof v.ts === 'string' && typeof v.event === 'string';
}

/** Parses the complete lines in bytes [from, to) of the log; a torn last line is left unread. */
export function readEventRange(file: string, from: number, to: number): PlacedBatch {
  if (to <= from) return { events: [], next: from, skipped: [] };
  const fd = openLog(file);
  try {
    return parsePlacedLines(readRange(fd, from, to), from);
  } finally {
    fs.closeSync(fd);
  }
}

/** Reads several [start, end) line ranges with one open (a task's timeline). */
export function readEventLines(file: string, ranges: ReadonlyArray<readonly [number, number]>): PlacedEvent[] {
  if (ranges.length === 0) return [];
  const fd = openLog(file);
  try {
    const out: PlacedEvent[] = [];
    for (const [start, end] of ranges) out.push(...parsePlacedLines(readRange(fd, start, end), start).events);
    return out;
  } finally {
    fs.closeSync(fd);
  }
}

/** True when `offset` is 0 or the byte before it is a newline (a cursor may only sit there). */
export function isLineBoundary(file: string, offset: number): boolean {
  if (offset === 0) return true;
  const fd = openLog(file);
  try {
    const byte = readRange(fd, offset - 1, offset);
    return byte.length === 1 && byte[0] === 0x0a;
  } finally {
    fs.closeSync(fd);
  }
}

function openLog(file: string): number {
  try {
    return fs.openSync(file, 'r');
  } catch (error) {
    throw ioError('open', file, error);
  }
}
