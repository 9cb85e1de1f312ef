// A task's life as the relay tells it (TSTATE-1..3), against a real relay on port 0, the real
// bin tools, real git worktrees whose gate and post-commit hooks `commandr init` installed, and a
// paired device: the stage in the task summary at every step, and the change `task.diff` shows
// for it — the staged change while one waits, the committed one (agent/<task> against its merge
// base with the default branch) once committed, also to a device that connects afterwards.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { emptyFold, foldEvent } from '../../relay/watch/task-fold';
import { lifeOf } from '../../relay/watch/task-life';
import type { TaskSummary } from '../../protocol/wire/views';
import { subscribedClient, watchedWorld } from '../relay-watch/fixture';
import type { DeviceClient } from '../helpers/device';

const fx = watchedWorld({ inbox: ['T-1', 'T-2'], device: 'Pixel states' });

function commit(cwd: string, message: string, extra: string[] = []): { code: number | null; stderr: string } {
  const r = spawnSync('git', ['commit', '-q', '-m', message, ...extra], { cwd, env: fx.world.env, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}
function stage(cwd: string, file: string, text: string): void {
  fs.mkdirSync(path.dirname(path.join(cwd, file)), { recursive: true });
  fs.writeFileSync(path.join(cwd, file), text);
  fx.world.git(['add', file], cwd);
}
const head = (cwd: string): string => fx.world.git(['rev-parse', 'HEAD'], cwd).trim();
const claimedFile = (id: string): string => path.join(fx.world.bus, 'claimed', fs.readdirSync(path.join(fx.world.bus, 'claimed')).find((f) => f.endsWith(`_${id}.md`))!);
const stageIs = (stage: string) => (t: TaskSummary) => t.life?.stage === stage;

let seq = 0;
async function readDiff(client: DeviceClient, task: string): Promise<{ begin: Record<string, unknown>; patch: string }> {
  const id = `diff-${task}-${String(++seq).padStart(4, '0')}`;
  const frames: Record<string, unknown>[] = [];
  const off = (data: Buffer) => frames.push(JSON.parse(data.toString()) as Record<string, unknown>);
  client.ws.on('message', off);
  try {
    await client.request({ type: 'task.diff', id, repo: fx.repo, task });
  } finally {
    client.ws.off('message', off);
  }
  const begin = frames.find((f) => f.type === 'task.diff.begin' && f.id === id)!;
  const chunks = frames.filter((f) => f.type === 'task.diff.chunk' && f.id === id) as unknown as { seq: number; data: string }[];
  return { begin, patch: chunks.sort((a, b) => a.seq - b.seq).map((c) => c.data).join('') };
}

describe('TSTATE: a task\'s life, derived by the relay', () => {
  it('TSTATE-1: inbox → running → waiting for approval → approved → committed (hash, subject, branch, approval verified) → done, each in the live summary', async () => {
    expect((await fx.bus.task(fx.repo, 'T-1')).life).toEqual({ stage: 'inbox' });
    expect(fx.world.tool('claim').code).toBe(0);
    await fx.bus.task(fx.repo, 'T-1', stageIs('running'));
    const wt = fx.world.worktree('wt-T-1', 'agent/T-1');
    stage(wt, 'src/one.js', 'export const one = 1;\n');
    expect(commit(wt, 'add one').code).not.toBe(0);
    const waiting = await fx.bus.task(fx.repo, 'T-1', stageIs('approval'));
    const { begin } = await readDiff(fx.client, 'T-1');
    expect(begin).toMatchObject({ source: 'approval', digest: waiting.life!.digest });
    await fx.client.request({ type: 'task.approve', repo: fx.repo, task: 'T-1', digest: begin.digest });
    expect((await fx.bus.task(fx.repo, 'T-1', stageIs('approved'))).life).toMatchObject({ stage: 'approved', digest: begin.digest });
    const r = commit(wt, 'add one');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    const committed = await fx.bus.task(fx.repo, 'T-1', stageIs('committed'));
    expect(committed.life).toMatchObject({ stage: 'committed', commit: { hash: head(wt), subject: 'add one', branch: 'agent/T-1', verified: true } });
    expect(committed.pendingApproval).toBeNull();
    expect(fx.world.tool('complete', [claimedFile('T-1'), 'pass']).code).toBe(0);
    const done = await fx.bus.task(fx.repo, 'T-1', stageIs('done'));
    expect(done.life?.commit).toMatchObject({ hash: head(wt), verified: true }); // the story keeps its commit
  });

  it('TSTATE-3 VOCAB-6: once committed, task.diff shows the committed change — agent/<task> against its merge base with the default branch, named as the branch a merge goes into — also to a device that connects later', async () => {
    // The default branch moves on after the task branched: its change is not the task's.
    stage(fx.world.repo, 'MAIN-ONLY.md', 'a change on main\n');
    expect(commit(fx.world.repo, 'main moves on', ['--no-verify']).code).toBe(0);
    const wt = path.join(fx.world.dir, 'wt-T-1');
    const later = await subscribedClient(fx.relay, undefined, 'Fresh phone');
    try {
      const summary = await later.bus.task(fx.repo, 'T-1', stageIs('done'));
      expect(summary.life?.commit?.hash).toBe(head(wt));
      const { begin, patch } = await readDiff(later.client, 'T-1');
      const base = fx.world.git(['merge-base', 'main', 'agent/T-1']).trim();
      expect(begin).toMatchObject({ source: 'commit', digest: null, commit: { tip: head(wt), base, branch: 'agent/T-1', into: 'main' } });
      expect(begin.files).toEqual([expect.objectContaining({ path: 'src/one.js', status: 'added', additions: 1 })]);
      expect(patch).toContain('+export const one = 1;');
      expect(patch).not.toContain('MAIN-ONLY');
    } finally {
      await later.client.close();
    }
  });

  it('TSTATE-1: a commit made without the approval (its gate skipped) is committed but not verified; a new staged change waits for approval again, and the diff is the staged one', async () => {
    expect(fx.world.tool('claim').code).toBe(0);
    await fx.bus.task(fx.repo, 'T-2', stageIs('running'));
    const wt = fx.world.worktree('wt-T-2', 'agent/T-2');
    stage(wt, 'src/two.js', 'export const two = 2;\n');
    expect(commit(wt, 'two by hand', ['--no-verify']).code).toBe(0);
    const committed = await fx.bus.task(fx.repo, 'T-2', stageIs('committed'));
    expect(committed.life?.commit).toMatchObject({ hash: head(wt), subject: 'two by hand', verified: false });
    expect((await readDiff(fx.client, 'T-2')).begin).toMatchObject({ source: 'commit', digest: null });
    stage(wt, 'src/three.js', 'export const three = 3;\n');
    expect(commit(wt, 'three').code).not.toBe(0);
    await fx.bus.task(fx.repo, 'T-2', stageIs('approval'));
    const { begin, patch } = await readDiff(fx.client, 'T-2');
    expect(begin).toMatchObject({ source: 'approval', digest: expect.stringMatching(/^sha256:/) });
    expect(patch).toContain('three');
    expect(patch).not.toContain('two = 2');
  });
});

describe('TSTATE: the stage from the packet state and the fold', () => {
  const d = (c: string): string => `sha256:${c.repeat(64)}`;
  const ev = (event: string, extra: Record<string, unknown> = {}) => ({ ts: new Date().toISOString(), event, task: 'T', ...extra });
  const commitId = 'c'.repeat(40);

  it('TSTATE-1: a grant waits for the commit; a request for another digest makes it approval again; a deny ends the wait; the commit ends it; a failed run or result is failed', () => {
    const fold = emptyFold();
    expect(lifeOf('claimed', fold).stage).toBe('running');
    foldEvent(fold, ev('approval_requested', { digest: d('a'), worktree: '/w', files: 1 }));
    expect(lifeOf('claimed', fold)).toEqual({ stage: 'approval', digest: d('a') });
    foldEvent(fold, ev('approval_granted', { digest: d('a'), by: 'p' }));
    expect(lifeOf('claimed', fold)).toEqual({ stage: 'approved', digest: d('a') });
    foldEvent(fold, ev('approval_requested', { digest: d('b'), worktree: '/w', files: 1 }));
    expect(lifeOf('claimed', fold)).toEqual({ stage: 'approval', digest: d('b') });
    foldEvent(fold, ev('approval_granted', { digest: d('b'), by: 'p' }));
    foldEvent(fold, ev('approval_denied', { digest: d('b'), by: 'p' }));
    expect(lifeOf('claimed', fold).stage).toBe('running');
    foldEvent(fold, ev('approval_granted', { digest: d('b'), by: 'p' }));
    foldEvent(fold, ev('task_committed', { commit: commitId, subject: 's', digest: d('b') }));
    expect(lifeOf('claimed', fold)).toMatchObject({ stage: 'committed', commit: { hash: commitId, branch: 'agent/T', verified: true } });
    foldEvent(fold, ev('task_failed', { agent: 'a', reason: 'killed' }));
    expect(lifeOf('claimed', fold).stage).toBe('failed');
    foldEvent(fold, ev('task_claimed', { agent: 'a' }));
    expect(lifeOf('claimed', fold).stage).toBe('committed');
    foldEvent(fold, ev('task_complete', { result: 'fail' }));
    expect(lifeOf('done', fold).stage).toBe('failed');
    expect(lifeOf('inbox', emptyFold()).stage).toBe('inbox');
    expect(lifeOf('done', emptyFold()).stage).toBe('done');
  });
});
