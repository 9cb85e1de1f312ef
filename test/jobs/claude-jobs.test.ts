// Task jobs on the REAL Claude Code CLI (claude adapter `run`) against the Messages
// API stand-in: a work job edits its own worktree and ends done with nothing on the
// bus; a job whose model call fails ends failed with task_failed on the bus.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { readEvents } from '../../bus/event-log';
import { repoIdOf } from '../../relay/watch/repo-id';
import { planTurn } from '../adapters/claude-script';
import { useClaudeRelayWorld } from '../adapters/world';
import { busRepoIn } from '../helpers/bus-repo';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

const w = useClaudeRelayWorld('jobs-claude-', (tmp) => {
  const packet = (id: string) => `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${id}\n`;
  const { repo, bus } = busRepoIn(tmp, { commit: true, inbox: { 'T-edit': packet('T-edit'), 'T-broken': packet('T-broken') } });
  return { repo, bus, repoId: repoIdOf(repo), relayOptions: { repos: [repo] } };
});

const ended = (job: string) => w.phone.next('job.state', (f) => f.job === job && f.status !== 'running', 60_000);

describe('task jobs on the real Claude Code CLI', () => {
  it('JOB-1: a work job runs Claude in the agent/<task> worktree, its edit lands there, output is streamed and logged, the bus stays quiet', async () => {
    const worktree = path.join(w.relay.dataDir, 'worktrees', w.repoId, 'T-edit');
    planTurn(w.api, [{ name: 'Write', input: { file_path: path.join(worktree, 'done.txt'), content: 'T-edit done\n' } }], 'Edited done.txt');
    const { job } = (await w.phone.request({ type: 'task.run', repo: w.repoId, task: 'T-edit', mode: 'work' })).result as { job: string };
    expect(await ended(job)).toMatchObject({ status: 'done', exitCode: 0 });
    expect(fs.readFileSync(path.join(worktree, 'done.txt'), 'utf8')).toBe('T-edit done\n');
    expect(git(worktree, 'rev-parse', '--abbrev-ref', 'HEAD')).toBe('agent/T-edit');
    expect(fs.existsSync(path.join(w.repo, 'done.txt'))).toBe(false);
    const streamed = w.phone.received.filter((f) => f.type === 'job.output' && f.job === job).map((f) => f.chunk as string).join('');
    expect(streamed).toMatch(/^SESSION: [0-9a-f-]{36}\n/);
    expect(streamed).toContain('Edited done.txt');
    expect(fs.readFileSync(path.join(w.relay.dataDir, 'jobs', `${job}.log`), 'utf8')).toContain('Edited done.txt');
    expect(readEvents(w.bus).events.filter((e) => e.event === 'task_failed')).toEqual([]);
  });

  it('JOB-4: a job whose model calls fail ends failed and task_failed lands on the bus', async () => {
    w.api.setReply(() => ({ error: { status: 500, type: 'api_error', message: 'stand-in says no' } }));
    const { job } = (await w.phone.request({ type: 'task.run', repo: w.repoId, task: 'T-broken', mode: 'work' })).result as { job: string };
    const end = await ended(job);
    expect(end.status).toBe('failed');
    expect(end.exitCode).not.toBe(0);
    expect(readEvents(w.bus).events.filter((e) => e.event === 'task_failed')).toEqual([
      expect.objectContaining({ task: 'T-broken', agent: `claude-${job}` }),
    ]);
  });
});
