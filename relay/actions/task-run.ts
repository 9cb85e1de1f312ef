// `task.run {repo, task, mode, agent?}` (JOB-1, UX-4): starts a supervised headless job
// for a bus task with the agent the person chose; the ack carries the job id, its
// progress arrives as job.* frames. `job.stop {job}` (UX-5) ends one from the phone.
import type * as z from 'zod/mini';
import type { JobStop, TaskRun } from '../../protocol/wire/frames';
import { CommandrError } from '../../protocol/wire/errors';
import { Jobs, jobsOf } from '../jobs/index';
import { taskPlace, type TaskActionContext } from './task-common';

export async function taskRun(ctx: TaskActionContext, f: z.infer<typeof TaskRun>): Promise<{ job: string; status: string; agent?: string }> {
  const place = taskPlace(ctx.services, f.repo, f.task);
  // JOB-7: its agent could not claim it (BLOCKED-BY-1), so no job starts to find that out.
  const waitingFor = place.summary.state === 'inbox' && f.mode === 'work' ? place.summary.blockedBy.filter((id) => place.model.summary(id)?.state !== 'done') : [];
  if (waitingFor.length > 0) {
    throw new CommandrError('E_CONFLICT', `task ${f.task} is blocked by ${waitingFor.join(', ')}, not done yet: its agent could not claim it. Run it once ${waitingFor.length === 1 ? 'that task is' : 'those tasks are'} done.`);
  }
  const state = await jobsOf(ctx.services).start({
    repoId: f.repo, repo: place.model.info.path, bus: place.bus, task: f.task, mode: f.mode, packet: place.packet,
    ...(f.agent === undefined ? {} : { agent: f.agent }),
  });
  return { job: state.job, status: state.status, ...(state.agent === undefined ? {} : { agent: state.agent }) };
}

/** Stops a running job's whole process group; acks once it has ended (as failed, `stopped: true`). */
export async function jobStop(ctx: TaskActionContext, f: z.infer<typeof JobStop>): Promise<{ job: string; stopped: true }> {
  await jobsOf(ctx.services).stop(f.job);
  return { job: f.job, stopped: true };
}

/** Wraps `subscribe` so a (re)connecting client learns which jobs are running now. */
export function withJobList<C extends TaskActionContext, F>(read: (ctx: C, frame: F) => Promise<unknown>): (ctx: C, frame: F) => Promise<unknown> {
  return async (ctx, frame) => {
    const result = await read(ctx, frame);
    if (ctx.services.jobs instanceof Jobs) for (const state of ctx.services.jobs.list()) ctx.send(state);
    return result;
  };
}
