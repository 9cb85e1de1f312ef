// `notes` (MCP-6): the task's unconsumed notes from the person, oldest first,
// marked consumed once handed back (bus §9: a crash in between re-delivers). Notes that are
// not the person's (ANNOT-6) are neither returned nor consumed; the text says they were held back.
import { consumeAnnotations, pendingNotes } from '../../lib/inject';
import { NotesInput, NotesOutput } from '../../../protocol/mcp/tools';
import { guarded, ok } from '../result';
import { taskFor } from '../task';
import { defineTool } from './tool';

export const notes = defineTool({
  name: 'notes',
  title: 'Read notes from the person',
  description: 'The notes the person left on this task that you have not seen yet, oldest first. Each is returned once.',
  input: NotesInput,
  output: NotesOutput,
  run: (args, where) =>
    guarded(() => {
      const ctx = taskFor(args.task, where);
      const { notes: pending, held } = pendingNotes(ctx);
      const list = pending.map(({ note }) => ({ turn: note.turn, anchor: note.anchor, author: note.author, ts: note.ts, body: note.body }));
      const text = list.length === 0 ? `No new notes on task ${ctx.task}.` : list.map((n, i) => `(${i + 1}) from ${n.author}${n.anchor === 'general' ? '' : ` about ${n.anchor}`}: ${n.body.trim() || '(empty note)'}`).join('\n\n');
      const withheld = held.length === 0 ? '' : `\n\n(${held.length} more file${held.length === 1 ? '' : 's'} under .agents/annotations/${ctx.task}/ ${held.length === 1 ? 'was' : 'were'} held back: not written by the person on this machine, e.g. committed to the repository.)`;
      const result = ok({ task: ctx.task, notes: list }, text + withheld);
      consumeAnnotations(ctx, pending.map((p) => p.file));
      return result;
    }),
});
