import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { busOfDirectory, locateGit } from './locate';

let dir: string | undefined;
afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));
const env = { ...process.env, GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@e', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@e' };
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, env, stdio: 'ignore' });

describe('locate', () => {
  it('LAYOUT-1: from a worktree the bus is dirname(realpath(common dir))/.agents, matching git rev-parse', () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'locate-')));
    const repo = path.join(dir, 'repo');
    fs.mkdirSync(repo);
    git(repo, 'init', '-q', '-b', 'main');
    git(repo, 'commit', '-q', '--allow-empty', '-m', 'i');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent/X', path.join(dir, 'wt'));
    fs.symlinkSync(path.join(dir, 'wt'), path.join(dir, 'link'));
    const common = execFileSync('git', ['rev-parse', '--git-common-dir'], { cwd: path.join(dir, 'wt'), env, encoding: 'utf8' }).trim();
    const expected = path.join(path.dirname(fs.realpathSync(path.resolve(dir, 'wt', common))), '.agents');
    for (const cwd of [repo, path.join(dir, 'wt'), path.join(dir, 'link')]) expect(locateGit(cwd, {}).bus).toBe(expected);
    const place = locateGit(path.join(dir, 'wt'), {});
    expect(place.worktree).toBe(path.join(dir, 'wt'));
    expect(place.gitDir).toBe(path.join(repo, '.git', 'worktrees', 'wt'));
    expect(locateGit(repo, { GIT_DIR: path.join(repo, '.git', 'worktrees', 'wt') }).bus).toBe(expected);
  });

  it('LAYOUT-1: outside a git work tree the index fold uses <dir>/.agents', () => {
    dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'locate-')));
    expect(busOfDirectory(dir)).toBe(path.join(dir, '.agents'));
  });
});
