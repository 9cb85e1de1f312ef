// FINISH-10: the relay says whether a task's branch has a remote to go to — its upstream's remote,
// else origin, with a URL — read from a real repository's git config, and follows the config as it changes.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { hasRemote } from '../../relay/watch/repo-remotes';

let repo = '';
const git = (...args: string[]) => execFileSync('git', args, { cwd: repo, stdio: 'pipe' });

beforeEach(() => {
  repo = mkdtempSync(path.join(tmpdir(), 'remotes-'));
  git('init', '-q', '-b', 'main');
});
afterEach(() => rmSync(repo, { recursive: true, force: true }));

describe('FINISH-10: a branch has a remote to go to', () => {
  it('FINISH-10: no remote, then origin, then only the branch\'s upstream', () => {
    expect(hasRemote(repo, 'agent/T-1')).toBe(false);
    git('remote', 'add', 'origin', 'https://example.com/r.git');
    expect(hasRemote(repo, 'agent/T-1')).toBe(true);
    git('remote', 'remove', 'origin');
    git('remote', 'add', 'up', 'https://example.com/u.git');
    expect(hasRemote(repo, 'agent/T-1')).toBe(false); // another remote, but not the one push uses
    git('config', 'branch.agent/T-1.remote', 'up');
    expect(hasRemote(repo, 'agent/T-1')).toBe(true);
  });

  it('FINISH-10: a folder git cannot read says nothing rather than "no remote"', () => {
    expect(hasRemote(path.join(repo, 'missing'), 'agent/T-1')).toBeUndefined();
  });
});
