// Annotation injection (HOOK-3, NOTE-n, bus §9): the task's unconsumed notes, oldest first,
// become one labelled context block. A note's text is fenced (NOTE-3) so it can neither close
// the block nor carry control characters; a block too long for one hook output is split into
// parts (NOTE-1); notes are consumed only by a turn that completed (NOTE-2, see deliveries.ts).
// Notes that are not the person's (tracked by git, behind a symbolic link) are held back (ANNOT-6).
import { listAnnotations, markConsumed, type StoredAnnotation } from '../../bus/annotations';
import { type HeldNote, heldWarning, sortNotes } from '../../bus/note-origin';
import type { TaskContext } from './task-context';

export const BLOCK_TITLE = 'Notes from the person supervising this task';
/** Claude Code hands the model only a 2 KB preview of a hook output above about 10 KB. */
export const PART_CHARS = 9000;
/** How many prompt hooks `wire` installs, each printing one part (NOTE-1): 72 000 characters in all. */
export const MAX_PARTS = 8;

const unconsumed = (ctx: TaskContext): StoredAnnotation[] => listAnnotations(ctx.bus, ctx.task).filter((a) => !a.note.consumed);

export interface PendingNotes {
  /** The person's unconsumed notes, oldest first: what may be injected. */
  notes: StoredAnnotation[];
  /** Unconsumed notes that are not the person's (ANNOT-6): never injected nor consumed. */
  held: HeldNote[];
  /** The warning naming the held notes, when there are any. */
  warning?: string;
}

/** The task's unconsumed notes, sorted into the person's and those held back (one git run at most). */
export function pendingNotes(ctx: TaskContext, notes = unconsumed(ctx)): PendingNotes {
  const { own, held } = sortNotes(ctx.bus, ctx.task, notes);
  return { notes: own, held, ...(held.length > 0 ? { warning: heldWarning(ctx.bus, ctx.task, held) } : {}) };
}

export const pendingAnnotations = (ctx: TaskContext): StoredAnnotation[] => pendingNotes(ctx).notes;

/**
 * A note's text made safe to place inside the block (NOTE-3): control characters other than
 * newline and tab become visible `\u{…}` escapes, and anything that would open or close the
 * wrapper tag has its `<` escaped, so the model sees the text but never a second tag.
 */
export function fenceText(text: string): string {
  return text
    .replace(/\r\n?/g, '\n')
    // eslint-disable-next-line no-control-regex
    .replace(/[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u2028\u2029]/g, (c) => `\\u{${c.codePointAt(0)!.toString(16)}}`)
    .replace(/<(\s*\/?\s*commandr-annotations)/gi, '&lt;$1');
}

/** The text inside the wrapper: the title, then each note, oldest first. */
function blockContent(task: string, notes: StoredAnnotation[]): string {
  const parts = notes.map(({ note }, i) => {
    const where = note.anchor === 'general' ? '' : ` about ${fenceText(note.anchor)}`;
    return `(${i + 1}) from ${fenceText(note.author)}${where}, turn ${note.turn}:\n${fenceText(note.body.trim()) || '(empty note)'}`;
  });
  return [`${BLOCK_TITLE} (task ${task}), oldest first. Take them into account in this turn:`, '', parts.join('\n\n')].join('\n');
}

/** Room for the content of one part: PART_CHARS less its wrapper. */
const PART_CONTENT = PART_CHARS - 120;

/** `text` cut into pieces of at most `size` UTF-16 units, never inside a surrogate pair. */
function cut(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let at = 0; at < text.length;) {
    let end = Math.min(text.length, at + size);
    if (end < text.length && /[\ud800-\udbff]/.test(text[end - 1]!)) end--;
    pieces.push(text.slice(at, end));
    at = end;
  }
  return pieces;
}

/**
 * The notes as wrapped parts of at most PART_CHARS each (NOTE-1). One part is the plain block
 * `<commandr-annotations task="…">…</commandr-annotations>`; several carry `part="k/n"` and
 * their contents, joined in part order, are the whole text (the agent may show them in any order).
 */
export function annotationParts(task: string, notes: StoredAnnotation[]): string[] {
  const pieces = cut(blockContent(task, notes), PART_CONTENT);
  return pieces.map((piece, k) => {
    const part = pieces.length > 1 ? ` part="${k + 1}/${pieces.length}"` : '';
    return `<commandr-annotations task="${task}"${part}>\n${piece}\n</commandr-annotations>`;
  });
}

/** The whole block in one piece, for agents without an output limit. */
export const annotationBlock = (task: string, notes: StoredAnnotation[]): string => annotationParts(task, notes).join('\n');

export interface PendingBlock {
  /** At most MAX_PARTS parts; none when every pending note was held back. */
  parts: string[];
  /** All parts in order, for agents without an output limit. */
  block: string;
  /** The note files the parts hold (the oldest that fit in MAX_PARTS parts). */
  files: string[];
  /** Set when notes were held back (ANNOT-6): the warning for the person, naming them. */
  warning?: string;
}

/**
 * The oldest pending notes that fit in `maxParts` parts; a later note waits for a later turn.
 * Undefined when nothing is pending, or when part `needPart` cannot exist: holding notes back only
 * shortens the block, so a hook printing part k > 0 asks git nothing unless all notes fill k parts.
 */
export function pendingBlock(ctx: TaskContext, maxParts = MAX_PARTS, needPart = 0): PendingBlock | undefined {
  const all = unconsumed(ctx);
  if (all.length === 0) return undefined;
  if (needPart > 0 && annotationParts(ctx.task, all).length <= needPart) return undefined;
  const { notes, warning } = pendingNotes(ctx, all);
  let taken = notes.length;
  while (taken > 1 && annotationParts(ctx.task, notes.slice(0, taken)).length > maxParts) taken--;
  const chosen = notes.slice(0, taken);
  // A single note too long for every part (the phone caps notes well below) is cut at the last part.
  const parts = taken === 0 ? [] : annotationParts(ctx.task, chosen).slice(0, maxParts);
  return { parts, block: parts.join('\n'), files: chosen.map((n) => n.file), ...(warning ? { warning } : {}) };
}

/** Marks delivered notes consumed; a file that is not one of the task's annotations is refused by the bus library. */
export function consumeAnnotations(ctx: Pick<TaskContext, 'bus' | 'task'>, files: string[]): void {
  for (const file of files) markConsumed(ctx.bus, ctx.task, file);
}
