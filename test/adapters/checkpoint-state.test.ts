// HOOK-1: the work state a checkpoint compares is read with one `git status --porcelain=v2
// --branch` run (no `git rev-parse HEAD` beside it: every git start costs the relay a fork of its
// whole process at each turn end). It must be the state the two runs gave — HEAD plus the v1
// `git status --porcelain` lines — or an upgrade would write a checkpoint for a state that did not
// change. Real repositories in each state git distinguishes: unborn, untracked, staged, renamed,
// quoted and spaced names, a conflict (v2 lists unmerged entries last, v1 in path order), detached.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { workState, workStateAsync } from '../../adapters/lib/checkpoint';
import { cleanup, git, makeRepo } from './harness';

afterAll(cleanup);

/** The state as it was read before: `git rev-parse HEAD` and v1 porcelain, hashed the same way. */
function twoRuns(repo: string): { hash: string; head?: string; changed: string[] } {
  let head: string | undefined;
  try {
    head = git(repo, 'rev-parse', '--verify', '-q', 'HEAD').trim() || undefined;
  } catch {
    head = undefined;
  }
  const porcelain = git(repo, 'status', '--porcelain', '--untracked-files=all', '--ignore-submodules=dirty', '--', '.', ':(exclude).agents/inbox/', ':(exclude).agents/done/');
  return {
    hash: createHash('sha256').update(`${head ?? ''}\n${porcelain}`).digest('hex'),
    head,
    changed: porcelain.split('\n').filter((l) => l.length > 3).map((l) => l.slice(3)),
  };
}

describe('the work state in one git run', () => {
  it('HOOK-1: every state reads as HEAD plus the v1 porcelain lines did, sync and async', async () => {
    const { repo } = makeRepo();
    const write = (name: string, text = 'x\n') => fs.writeFileSync(path.join(repo, name), text);
    const states: string[] = [];
    const check = async (label: string) => {
      states.push(label);
      const before = twoRuns(repo);
      expect({ label, ...workState(repo) }).toEqual({ label, ...before });
      expect({ label, ...(await workStateAsync(repo)) }).toEqual({ label, ...before });
    };
    await check('committed and clean');
    write('a.txt');
    write('we ird "q"\tname é.txt');
    fs.mkdirSync(path.join(repo, 'sub dir'));
    write(path.join('sub dir', 'f'));
    await check('untracked, quoted and spaced names');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'files');
    write('a.txt', 'changed\n');
    git(repo, 'mv', 'a.txt', 'b c.txt');
    git(repo, 'mv', 'we ird "q"\tname é.txt', 'renamed ü');
    fs.rmSync(path.join(repo, 'sub dir', 'f'));
    await check('renamed (one also modified), deleted');
    git(repo, 'add', '-A');
    git(repo, 'commit', '-q', '-m', 'renames');
    git(repo, 'checkout', '-q', '-b', 'side');
    write('m', '1\n');
    git(repo, 'add', 'm');
    git(repo, 'commit', '-q', '-m', 'side');
    git(repo, 'checkout', '-q', '-');
    write('m', '2\n');
    git(repo, 'add', 'm');
    git(repo, 'commit', '-q', '-m', 'main');
    write('renamed ü', 'edited\n');
    expect(() => git(repo, 'merge', '-q', 'side')).toThrow();
    await check('a conflict before a modified file');
    git(repo, 'merge', '--abort');
    git(repo, 'checkout', '-q', '--detach');
    fs.chmodSync(path.join(repo, 'm'), 0o755);
    await check('detached, a mode change');
    expect(states).toHaveLength(5);
  });

  it('HOOK-1: an unborn branch has no HEAD, as before', async () => {
    const { repo } = makeRepo();
    fs.rmSync(path.join(repo, '.git'), { recursive: true });
    git(repo, 'init', '-q');
    fs.writeFileSync(path.join(repo, 'new.txt'), 'x');
    git(repo, 'add', 'new.txt');
    const state = await workStateAsync(repo);
    expect(state.head).toBeUndefined();
    expect(state).toEqual(twoRuns(repo));
    expect(state.changed).toContain('new.txt');
  });
});
