// GITRUN-3, the phone's merge (FINISH-1): when the base moved, the relay merges with
// `git merge-tree --write-tree` through the runner. Here one file changed on both sides, so git
// would hand it to the merge driver `* merge=evil` names (set in .git/config and in an [include]d
// file, named by .gitattributes and by .git/info/attributes), with core.fsmonitor, filters and
// every other command-bearing key set too. Plain git runs the driver (the control); the relay's
// merge does not. Real relay on port 0, real bin tools and gate, a paired device.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import type { TaskSummary } from '../../protocol/wire/views';
import { TempDirs } from '../council/fixtures';
import { watchedWorld } from '../relay-watch/fixture';
import { makeHostile } from './hostile';

const fx = watchedWorld({ inbox: ['T-1'], device: 'Pixel merge' });
const dirs = new TempDirs();
const stageIs = (stage: string) => (t: TaskSummary) => t.life?.stage === stage;
const rev = (ref: string, cwd = fx.world.repo): string => fx.world.git(['rev-parse', ref], cwd).trim();
const lines = (first: string, last: string): string => [first, ...Array.from({ length: 8 }, (_, i) => `line ${i + 2}`), last, ''].join('\n');

function commit(cwd: string, message: string, extra: string[] = []): number | null {
  return spawnSync('git', ['commit', '-q', '-m', message, ...extra], { cwd, env: fx.world.env, encoding: 'utf8' }).status;
}
function stage(cwd: string, file: string, text: string): void {
  fs.writeFileSync(path.join(cwd, file), text);
  fx.world.git(['add', file], cwd);
}

describe('GITRUN-3: the phone merges a task whose base moved, in a hostile repository', () => {
  it('GITRUN-3: task.merge with the same file changed on both sides: plain git merge-tree runs the repository\'s merge driver, the relay\'s merge runs no command', async () => {
    // The file both sides change, on main before the task branches.
    stage(fx.world.repo, 'shared.txt', lines('line 1', 'line 10'));
    expect(commit(fx.world.repo, 'main: shared.txt', ['--no-verify'])).toBe(0);
    // The agent claims T-1, changes the first line, is gated, the phone approves, the agent commits.
    expect(fx.world.tool('claim').code).toBe(0);
    await fx.bus.task(fx.repo, 'T-1', stageIs('running'));
    const wt = fx.world.worktree('wt-T-1', 'agent/T-1');
    stage(wt, 'shared.txt', lines('line 1 by the task', 'line 10'));
    expect(commit(wt, 'T-1: shared.txt')).not.toBe(0);
    const waiting = await fx.bus.task(fx.repo, 'T-1', stageIs('approval'));
    await fx.client.request({ type: 'task.approve', repo: fx.repo, task: 'T-1', digest: waiting.life!.digest });
    await fx.bus.task(fx.repo, 'T-1', stageIs('approved'));
    expect(commit(wt, 'T-1: shared.txt')).toBe(0);
    await fx.bus.task(fx.repo, 'T-1', stageIs('committed'));
    const tip = rev('HEAD', wt);
    // The person changes the last line on main: a clean text merge, but a three-way one for this file.
    stage(fx.world.repo, 'shared.txt', lines('line 1', 'line 10 on main'));
    expect(commit(fx.world.repo, 'main: last line', ['--no-verify'])).toBe(0);
    const moved = rev('main');

    // Now the repository turns hostile: the keys in .git/config with .gitattributes, and again in an included file with info/attributes.
    const inConfig = makeHostile(fx.world.repo, fx.world.repo, dirs.make('merge-marker-a-'), 'config', '.gitattributes');
    const inInclude = makeHostile(fx.world.repo, fx.world.repo, dirs.make('merge-marker-b-'), 'include', 'info/attributes');
    const fired = () => [...inConfig.fired(), ...inInclude.fired()];

    // Control: plain git's merge-tree hands shared.txt to the repository's driver.
    const plain = spawnSync('git', ['merge-tree', '--write-tree', '--name-only', '--no-messages', moved, tip], { cwd: fx.world.repo, env: { ...fx.world.env, GIT_CONFIG_NOSYSTEM: '1' }, encoding: 'utf8' });
    expect(plain.status, plain.stderr).toBe(1); // the marker driver exits 1: a conflict
    expect(fired()).toContain('merge-driver');
    for (const m of [inConfig.marker, inInclude.marker]) fs.rmSync(m, { force: true });
    expect(fired()).toEqual([]);

    // The phone's merge: git's own text merge, both changes in, a signed merge commit.
    const ack = await fx.client.request({ type: 'task.merge', repo: fx.repo, task: 'T-1' });
    const result = ack.result as { commit: string; mode: string };
    expect(result.mode).toBe('merge');
    expect(rev('main')).toBe(result.commit);
    expect(fx.world.git(['log', '-1', '--format=%P', 'main']).trim()).toBe(`${moved} ${tip}`);
    expect(fx.world.git(['show', 'main:shared.txt'])).toBe(lines('line 1 by the task', 'line 10 on main'));
    expect(fs.readFileSync(path.join(fx.world.repo, 'shared.txt'), 'utf8')).toBe(lines('line 1 by the task', 'line 10 on main'));
    expect(fired()).toEqual([]);
    expect(fs.existsSync(inConfig.marker) || fs.existsSync(inInclude.marker)).toBe(false);
    dirs.cleanup();
  });
});
