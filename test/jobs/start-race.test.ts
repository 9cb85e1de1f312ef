// A job's start waits for its worktree before it spawns (JOB-5, JOB-4): the task is taken from
// the first moment, so two starts at once give one job, and a relay closed during that wait
// never spawns it afterwards (an orphan agent, running with no relay to stop it). Real relay,
// real git worktrees, the fake adapter in the sandbox.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Jobs } from '../../relay/jobs/service';
import { jobsWorld, packet } from './fixture';

const world = jobsWorld('jobs-race-', { 'T-hang': `${packet('T-hang')}\nFAKE:hang\n` });

describe('job start races', () => {
  it('JOB-5: two task.run of one task at the same moment start one job; the other is refused E_CONFLICT', async () => {
    const run = () => world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-hang', mode: 'work' });
    const [a, b] = await Promise.allSettled([run(), run()]);
    const started = [a, b].filter((r) => r.status === 'fulfilled');
    const refused = [a, b].filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(started).toHaveLength(1);
    expect(refused.map((r) => (r.reason as { code?: string }).code)).toEqual(['E_CONFLICT']);
    const { job } = (started[0] as PromiseFulfilledResult<{ result: unknown }>).value.result as { job: string };
    await world.phone.request({ type: 'job.stop', job });
  });

  it('JOB-4: a relay closed while a job\'s worktree is being made refuses that job and spawns nothing after it closed', async () => {
    const jobs = world.fx.relay.services.jobs as Jobs;
    const starting = jobs.start({ repoId: world.repoId, repo: world.repo, bus: world.bus, task: 'T-hang', mode: 'work', packet: path.join(world.bus, 'inbox', 'T-hang.md') });
    const settled = starting.then(() => 'started', (error: { code?: string }) => error.code);
    await world.fx.relay.close();
    // Closed means nothing of the job runs: it was refused, so no process was spawned.
    expect(await settled).toBe('E_UNAVAILABLE');
    expect(fs.existsSync(path.join(world.fx.relay.dataDir, 'worktrees', world.repoId, 'T-hang'))).toBe(true);
  });
});
