// `task.run {repo, task, mode}` (JOB-1): starts a supervised headless job for a
// bus task; the ack carries the job id, its progress arrives as job.* frames.
import type * as z from 'zod/mini';
import type { TaskRun } from '../../protocol/wire/frames';
import { jobsOf } from '../jobs/index';
import { taskPlace, type TaskActionContext } from './task-common';

export async function taskRun(ctx: TaskActionContext, f: z.infer<typeof TaskRun>): Promise<{ job: string; status: string }> {
  const place = taskPlace(ctx.services, f.repo, f.task);
  const state = await jobsOf(ctx.services).start({
    repoId: f.repo, repo: place.model.info.path, bus: place.bus, task: f.task, mode: f.mode, packet: place.packet,
  });
  return { job: state.job, status: state.status };
}
