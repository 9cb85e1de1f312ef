// Annotations (ANNOT-n): notes a person leaves for an agent's next turn. Files are
// created exclusively, never overwritten; only `consumed` ever changes afterwards.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ANNOTATION_FILE_PATTERN, Anchor, Annotation } from '../protocol/bus/annotation';
import { BusError, errnoOf, ioError } from './errors';
import { appendEvent } from './event-log';
import { createFileExclusive, writeFileAtomic } from './fs-atomic';
import { ensureBusDir, assertInsideBus } from './inside';
import { issuesText } from './issues';
import { annotationsDir, assertBus, assertTaskId } from './layout';
import { readPlainText } from './plain-file';

/** A note is a sentence or a page; past this it is not read. */
const ANNOTATION_MAX_BYTES = 1024 * 1024;

/** The highest sequence number of a turn (four digits in the file name). */
export const MAX_SEQ = 9999;

export interface NewAnnotation {
  task: string;
  turn: number;
  anchor?: string;
  author?: string;
  body?: string;
}

export interface WrittenAnnotation {
  path: string;
  seq: number;
}

export const annotationFileName = (turn: number, seq: number): string =>
  `${String(turn).padStart(4, '0')}-${String(seq).padStart(4, '0')}.json`;

/** Validates, creates `annotations/<task>/<turn>-<seq>.json` with the next free seq, then logs it. */
export function writeAnnotation(bus: string, input: NewAnnotation, now = new Date()): WrittenAnnotation {
  assertTaskId(input.task);
  const anchor = input.anchor ?? 'general';
  if (!Anchor.safeParse(anchor).success) throw new BusError('E_BAD_ARGS', `anchor ${JSON.stringify(anchor)} must be general, card:<path> or line:<path>:<n>`);
  const note = Annotation.safeParse({
    task: input.task, turn: input.turn, anchor, ts: now.toISOString(), author: input.author ?? 'human', body: input.body ?? '', consumed: false,
  });
  if (!note.success) throw new BusError('E_BAD_ARGS', `annotation: ${issuesText(note.error)}`);
  assertBus(bus);
  const dir = annotationsDir(bus, input.task);
  // `annotations/` and `annotations/<task>` may be symlinks a cloned repo tracks: each level must
  // resolve inside the bus before anything is created in it (ID-SAFE-4).
  ensureBusDir(bus, dir);
  const text = JSON.stringify(note.data, null, 2) + '\n';
  // Exclusive creates: a writer that loses a seq to another looks again for the highest one used
  // and goes past it, so any number of concurrent writers each get a file; the seq only rises,
  // so the loop ends, at the latest when the turn's 10,000 numbers (0000 to 9999) are all taken (ANNOT-4).
  for (let seq = nextSeq(dir, input.turn); seq <= MAX_SEQ; seq = Math.max(seq + 1, nextSeq(dir, input.turn))) {
    const file = path.join(dir, annotationFileName(input.turn, seq));
    try {
      createFileExclusive(file, text);
    } catch (error) {
      if (error instanceof BusError && error.code === 'E_EXISTS') continue;
      throw error;
    }
    appendEvent(bus, { event: 'task_annotation', task: input.task, turn: input.turn, anchor, author: note.data.author, seq });
    return { path: file, seq };
  }
  throw new BusError('E_SEQ_EXHAUSTED', `no free annotation sequence number for turn ${input.turn} in ${dir}: all ${MAX_SEQ + 1} (0000 to ${MAX_SEQ}) are taken`);
}

/** One past the highest seq already used for `turn`; 0 when there is none. */
function nextSeq(dir: string, turn: number): number {
  let next = 0;
  for (const name of fs.readdirSync(dir)) {
    const match = ANNOTATION_FILE_PATTERN.exec(name);
    if (match && Number(match[1]) === turn) next = Math.max(next, Number(match[2]) + 1);
  }
  return next;
}

export interface StoredAnnotation {
  file: string;
  note: Annotation;
}

/** The task's annotations in ascending file order; unreadable files are reported, not fatal. */
export function listAnnotations(bus: string, task: string, warn: (m: string) => void = () => {}): StoredAnnotation[] {
  const dir = annotationsDir(bus, task);
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return [];
    throw ioError('list', dir, error);
  }
  const out: StoredAnnotation[] = [];
  for (const name of names.filter((n) => ANNOTATION_FILE_PATTERN.test(n)).sort()) {
    const file = path.join(dir, name);
    const note = readAnnotation(file);
    if (typeof note === 'string') warn(`warning: skipped ${file}: ${note}`);
    else out.push({ file, note });
  }
  return out;
}

function readAnnotation(file: string): Annotation | string {
  // The bus is the agent's to write: a FIFO named like a note would block the relay's read (ANNOT-7).
  const text = readPlainText(file, ANNOTATION_MAX_BYTES);
  if (text === undefined) return 'not a regular file of at most 1 MiB';
  try {
    const checked = Annotation.safeParse(JSON.parse(text));
    return checked.success ? checked.data : issuesText(checked.error);
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** Sets `consumed: true` (the only field that ever changes) with an atomic replace. */
export function markConsumed(bus: string, task: string, file: string): void {
  const dir = annotationsDir(bus, task);
  if (path.dirname(path.resolve(file)) !== dir || !ANNOTATION_FILE_PATTERN.test(path.basename(file))) {
    throw new BusError('E_BAD_PATH', `${file} is not an annotation of task ${task}`);
  }
  const note = readAnnotation(file);
  if (typeof note === 'string') throw new BusError('E_IO', `cannot mark ${file} consumed: ${note}`);
  if (note.consumed) return;
  assertInsideBus(bus, dir); // the replace's temp file goes beside it: never through a link out of the bus (ID-SAFE-4)
  writeFileAtomic(file, JSON.stringify({ ...note, consumed: true }, null, 2) + '\n');
}
