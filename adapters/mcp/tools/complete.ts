// `complete` (MCP-5): the same as `complete` on the task's claimed packet — moved
// to done/ with `task_complete`; a summary goes first as a progress note.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { completePacket } from '../../../bus/complete';
import { listPackets } from '../../../bus/layout';
import { parsePacket } from '../../../bus/packet';
import { appendProgress } from '../../../bus/progress';
import { CompleteInput, CompleteOutput } from '../../../protocol/mcp/tools';
import { guarded, ok, ToolError } from '../result';
import { taskFor } from '../task';
import { defineTool } from './tool';

export const complete = defineTool({
  name: 'complete',
  title: 'Complete the task',
  description:
    'Mark this task finished: result "pass" when its acceptance criteria are met, "fail" when they are not. Moves the claimed packet to done. Give a one-line summary of the outcome.',
  input: CompleteInput,
  output: CompleteOutput,
  run: (args, where) =>
    guarded(async () => {
      const ctx = taskFor(args.task, where);
      const claimed = await claimedPacket(ctx.bus, ctx.task);
      if (!claimed) throw new ToolError('E_NOT_CLAIMED', `task ${ctx.task} has no claimed packet to complete (already done, or never claimed)`);
      if (args.summary) appendProgress(ctx.bus, ctx.task, args.summary, where.env.COMMANDR_AGENT_ID?.trim() || undefined);
      const done = await completePacket(claimed, args.result);
      return ok({ task: ctx.task, result: args.result, path: done.path }, `Task ${ctx.task} completed (${args.result}).`);
    }),
});

async function claimedPacket(bus: string, task: string): Promise<string | undefined> {
  for (const name of listPackets(bus, 'claimed')) {
    const file = path.join(bus, 'claimed', name);
    let text: string;
    try {
      text = fs.readFileSync(file, 'utf8');
    } catch {
      continue;
    }
    const packet = await parsePacket(text);
    if (packet.ok && packet.front.id === task) return file;
  }
  return undefined;
}
