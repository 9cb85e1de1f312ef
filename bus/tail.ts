// Byte-range reads of `events.jsonl` for followers (the relay's tailer): the log's
// identity, a bounded range of complete lines, and a line-boundary check — all synchronous.
// Ranges are read in LOG_READ_CHUNK_BYTES pieces; a line over MAX_LOG_LINE_BYTES is
// skipped without ever being held whole, and string fields are cut to what a
// follower shows (LIMIT-1, LIMIT-2).
import * as fs from 'node:fs';
import { errnoOf, ioError } from './errors';
import { LOG_READ_CHUNK_BYTES, MAX_LOG_LINE_BYTES, SHOWN_FIELD_BYTES } from '../protocol/limits';
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
    if (nl - start > MAX_LOG_LINE_BYTES) {
      skipped.push({ offset: base + start, reason: overLimit(nl - start) });
      start = nl + 1;
      continue;
    }
    const text = lineAt(start, nl).trim();
    if (text.length > 0) {
      const event = parseLine(text);
      if (typeof event === 'string') skipped.push({ offset: base + start, reason: event });
      else events.push({ event: capFields(event), start: base + start, end: base + nl + 1 });
    }
    start = nl + 1;
  }
  return { events, next: base + start, skipped };
}

function overLimit(bytes: number): string {
  return `line of ${bytes} bytes is over the ${MAX_LOG_LINE_BYTES}-byte limit`;
}

/** Cuts `text` to at most `max` UTF-8 bytes without splitting a character. */
export function cutUtf8(text: string, max: number): string {
  if (text.length * 3 <= max || Buffer.byteLength(text) <= max) return text;
  const bytes = Buffer.from(text.slice(0, max));
  let end = max;
  while (end > 0 && (bytes[end]! & 0xc0) === 0x80) end -= 1; // back off a continuation byte
  return bytes.toString('utf8', 0, end);
}

/**
 * LIMIT-2: top-level string fields over SHOWN_FIELD_BYTES are cut, and
 * `truncated` maps each cut field to its full size in bytes (the rest is on demand).
 */
function capFields(event: AnyBusEvent): AnyBusEvent {
  let truncated: Record<string, number> | undefined;
  for (const [key, value] of Object.entries(event)) {
    if (typeof value !== 'string' || value.length * 3 <= SHOWN_FIELD_BYTES) continue;
    const bytes = Buffer.byteLength(value);
    if (bytes <= SHOWN_FIELD_BYTES) continue;
    (event as Record<string, unknown>)[key] = cutUtf8(value, SHOWN_FIELD_BYTES);
    (truncated ??= {})[key] = bytes;
  }
  if (truncated) (event as Record<string, unknown>).truncated = truncated;
  return event;
}

/** The whole of one line [start, end) (at most MAX_LOG_LINE_BYTES), no field cut: for `task.note`. */
export function readWholeEvent(file: string, start: number, end: number): AnyBusEvent | undefined {
  if (end - start - 1 > MAX_LOG_LINE_BYTES || end <= start) return undefined;
  const fd = openLog(file);
  try {
    const data = readRange(fd, start, end);
    if (data.length !== end - start || data[data.length - 1] !== 0x0a) return undefined;
    const event = parseLine(data.toString('utf8', 0, data.length - 1).trim());
    return typeof event === 'string' ? undefined : event;
  } finally {
    fs.closeSync(fd);
  }
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

/**
 * Parses the complete lines in bytes [from, to) of the log, one chunk at a time; a
 * torn last line is left unread (`next` stays at its start). A line longer than
 * MAX_LOG_LINE_BYTES is skipped as soon as its newline is found, never buffered past the limit.
 */
export function readEventRange(file: string, from: number, to: number, chunkBytes = LOG_READ_CHUNK_BYTES): PlacedBatch {
  const events: PlacedEvent[] = [];
  const { next, skipped } = scanEventRange(file, from, to, (batch) => { events.push(...batch); }, chunkBytes);
  return { events, next, skipped };
}

/**
 * readEventRange without holding the range's events: each chunk's are handed to `onEvents`
 * as they are parsed (in order), so a log of any size is folded in memory bounded by a chunk
 * and one line (the index's fold, INDEX-6). The result's `events` is empty.
 */
export function scanEventRange(file: string, from: number, to: number, onEvents: (events: PlacedEvent[]) => void, chunkBytes = LOG_READ_CHUNK_BYTES): PlacedBatch {
  if (to <= from) return { events: [], next: from, skipped: [] };
  const fd = openLog(file);
  const out: PlacedBatch = { events: [], next: from, skipped: [] };
  // The line being carried across chunks: where it starts, its bytes so far (dropped once over the limit).
  let carry: Buffer[] = [];
  let carried = 0;
  try {
    for (let pos = from; pos < to; ) {
      const chunk = readRange(fd, pos, Math.min(to, pos + chunkBytes));
      if (chunk.length === 0) break;
      let body = 0;
      if (carried > 0) {
        const nl = chunk.indexOf(0x0a);
        if (nl === -1) {
          carried += chunk.length;
          if (carried <= MAX_LOG_LINE_BYTES) carry.push(chunk);
          else carry = [];
          pos += chunk.length;
          continue;
        }
        const length = carried + nl;
        if (length > MAX_LOG_LINE_BYTES) out.skipped.push({ offset: out.next, reason: overLimit(length) });
        else {
          const line = parsePlacedLines(Buffer.concat([...carry, chunk.subarray(0, nl + 1)]), out.next);
          if (line.events.length > 0) onEvents(line.events);
          out.skipped.push(...line.skipped);
        }
        carry = [];
        carried = 0;
        body = nl + 1;
        out.next = pos + body;
      }
      const last = chunk.lastIndexOf(0x0a);
      if (last >= body) {
        const batch = parsePlacedLines(chunk.subarray(body, last + 1), pos + body);
        if (batch.events.length > 0) onEvents(batch.events);
        out.skipped.push(...batch.skipped);
        out.next = pos + last + 1;
      }
      const tail = chunk.subarray(Math.max(body, last + 1));
      if (tail.length > 0) {
        carried = tail.length;
        carry = carried <= MAX_LOG_LINE_BYTES ? [tail] : [];
      }
      pos += chunk.length;
    }
    return out;
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
    for (const [start, end] of ranges) {
      for (let at = start; at < end; ) {
        // Indexed lines are each under the limit; read a coalesced range a chunk of whole lines at a time.
        const data = readRange(fd, at, Math.min(end, at + LOG_READ_CHUNK_BYTES + MAX_LOG_LINE_BYTES));
        const stop = data.length === end - at ? data.length : data.lastIndexOf(0x0a, LOG_READ_CHUNK_BYTES) + 1;
        if (stop <= 0) break;
        out.push(...parsePlacedLines(data.subarray(0, stop), at).events);
        at += stop;
      }
    }
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
