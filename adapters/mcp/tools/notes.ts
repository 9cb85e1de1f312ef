// `notes` (MCP-6): the task's unconsumed notes from the person, oldest first,
// marked consumed once handed back (bus §9: a crash in between re-delivers).
import { consumeAnnotations, pendingAnnotations } from '../../lib/inject';
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
      const pending = pendingAnnotations(ctx);
      const list = pending.map(({ note }) => ({ turn: note.turn, anchor: note.anchor, author: note.author, ts: note.ts, body: note.body }));
      const text = list.length === 0 ? `No new notes on task ${ctx.task}.` : list.map((n, i) => `(${i + 1}) from ${n.author}${n.anchor === 'general' ? '' : ` about ${n.anchor}`}: ${n.body.trim() || '(empty note)'}`).join('\n\n');
      const result = ok({ task: ctx.task, notes: list }, text);
      consumeAnnotations(ctx, pending.map((p) => p.file));
      return result;
    }),
});
