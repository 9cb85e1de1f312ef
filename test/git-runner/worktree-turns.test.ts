// GITRUN-6: `git worktree add` writes its `.git/worktrees/<id>/` entry file by file, and another
// `git worktree` run that reads the entries meanwhile dies ("failed to read
// .git/worktrees/<id>/commondir"). CI met it once, building the demo, whose three task worktrees
// are added side by side. So the runner takes `worktree` commands one at a time. Here real git,
// behind a shim on PATH that logs when each `worktree` run starts and ends, serves six task
// worktrees asked for at once (the job service's ensureTaskWorktree) and the diff's worktree
// lookups beside them: the log must show each run ending before the next one starts.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { branchWorktree } from '../../bus/diff';
import { gitResultSync, gitStream } from '../../bus/git/run';
import { ensureTaskWorktree } from '../../relay/jobs/worktree';
import { TempDirs } from '../council/fixtures';

const dirs = new TempDirs();
afterAll(() => dirs.cleanup());

const REAL_GIT = execFileSync('sh', ['-c', 'command -v git'], { encoding: 'utf8' }).trim();

/** A `git` first on PATH that runs the real one and logs `start <pid>` / `end <pid>` around each worktree command. */
function loggingGit(dir: string, log: string): string {
  const bin = path.join(dir, 'bin');
  fs.mkdirSync(bin);
  fs.writeFileSync(path.join(bin, 'git'), [
    '#!/bin/sh',
    'case " $* " in *" worktree "*) w=1 ;; *) w= ;; esac',
    `[ -n "$w" ] && echo "start $$" >> '${log}'`,
    `'${REAL_GIT}' "$@"`,
    'rc=$?',
    `[ -n "$w" ] && echo "end $$" >> '${log}'`,
    'exit $rc',
    '',
  ].join('\n'), { mode: 0o755 });
  return bin;
}

/** The runs that overlapped: a start while another run had not ended. */
function overlaps(log: string): string[] {
  const out: string[] = [];
  let open: string | undefined;
  for (const line of fs.readFileSync(log, 'utf8').trim().split('\n')) {
    const [what, pid] = line.split(' ');
    if (what === 'start') {
      if (open !== undefined) out.push(`${pid} started while ${open} ran`);
      open = pid;
    } else if (pid === open) open = undefined;
  }
  return out;
}

describe('GITRUN-6: worktree commands one at a time', () => {
  it('GITRUN-6: six task worktrees asked for at once, with lookups beside them, are added one after another and all made', async () => {
    const dir = dirs.make('commandr-wt-turns-');
    const repo = path.join(dir, 'repo');
    const log = path.join(dir, 'worktree-runs.log');
    execFileSync(REAL_GIT, ['init', '-q', '-b', 'main', repo]);
    execFileSync(REAL_GIT, ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'first'], { cwd: repo });
    const savedPath = process.env.PATH;
    process.env.PATH = `${loggingGit(dir, log)}:${savedPath}`;
    try {
      const tasks = ['T-1', 'T-2', 'T-3', 'T-4', 'T-5', 'T-6'];
      const root = path.join(dir, 'worktrees');
      const [made] = await Promise.all([
        Promise.all(tasks.map((t) => ensureTaskWorktree(repo, t, root))),
        Promise.all(tasks.map((t) => branchWorktree(repo, `agent/${t}`))),
      ]);
      expect(made).toEqual(tasks.map((t) => fs.realpathSync(path.join(root, t))));
      for (const t of tasks) expect(await branchWorktree(repo, `agent/${t}`)).toBe(fs.realpathSync(path.join(root, t)));
    } finally {
      process.env.PATH = savedPath;
    }
    const runs = fs.readFileSync(log, 'utf8').trim().split('\n').filter((l) => l.startsWith('start')).length;
    expect(runs).toBeGreaterThanOrEqual(6 * 3 + 6); // per task a list, a prune and an add, plus the lookups
    expect(overlaps(log)).toEqual([]);
  });

  it('GITRUN-6: the check itself sees runs that overlap (the log of two runs side by side)', () => {
    const dir = dirs.make('commandr-wt-turns-');
    const log = path.join(dir, 'log');
    fs.writeFileSync(log, 'start 1\nstart 2\nend 1\nend 2\nstart 3\nend 3\n');
    expect(overlaps(log)).toEqual(['2 started while 1 ran']);
  });

  it('GITRUN-6: a sync or streaming worktree run is refused, naming why: it could not wait its turn', async () => {
    const why = /worktree commands run only through gitResult, git and gitText, one at a time \(GITRUN-6\)/;
    expect(() => gitResultSync(['worktree', 'list'], { cwd: '/' })).toThrow(why);
    await expect(gitStream(['worktree', 'list'], { cwd: '/' }, () => {})).rejects.toThrow(why);
  });
});
