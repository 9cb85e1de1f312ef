// `events.jsonl` (EVENTS-n): append-only, one JSON line per event written with a
// single write(2) on an O_APPEND descriptor; readers resume from a byte offset.
import * as fs from 'node:fs';
import { AnyBusEvent, BusEvent, type NewBusEvent } from '../protocol/bus/events';
import { BusError, errnoOf, ioError } from './errors';
import { issuesText } from './issues';
import { eventsPath } from './layout';

/** The exact line an event becomes: `ts` and `event` first, undefined fields left out. */
export function serializeEvent(event: NewBusEvent, now: Date = new Date()): string {
  const { event: name, ...fields } = event as { event: string } & Record<string, unknown>;
  const line: Record<string, unknown> = { ts: now.toISOString(), event: name };
  for (const [key, value] of Object.entries(fields)) if (value !== undefined && value !== null) line[key] = value;
  const checked = BusEvent.safeParse(line);
  if (!checked.success) throw new BusError('E_BAD_EVENT', `refusing to write a malformed ${name} event: ${issuesText(checked.error)}`);
  return JSON.stringify(line) + '\n';
}

const NEWLINE = Buffer.from('\n');

/**
 * A log whose last byte is not a newline ends in a torn line (a crashed writer);
 * starting on a fresh line keeps our event from being glued to that junk.
 */
function endsTorn(fd: number): boolean {
  const size = fs.fstatSync(fd).size;
  if (size === 0) return false;
  const last = Buffer.alloc(1);
  fs.readSync(fd, last, 0, 1, size - 1);
  return last[0] !== 0x0a;
}

/** Appends one event to `<bus>/events.jsonl` and returns the line written. */
export function appendEvent(bus: string, event: NewBusEvent, now?: Date): string {
  const line = serializeEvent(event, now);
  const file = eventsPath(bus);
  const bytes = Buffer.from(line, 'utf8');
  let fd: number;
  try {
    // Never through a symlink: a repo can track `.agents/events.jsonl -> ~/.bashrc` (EVENTS-1).
    fd = fs.openSync(file, fs.constants.O_RDWR | fs.constants.O_APPEND | fs.constants.O_CREAT | fs.constants.O_NOFOLLOW, 0o644);
  } catch (error) {
    if (errnoOf(error) === 'ELOOP') throw new BusError('E_IO', `cannot append to ${file}: it is a symlink; the bus log must be a regular file (remove the link)`, { cause: error });
    throw ioError('append to', file, error);
  }
  try {
    const out = endsTorn(fd) ? Buffer.concat([NEWLINE, bytes]) : bytes;
    const written = fs.writeSync(fd, out, 0, out.length);
    if (written !== out.length) throw new BusError('E_SHORT_WRITE', `only ${written} of ${out.length} bytes reached ${file}`);
  } catch (error) {
    if (error instanceof BusError) throw error;
    throw ioError('append to', file, error);
  } finally {
    fs.closeSync(fd);
  }
  return line;
}

export interface SkippedLine {
  /** Byte offset where the skipped line starts. */
  offset: number;
  reason: string;
}

export interface EventBatch {
  events: AnyBusEvent[];
  /** Byte offset just past the last complete line read; resume here. */
  next: number;
  skipped: SkippedLine[];
}

/**
 * Parses complete lines of `data` (bytes of the log starting at `base`). A last
 * line without its newline is torn or still being written: it is not consumed.
 */
export function parseEventLines(data: Buffer, base = 0): EventBatch {
  const events: AnyBusEvent[] = [];
  const skipped: SkippedLine[] = [];
  let start = 0;
  for (let end = data.indexOf(0x0a, start); end !== -1; end = data.indexOf(0x0a, start)) {
    const text = data.toString('utf8', start, end).trim();
    if (text.length > 0) {
      const event = parseEventLine(text);
      if (typeof event === 'string') skipped.push({ offset: base + start, reason: event });
      else events.push(event);
    }
    start = end + 1;
  }
  return { events, next: base + start, skipped };
}

function parseEventLine(text: string): AnyBusEvent | string {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return 'not valid JSON';
  }
  const checked = AnyBusEvent.safeParse(value);
  return checked.success ? checked.data : 'not an event object with ts and event';
}

/** Reads events from byte `offset` on; a missing log reads as empty. */
export function readEvents(bus: string, offset = 0): EventBatch {
  const file = eventsPath(bus);
  let data: Buffer;
  try {
    data = readFrom(file, offset);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return { events: [], next: offset, skipped: [] };
    throw ioError('read', file, error);
  }
  return parseEventLines(data, offset);
}

function readFrom(file: string, offset: number): Buffer {
  // The bus is the agent's to write: a FIFO in the log's place is never opened to wait for a
  // writer (that would stop the relay, ANNOT-7's kin), checked before the open and after it.
  if (!fs.statSync(file).isFile()) throw new BusError('E_IO', `${file} is not a regular file`);
  const fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) throw new BusError('E_IO', `${file} is not a regular file`);
    const size = stat.size;
    const length = Math.max(0, size - offset);
    const buffer = Buffer.alloc(length);
    let got = 0;
    while (got < length) {
      const n = fs.readSync(fd, buffer, got, length - got, offset + got);
      if (n === 0) break;
      got += n;
    }
    return buffer.subarray(0, got);
  } finally {
    fs.closeSync(fd);
  }
}

/** One warning sentence per skipped line, for entry points to print. */
export function skippedWarnings(file: string, skipped: SkippedLine[]): string[] {
  return skipped.map((s) => `warning: skipped line at byte ${s.offset} of ${file}: ${s.reason}`);
}
