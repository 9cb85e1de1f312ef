// Task jobs through the real relay: `task.run` over the socket launches the fake
// adapter (a real executable) in the task's worktree or the main checkout, streams
// and logs its output, and a crash or a kill leaves `task_failed` on the real bus.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../bus/event-log';
import { jobsWorld } from './fixture';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

function packet(id: string, body: string): string {
  return `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${id}\n\n## Context\n${body}\n`;
}

const world = jobsWorld('jobs-repo-', {
  'T-ok': packet('T-ok', 'all fine'), 'T-crash': packet('T-crash', 'FAKE:crash'), 'T-hang': packet('T-hang', 'FAKE:hang'),
  'T-later': packet('T-later', 'all fine').replace('scope: src/**\n', 'scope: src/**\nblocked-by: [T-ok, T-crash]\n'),
});

const failedEvents = () => readEvents(world.bus).events.filter((e) => e.event === 'task_failed');
const ended = (job: string) => world.phone.next('job.state', (f) => f.job === job && f.status !== 'running', 15_000);
const outputOf = (job: string) => world.phone.received.filter((f) => f.type === 'job.output' && f.job === job).map((f) => f.chunk as string).join('');

describe('task jobs', () => {
  it('JOB-1: work runs in the worktree of branch agent/<task> (added when missing), streamed and logged; exit 0 writes nothing on the bus', async () => {
    const ack = await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-ok', mode: 'work' });
    const { job } = ack.result as { job: string };
    expect(job).toMatch(/^j-[0-9a-f]{12}$/);
    const end = await ended(job);
    expect(end).toMatchObject({ status: 'done', exitCode: 0, task: 'T-ok', mode: 'work' });
    const worktree = path.join(world.fx.dataDir, 'worktrees', world.repoId, 'T-ok');
    expect(git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('agent/T-ok');
    const out = outputOf(job);
    expect(out).toContain(`cwd: ${fs.realpathSync(worktree)}`);
    expect(out).toContain('mode: work');
    expect(out).toContain('echo: Work on task T-ok');
    expect(fs.readFileSync(path.join(world.fx.dataDir, 'jobs', `${job}.log`), 'utf8')).toContain(out.trim().split('\n')[0]!);
    expect(failedEvents()).toEqual([]);
  });

  it('JOB-7: a task blocked by tasks not done is refused E_CONFLICT naming them, nothing started; once they are done it runs', async () => {
    const jobs = () => world.phone.received.filter((f) => f.type === 'job.state').length;
    const before = jobs();
    const refused = world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-later', mode: 'work' });
    await expect(refused).rejects.toMatchObject({ code: 'E_CONFLICT', message: expect.stringMatching(/task T-later is blocked by T-ok, T-crash, not done yet/) });
    expect(fs.existsSync(path.join(world.fx.dataDir, 'worktrees', world.repoId, 'T-later'))).toBe(false);
    expect(jobs()).toBe(before);
    // A review reads only: it may run. Once both are done (moved to done/ as `complete` does), work runs too.
    await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-later', mode: 'review' });
    for (const id of ['T-ok', 'T-crash']) fs.renameSync(path.join(world.bus, 'inbox', `${id}.md`), path.join(world.bus, 'done', `${id}.md`));
    // (Until the watcher has seen the moves, and the review has ended, it is refused.)
    await expect.poll(async () => {
      try {
        return ((await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-later', mode: 'work' })).result as { job: string }).job;
      } catch (error) {
        return (error as Error).message;
      }
    }, { timeout: 10_000 }).toMatch(/^j-[0-9a-f]{12}$/);
  });

  it('JOB-2: an existing agent/<task> worktree is reused, not duplicated', async () => {
    const own = path.join(path.dirname(world.repo), 'my-wt');
    git(world.repo, 'worktree', 'add', '-q', '-b', 'agent/T-ok', own);
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-ok', mode: 'work' })).result as { job: string };
    await ended(job);
    expect(outputOf(job)).toContain(`cwd: ${own}`);
    expect(fs.existsSync(path.join(world.fx.dataDir, 'worktrees', world.repoId, 'T-ok'))).toBe(false);
  });

  it('JOB-3: review runs read-only intent in the main checkout', async () => {
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-ok', mode: 'review' })).result as { job: string };
    await ended(job);
    expect(outputOf(job)).toContain(`cwd: ${world.repo}`);
    expect(outputOf(job)).toContain('mode: review');
    expect(git(world.repo, 'worktree', 'list').split('\n')).toHaveLength(1);
  });

  it('JOB-4: a crashing job ends failed and appends task_failed {task, agent, reason} to the bus', async () => {
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-crash', mode: 'work' })).result as { job: string };
    expect(await ended(job)).toMatchObject({ status: 'failed', exitCode: 3 });
    const [failed] = failedEvents();
    expect(failed).toMatchObject({ event: 'task_failed', task: 'T-crash', agent: `fake-${job}` });
    expect(String(failed?.reason)).toMatch(/exited with status 3: fake adapter: crashing as asked/);
    expect(fs.readFileSync(path.join(world.fx.dataDir, 'jobs', `${job}.log`), 'utf8')).toContain('crashing as asked');
  });

  it('JOB-5: a killed job ends failed with task_failed naming the signal; a second run of a running task is refused', async () => {
    const { job } = (await world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-hang', mode: 'work' })).result as { job: string };
    await world.phone.next('job.output', (f) => f.job === job && f.chunk.includes('hanging'));
    await expect(world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-hang', mode: 'work' })).rejects.toMatchObject({ code: 'E_CONFLICT' });
    process.kill(findPid(job), 'SIGKILL');
    expect(await ended(job)).toMatchObject({ status: 'failed', exitCode: null });
    expect(failedEvents()).toEqual([expect.objectContaining({ task: 'T-hang', reason: expect.stringContaining('was killed by SIGKILL') })]);
  });

  it('JOB-6: unknown repos and tasks are refused with their codes', async () => {
    await expect(world.phone.request({ type: 'task.run', repo: 'nope-00000000', task: 'T-ok', mode: 'work' })).rejects.toMatchObject({ code: 'E_UNKNOWN_REPO' });
    await expect(world.phone.request({ type: 'task.run', repo: world.repoId, task: 'T-none', mode: 'work' })).rejects.toMatchObject({ code: 'E_UNKNOWN_TASK' });
  });
});

/** The job's adapter process: the one whose env carries COMMANDR_AGENT_ID=fake-<job>. */
function findPid(job: string): number {
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const env = fs.readFileSync(`/proc/${entry}/environ`, 'utf8');
      if (env.split('\0').includes(`COMMANDR_AGENT_ID=fake-${job}`)) return Number(entry);
    } catch {
      // gone or not ours
    }
  }
  throw new Error(`no process for ${job}`);
}
