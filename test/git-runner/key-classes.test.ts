// GITRUN-2: for each class of config key that names a command, set by the repository itself
// (its .git/config, or a file that config includes from the work tree) and reached through
// .gitattributes or .git/info/attributes where it is a driver: plain git runs the command (the
// control, so the test can fail), the runner does not, and the git command still does its job.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as http from 'node:http';
import type { AddressInfo } from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { gitResult, plan } from '../../bus/git/run';
import { git, makeHostile, type AttrSource, type Source } from './hostile';

const temps: string[] = [];
afterAll(() => { for (const d of temps) fs.rmSync(d, { recursive: true, force: true }); });

let authUrl = '';
let server: http.Server;
beforeAll(async () => {
  // Answers every request with 401: git then asks credential helpers and askpass for a password.
  server = http.createServer((_req, res) => { res.writeHead(401, { 'WWW-Authenticate': 'Basic realm="x"' }); res.end(); });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  authUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/repo.git`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

interface Fixture { dir: string; repo: string; bare: string }

function fixture(): Fixture {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'gitrun-')));
  temps.push(dir);
  const repo = path.join(dir, 'repo');
  const bare = path.join(dir, 'bare.git');
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  git(dir, 'init', '-q', '--bare', bare);
  git(repo, 'config', 'user.name', 't');
  git(repo, 'config', 'user.email', 't@example.com');
  for (const f of ['a.txt', 'b.p', 'c.q']) fs.writeFileSync(path.join(repo, f), `${f}\n`);
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'initial');
  git(repo, 'remote', 'add', 'origin', bare);
  git(repo, 'push', '-q', 'origin', 'main');
  return { dir, repo, bare };
}

const change = (f: Fixture, file: string): void => fs.appendFileSync(path.join(f.repo, file), 'more\n');
const stage = (f: Fixture, file: string): void => { change(f, file); git(f.repo, 'add', file); };
const commitChange = (f: Fixture): void => { stage(f, 'a.txt'); git(f.repo, 'commit', '-q', '-m', 'change'); };

interface Case {
  cls: string;
  /** Before the repository is made hostile. */
  prepare?: (f: Fixture) => void;
  /** After. */
  after?: (f: Fixture) => void;
  args: (f: Fixture) => string[];
  /** Whether the git command can succeed here (no server exists for ssh, git:// or the 401 one). */
  works: boolean;
  attrs?: boolean;
}

const CASES: Case[] = [
  { cls: 'fsmonitor', prepare: (f) => change(f, 'a.txt'), args: () => ['status', '--porcelain'], works: true },
  { cls: 'hook', args: () => ['commit', '-q', '--allow-empty', '-m', 'hooked'], works: true },
  { cls: 'filter-clean', prepare: (f) => change(f, 'a.txt'), args: () => ['add', 'a.txt'], works: true, attrs: true },
  // A racily clean index entry (the index no newer than the file): writing the index re-reads the file through its clean filter.
  { cls: 'filter-clean', prepare: (f) => { stage(f, 'a.txt'); const t = fs.statSync(path.join(f.repo, 'a.txt')).mtime; fs.utimesSync(path.join(f.repo, '.git', 'index'), t, t); }, args: () => ['write-tree'], works: true, attrs: true },
  { cls: 'filter-process', prepare: (f) => change(f, 'b.p'), args: () => ['add', 'b.p'], works: true, attrs: true },
  { cls: 'filter-name-with-equals', prepare: (f) => change(f, 'c.q'), args: () => ['add', 'c.q'], works: true, attrs: true },
  // The new worktree reads the attributes it checks out: commit them (plain git; no clean command is set in this row).
  { cls: 'filter-smudge', after: (f) => { if (fs.existsSync(path.join(f.repo, '.gitattributes'))) git(f.repo, 'add', '-f', '.gitattributes'); git(f.repo, '-c', 'core.hooksPath=/dev/null', 'commit', '-q', '--allow-empty', '-m', 'attributes'); }, args: (f) => ['worktree', 'add', '-q', '--detach', path.join(f.dir, 'wt'), 'HEAD'], works: true, attrs: true },
  { cls: 'textconv', prepare: commitChange, args: () => ['log', '-p', '-1'], works: true, attrs: true },
  { cls: 'diff-command', prepare: (f) => stage(f, 'a.txt'), args: () => ['diff', '--cached'], works: true, attrs: true },
  { cls: 'diff-external', prepare: (f) => stage(f, 'a.txt'), args: () => ['diff', '--cached'], works: true },
  { cls: 'editor', args: () => ['commit', '-q', '--allow-empty', '-m', 'edited', '-e'], works: true },
  { cls: 'gpg', args: () => ['commit', '-q', '--allow-empty', '-m', 'signed?'], works: true },
  { cls: 'upload-pack', args: () => ['fetch', '-q', 'origin'], works: true },
  { cls: 'upload-pack', prepare: commitChange, args: () => ['push', '-q', 'origin', 'HEAD:refs/heads/pushed'], works: true },
  { cls: 'upload-pack', args: () => ['ls-remote', 'origin'], works: true },
  { cls: 'ssh-command', args: () => ['ls-remote', 'ssh://127.0.0.1:1/x'], works: false },
  { cls: 'git-proxy', args: () => ['ls-remote', 'git://127.0.0.1:1/x'], works: false },
  { cls: 'credential-helper', args: () => ['ls-remote', authUrl], works: false },
  { cls: 'askpass', args: () => ['ls-remote', authUrl], works: false },
];

type Row = [string, Source, AttrSource, string, Case];
const via = (c: Case): string => c.args({ dir: '/d', repo: '/r', bare: '/b' })[0]!;
const ROWS: Row[] = CASES.flatMap((c): Row[] => [
  [c.cls, 'config', '.gitattributes', via(c), c],
  [c.cls, 'include', '.gitattributes', via(c), c],
  ...(c.attrs ? [[c.cls, 'config', 'info/attributes', via(c), c] as Row] : []),
]);

describe('every key class, neutralised', () => {
  it.each(ROWS)('GITRUN-2: %s set through the repo %s (attributes in %s), git %s: plain git runs it, the runner does not and still works', async (cls, source, attrs, _via, c) => {
    // The control: plain git in a twin repository runs the command.
    const control = fixture();
    c.prepare?.(control);
    const hostileControl = makeHostile(control.repo, control.repo, control.dir, source, attrs, [cls]);
    c.after?.(control);
    // Not spawnSync: the 401 server answering git lives in this process's event loop.
    await new Promise((resolve) => spawn('git', c.args(control), { cwd: control.repo, stdio: 'ignore', timeout: 20_000 }).on('close', resolve));
    expect(hostileControl.fired()).toContain(cls);

    const f = fixture();
    c.prepare?.(f);
    const hostile = makeHostile(f.repo, f.repo, f.dir, source, attrs, [cls]);
    c.after?.(f);
    const r = await gitResult(c.args(f), { cwd: f.repo, timeoutMs: 20_000 });
    expect(hostile.fired()).toEqual([]);
    if (c.works) expect(r.code, r.stderr).toBe(0);
  });

  it('GITRUN-2: merges, rebases and the tools that start editors, pagers or mail are refused by the runner; a flag that asks for a driver is refused', () => {
    for (const sub of ['merge', 'rebase', 'cherry-pick', 'revert', 'difftool', 'mergetool', 'send-email', 'am', 'pull', 'submodule', 'filter-branch', 'instaweb', 'help']) {
      expect(() => plan([sub]), sub).toThrow(TypeError);
    }
    expect(() => plan(['diff', '--textconv'])).toThrow(/--textconv/);
    expect(() => plan(['cat-file', '--filters', 'HEAD:a'])).toThrow(/--filters/);
    expect(() => plan(['log', '--ext-diff'])).toThrow(/--ext-diff/);
    expect(plan(['-c', 'x.y=1', 'diff', '--cached']).args.slice(-6)).toEqual(['-c', 'x.y=1', 'diff', '--no-ext-diff', '--no-textconv', '--cached']);
    expect(plan(['diff', '--cached']).args).toContain('core.fsmonitor=false');
  });

  it('GITRUN-2: the person\'s own (global) filter driver keeps working where the repository overrides it; a repo-only one is switched off', async () => {
    const f = fixture();
    const home = path.join(f.dir, 'home');
    fs.mkdirSync(home);
    const upper = path.join(f.dir, 'upper.sh');
    fs.writeFileSync(upper, '#!/bin/sh\ntr a-z A-Z\n', { mode: 0o755 });
    execFileSync('git', ['config', '--global', 'filter.evil.clean', upper], { env: { ...process.env, HOME: home } });
    makeHostile(f.repo, f.repo, f.dir, 'config', '.gitattributes', ['filter-clean']);
    fs.writeFileSync(path.join(f.repo, 'a.txt'), 'hello\n');
    const env = { ...process.env, HOME: home, XDG_CONFIG_HOME: path.join(home, '.config') };
    await gitResult(['add', 'a.txt'], { cwd: f.repo, env });
    expect(git(f.repo, 'cat-file', 'blob', ':a.txt')).toBe('HELLO\n');
    expect(fs.existsSync(path.join(f.dir, 'marker'))).toBe(false);
  });
});

describe('the runner\'s environment', () => {
  it('GITRUN-4: GIT_DIR / GIT_INDEX_FILE of this process do not follow a run unless the caller passes its environment; discovery stops at the given top; a failure names the command and git\'s words', async () => {
    const f = fixture();
    const other = fixture();
    const saved = { GIT_DIR: process.env.GIT_DIR, GIT_INDEX_FILE: process.env.GIT_INDEX_FILE };
    process.env.GIT_DIR = path.join(other.repo, '.git');
    process.env.GIT_INDEX_FILE = path.join(other.dir, 'no-such-index');
    try {
      const top = (await gitResult(['rev-parse', '--show-toplevel'], { cwd: f.repo })).stdout.toString('utf8').trim();
      expect(top).toBe(f.repo);
      const passed = await gitResult(['rev-parse', '--absolute-git-dir'], { cwd: f.repo, env: process.env });
      expect(passed.stdout.toString('utf8').trim()).toBe(path.join(other.repo, '.git'));
    } finally {
      for (const [k, v] of Object.entries(saved)) if (v === undefined) delete process.env[k]; else process.env[k] = v;
    }
    const inside = path.join(f.repo, 'plain');
    fs.mkdirSync(inside);
    const r = await gitResult(['rev-parse', '--git-dir'], { cwd: inside, top: inside });
    expect(r.code).not.toBe(0); // the repo above `top` is not found
    await expect(gitResult(['rev-parse', '--git-dir'], { cwd: inside, top: inside }).then((x) => x.code)).resolves.toBe(128);
    const { git: run } = await import('../../bus/git/run');
    await expect(run(['rev-parse', '--verify', 'no-such-ref'], { cwd: f.repo })).rejects.toMatchObject({ code: 'E_GIT', message: expect.stringContaining('git rev-parse --verify no-such-ref failed in') });
  });
});
