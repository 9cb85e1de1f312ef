// DEMO-STATES-n: the demo shows a task's whole life, each later state made for real —
// a commit that verifies under the relay's key, a merge that is in main, a failed run the
// job service keeps, a running task. Real relay (port 0), real git, no stand-ins.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notLoggedInSentence } from '../../adapters/lib/readiness';
import { publicKeyFile, readVerifyingKey } from '../../bus/approval/keys';
import { verifyWalk } from '../../bus/approval/verify';
import { rangeWalk } from '../../bus/approval/walks';
import { readEvents } from '../../bus/event-log';
import { COMMITTED_TASK, FAILED_RUN_TASK, MERGED_TASK, PASS_TASK, RUNNING_TASK } from '../../relay/demo/packets';
import { demoRoot } from '../../relay/demo/workspace';
import type { TaskSummary } from '../../protocol/wire/views';
import { demoRelay } from './fixture';

const fx = demoRelay('relay-demo-states-');

const repoDir = (): string => path.join(demoRoot(fx.dataDir), 'commandr-demo');
const git = (...args: string[]): string => execFileSync('git', args, { cwd: repoDir(), encoding: 'utf8' }).trim();

async function task(id: string): Promise<TaskSummary> {
  const snap = await fx.rec.until(() => fx.rec.snapshots[0], 'snapshot');
  const found = snap.tasks.find((t) => t.id === id);
  if (!found) throw new Error(`the demo has no task ${id}: ${snap.tasks.map((t) => t.id).join(', ')}`);
  return found;
}

async function verifyRange(range: string, taskId: string): Promise<{ checked: number; bad: unknown[] }> {
  const walk = await rangeWalk(repoDir(), range, taskId);
  return verifyWalk(repoDir(), walk.walk, { keys: [readVerifyingKey(publicKeyFile(fx.dataDir))] });
}

