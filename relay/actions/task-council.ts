// `task.council` (COUNCIL-WIRE-n): runs the advisory council in-process on the
// task's packet in claimed/ or done/ (COUNCIL_EVALUATOR_CMD honoured); acks once the verdict file is written.
import type * as z from 'zod/mini';
import { runCouncil } from '../../bus/council/council';
import { councilReadiness } from '../../adapters/lib/readiness';
import { CommandrError } from '../../protocol/wire/errors';
import type { TaskCouncil } from '../../protocol/wire/frames';
import { type TaskActionContext, taskPlace, wireError } from './task-common';

export async function taskCouncil(ctx: TaskActionContext, frame: z.infer<typeof TaskCouncil>): Promise<unknown> {
  const place = taskPlace(ctx.services, frame.repo, frame.task);
  // RUNREADY-4: without a key (or an evaluator command) every member would only abstain.
  const ready = councilReadiness(process.env);
  if (!ready.ok) throw new CommandrError('E_NOT_READY', ready.sentence);
  if (place.summary.state === 'inbox') throw new CommandrError('E_CONFLICT', `task ${frame.task} is still in the inbox: nobody has claimed it, so there is no work for the council to review`);
  try {
    const { verdict } = await runCouncil(place.packet, process.env);
    return { task: verdict.task, verdict: verdict.verdict, votes: verdict.votes };
  } catch (error) {
    throw wireError(error);
  }
}
