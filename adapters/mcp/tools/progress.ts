// `progress` (MCP-4): a neutral one-line note on the bus as `task_progress`, by the
// same rules as the `progress` tool (one line, no harness internals).
import { appendProgress } from '../../../bus/progress';
import { ProgressInput, ProgressOutput } from '../../../protocol/mcp/tools';
import { guarded, ok } from '../result';
import { taskFor } from '../task';
import { defineTool } from './tool';

export const progress = defineTool({
  name: 'progress',
  title: 'Report progress',
  description:
    'Tell the person supervising this task where you are: one short, human-readable line (what is done, what is next). It lands on the task timeline on their phone. No tool names, token counts or session talk.',
  input: ProgressInput,
  output: ProgressOutput,
  run: (args, where) =>
    guarded(() => {
      const ctx = taskFor(args.task, where);
      appendProgress(ctx.bus, ctx.task, args.note, where.env.COMMANDR_AGENT_ID?.trim() || undefined);
      return ok({ task: ctx.task, note: args.note }, `Noted on task ${ctx.task}.`);
    }),
});
