// Annotation injection (HOOK-n, bus §9): the task's unconsumed notes, oldest first,
// become one labelled context block; each is marked consumed only after the block
// was handed to the agent (a crash in between re-injects, never loses a note).
import { listAnnotations, markConsumed, type StoredAnnotation } from '../../bus/annotations';
import type { TaskContext } from './task-context';

export const BLOCK_TITLE = 'Notes from the person supervising this task';

export function pendingAnnotations(ctx: TaskContext): StoredAnnotation[] {
  return listAnnotations(ctx.bus, ctx.task).filter((a) => !a.note.consumed);
}

export function annotationBlock(task: string, notes: StoredAnnotation[]): string {
  const parts = notes.map(({ note }, i) => {
    const where = note.anchor === 'general' ? '' : ` about ${note.anchor}`;
    return `(${i + 1}) from ${note.author}${where}, turn ${note.turn}:\n${note.body.trim() || '(empty note)'}`;
  });
  return [
    `<commandr-annotations task="${task}">`,
    `${BLOCK_TITLE} (task ${task}), oldest first. Take them into account in this turn:`,
    '',
    parts.join('\n\n'),
    '</commandr-annotations>',
  ].join('\n');
}

/**
 * Hands the block to `deliver` (which must have written it when it returns), then
 * marks each note consumed. Returns how many notes were delivered.
 */
export function injectAnnotations(ctx: TaskContext, deliver: (block: string) => void): number {
  const notes = pendingAnnotations(ctx);
  if (notes.length === 0) return 0;
  deliver(annotationBlock(ctx.task, notes));
  for (const { file } of notes) markConsumed(ctx.bus, ctx.task, file);
  return notes.length;
}

/** Two-phase form for vendors whose delivery happens in another process: the block and the files it holds. */
export function pendingBlock(ctx: TaskContext): { block: string; files: string[] } | undefined {
  const notes = pendingAnnotations(ctx);
  return notes.length === 0 ? undefined : { block: annotationBlock(ctx.task, notes), files: notes.map((n) => n.file) };
}

/** Marks delivered notes consumed; a file that is not one of the task's annotations is refused by the bus library. */
export function consumeAnnotations(ctx: TaskContext, files: string[]): void {
  for (const file of files) markConsumed(ctx.bus, ctx.task, file);
}