describe('the demo shows every later state, made for real', () => {
  it('DEMO-STATES-1: a task committed on agent/<id> with a signed approval: stage committed, verified, its diff shown', async () => {
    const t = await task(COMMITTED_TASK);
    expect(t.state).toBe('claimed');
    expect(t.life).toMatchObject({ stage: 'committed', commit: { branch: `agent/${COMMITTED_TASK}`, verified: true, subject: 'Demo: say goodbye too' } });
    expect(t.life!.commit!.hash).toBe(git('rev-parse', `agent/${COMMITTED_TASK}`));
    expect(t.pendingApproval).toBeNull();
    // `commandr verify main..agent/<id>` under the relay's own key: one commit, none bad.
    expect(await verifyRange(`main..agent/${COMMITTED_TASK}`, COMMITTED_TASK)).toMatchObject({ checked: 1, bad: [] });
    // The token was spent by the commit (APPROVAL-8).
    const committed = readEvents(path.join(repoDir(), '.agents')).events.find((e) => e.event === 'task_committed' && e.task === COMMITTED_TASK);
    expect(committed).toMatchObject({ digest: expect.stringMatching(/^sha256:/) });
    const diff = fx.client.request({ type: 'task.diff', repo: t.repo, task: t.id });
    const begin = await fx.client.next('task.diff.begin', (f) => f.task === COMMITTED_TASK);
    expect(begin).toMatchObject({ source: 'commit', commit: { tip: t.life!.commit!.hash, branch: `agent/${COMMITTED_TASK}`, into: 'main' } });
    expect(JSON.stringify(begin.files)).toContain('src/farewell.js');
    await diff;
  });

  it('DEMO-STATES-2: a task merged into main by the relay\'s merge: stage merged, its tip in main', async () => {
    const t = await task(MERGED_TASK);
    expect(t).toMatchObject({ state: 'done', result: 'pass' });
    expect(t.life).toMatchObject({ stage: 'merged', merged: { base: 'main', mode: 'fast-forward' }, commit: { verified: true } });
    const tip = git('rev-parse', `agent/${MERGED_TASK}`);
    expect(t.life!.commit!.hash).toBe(tip);
    execFileSync('git', ['merge-base', '--is-ancestor', tip, 'main'], { cwd: repoDir() }); // throws when not merged
    expect(git('show', 'main:src/shout.js')).toContain('HELLO');
    expect(await verifyRange(`main~1..main`, MERGED_TASK)).toMatchObject({ bad: [] });
  });

  it('DEMO-STATES-6: the done typo task did what it says: its fix committed with a signed approval, merged into main, shown as its change', async () => {
    const t = await task(PASS_TASK);
    expect(t).toMatchObject({ state: 'done', result: 'pass', scope: 'README.md' });
    expect(t.life).toMatchObject({ stage: 'merged', merged: { base: 'main' }, commit: { branch: `agent/${PASS_TASK}`, verified: true, subject: 'Demo: fix a typo in the README' } });
    const tip = git('rev-parse', `agent/${PASS_TASK}`);
    expect(t.life!.commit!.hash).toBe(tip);
    execFileSync('git', ['merge-base', '--is-ancestor', tip, 'main'], { cwd: repoDir() }); // throws when not merged
    expect(await verifyRange(`main..agent/${PASS_TASK}`, PASS_TASK)).toMatchObject({ bad: [] });
    expect(await verifyRange(`${tip}~1..${tip}`, PASS_TASK)).toMatchObject({ checked: 1, bad: [] });
    // The README the repo shows says what the task claims: the typo is gone from main.
    expect(git('show', 'main:README.md')).toContain('A demo workspace.');
    expect(fs.readFileSync(path.join(repoDir(), 'README.md'), 'utf8')).not.toContain('worksapce');
    const diff = fx.client.request({ type: 'task.diff', repo: t.repo, task: t.id });
    const begin = await fx.client.next('task.diff.begin', (f) => f.task === PASS_TASK);
    expect(begin).toMatchObject({ source: 'commit', commit: { tip, branch: `agent/${PASS_TASK}` } });
    expect(JSON.stringify(begin.files)).toContain('README.md');
    await diff;
  });

  it('DEMO-STATES-3: a task whose Claude Code run failed (not logged in): task_failed on the bus, the failed job kept and sent with its reason and details', async () => {
    const t = await task(FAILED_RUN_TASK);
    const reason = notLoggedInSentence(os.hostname());
    expect(t.life?.stage).toBe('failed');
    const failed = readEvents(path.join(repoDir(), '.agents')).events.filter((e) => e.event === 'task_failed' && e.task === FAILED_RUN_TASK);
    expect(failed).toMatchObject([{ reason, agent: expect.stringMatching(/^claude-j-[0-9a-f]{12}$/) }]);
    const job = await fx.client.next('job.state', (f) => f.task === FAILED_RUN_TASK);
    expect(job).toMatchObject({ repo: t.repo, status: 'failed', exitCode: 1, agent: 'claude', mode: 'work', reason });
    expect(job.details).toContain('Not logged in · Please run /login');
    expect(`claude-${job.job}`).toBe(failed[0]!.agent);
    const kept = JSON.parse(fs.readFileSync(path.join(fx.dataDir, 'jobs', 'failed.json'), 'utf8')) as Record<string, unknown>;
    expect(Object.keys(kept)).toEqual([`${t.repo}\t${FAILED_RUN_TASK}`]);
  });

  it('DEMO-STATES-4: a running task: claimed, progress notes, nothing staged', async () => {
    const t = await task(RUNNING_TASK);
    expect(t).toMatchObject({ state: 'claimed', pendingApproval: null, lastNote: 'Writing test/greeting.test.js' });
    expect(t.life).toEqual({ stage: 'running' });
  });

  it('DEMO-STATES-5, DEMO-STATES-1: main\'s checkout holds no change to a tracked file, and "Merge into main" on the committed task succeeds', async () => {
    expect(git('status', '--porcelain', '--untracked-files=no')).toBe('');
    const t = await task(COMMITTED_TASK);
    const merged = await fx.client.request({ type: 'task.merge', repo: t.repo, task: t.id });
    // main moved (the merged task) since agent/<id> branched: a merge commit that carries the relay's own approval (FINISH-1).
    expect(merged.result).toMatchObject({ base: 'main', mode: 'merge' });
    const commit = (merged.result as { commit: string }).commit;
    expect(git('rev-parse', 'main')).toBe(commit);
    expect(git('rev-list', '--parents', '-n', '1', 'main').split(' ')).toEqual([commit, expect.any(String), t.life!.commit!.hash]);
    expect(await verifyRange(`main~1..main`, COMMITTED_TASK)).toMatchObject({ bad: [] });
    expect(fs.readFileSync(path.join(repoDir(), 'src', 'farewell.js'), 'utf8')).toContain('Goodbye');
    expect(fs.readFileSync(path.join(repoDir(), 'src', 'shout.js'), 'utf8')).toContain('HELLO');
    const after = await fx.rec.task(t.repo, t.id, (s) => s.life?.stage === 'merged');
    expect(after.life?.merged).toMatchObject({ base: 'main' });
  });
});
