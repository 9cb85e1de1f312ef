// `commandr doctor` (DOCTOR-1, READY-1) as a person runs it: the real bin, a temp HOME and
// COMMANDR_HOME, the real Claude Code binary of this install, a relay URL nothing listens on.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '../..');
const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'commandr-doctor-')));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

function doctor(extra: Record<string, string>) {
  const env = { PATH: process.env.PATH, HOME: path.join(tmp, 'home'), COMMANDR_HOME: path.join(tmp, 'data'), COMMANDR_URL: 'http://127.0.0.1:9', COMMANDR_CLAUDE_BIN: path.join(ROOT, 'node_modules', '.bin', 'claude'), ...extra };
  fs.mkdirSync(env.HOME, { recursive: true });
  return spawnSync(path.join(ROOT, 'bin', 'commandr'), ['doctor'], { encoding: 'utf8', env: env as unknown as NodeJS.ProcessEnv, timeout: 60_000 });
}

describe('commandr doctor', () => {
  it('DOCTOR-1 READY-1: says Claude Code is not logged in, with the fix, and exits 1; every check has a line', () => {
    const r = doctor({});
    expect(r.status, r.stderr).toBe(1);
    expect(r.stdout).toContain('FAIL Claude Code logged in: Claude Code is not logged in on this machine: run `claude` and `/login`');
    expect(r.stdout).toMatch(/fix: run `claude`, then `\/login`/);
    for (const name of ['Claude Code installed', 'OpenCode installed', 'git', 'relay over HTTPS', 'push keys', 'wired repos']) expect(r.stdout).toContain(`${name}:`);
    expect(r.stdout).toContain('fix: start the relay: `commandr serve`');
  });

  it('DOCTOR-1 READY-1: an API key counts as logged in; a registered repo without hooks gets `commandr wire <repo>` as its fix', () => {
    const repo = path.join(tmp, 'repo');
    fs.mkdirSync(repo, { recursive: true });
    spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
    expect(spawnSync(path.join(ROOT, 'bin', 'commandr'), ['init'], { cwd: repo, env: { ...process.env, HOME: path.join(tmp, 'home'), COMMANDR_HOME: path.join(tmp, 'data'), AGENTS_INDEX_REPOS: path.join(tmp, 'repos') } }).status).toBe(0);
    const r = doctor({ ANTHROPIC_API_KEY: 'sk-test', AGENTS_INDEX_REPOS: path.join(tmp, 'repos') });
    expect(r.stdout).toContain('ok   Claude Code logged in');
    expect(r.stdout).toContain(`ok   gated: ${repo}: approval hooks installed`);
    expect(r.stdout).toContain(`fix: commandr wire ${repo}`);
    expect(r.status, r.stdout).toBe(0);
  });

  it('DOCTOR-1: a registered repo whose merge hooks are missing (set up by an older install) fails, with `commandr init <repo>` as its fix', () => {
    const repo = path.join(tmp, 'repo');
    const hooks = path.join(repo, '.git', 'hooks');
    for (const name of ['pre-merge-commit', 'post-merge']) fs.rmSync(path.join(hooks, name));
    const r = doctor({ ANTHROPIC_API_KEY: 'sk-test', AGENTS_INDEX_REPOS: path.join(tmp, 'repos') });
    expect(r.stdout).toContain(`FAIL gated: ${repo}: hooks pre-merge-commit, post-merge missing or not commandr's: agents can commit or merge there without an approval`);
    expect(r.stdout).toContain(`fix: commandr init ${repo}`);
    expect(r.status, r.stdout).toBe(1);
  });

  it('DOCTOR-2: a registered repo whose index tracks notes (or other local bus files) fails, naming them, with `git rm -r --cached` as its fix', () => {
    const repo = path.join(tmp, 'cloned');
    fs.mkdirSync(repo, { recursive: true });
    const git = (...args: string[]) => spawnSync('git', args, { cwd: repo, encoding: 'utf8' });
    git('init', '-q', '-b', 'main');
    const registry = path.join(tmp, 'repos-cloned');
    expect(spawnSync(path.join(ROOT, 'bin', 'commandr'), ['init'], { cwd: repo, env: { ...process.env, HOME: path.join(tmp, 'home'), COMMANDR_HOME: path.join(tmp, 'data'), AGENTS_INDEX_REPOS: registry } }).status).toBe(0);
    fs.writeFileSync(path.join(repo, '.agents', 'inbox', 'T-1.md'), '---\nid: T-1\ntype: implementation\nscope: "**"\n---\n');
    git('add', '-A');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--no-verify', '-m', 'shared bus files only');
    const clean = doctor({ ANTHROPIC_API_KEY: 'sk-test', AGENTS_INDEX_REPOS: registry });
    expect(clean.stdout).toContain(`ok   bus files untracked: ${repo}`);
    // What a hostile repository ships: a note posing as the person's, forced past the .gitignore.
    fs.mkdirSync(path.join(repo, '.agents', 'annotations', 'T-1'), { recursive: true });
    fs.writeFileSync(path.join(repo, '.agents', 'annotations', 'T-1', '0001-0000.json'), '{}\n');
    git('add', '-f', '.agents/annotations/T-1/0001-0000.json');
    git('-c', 'user.email=t@example.com', '-c', 'user.name=T', 'commit', '-q', '--no-verify', '-m', 'notes');
    const r = doctor({ ANTHROPIC_API_KEY: 'sk-test', AGENTS_INDEX_REPOS: registry });
    expect(r.stdout).toContain(`FAIL bus files untracked: ${repo}: git tracks .agents/annotations/T-1/0001-0000.json: they came with the repository`);
    expect(r.stdout).toContain(`fix: cd ${repo} && git rm -r --cached -- .agents/annotations && git commit`);
    expect(r.stdout).not.toContain('inbox/T-1.md');
    expect(r.status, r.stdout).toBe(1);
  });

  it('DOCTOR-3: a wired repo is current; hooks of another install and an OpenCode plugin whose Node is gone are named, with `commandr wire <repo>` as the fix', () => {
    const repo = path.join(tmp, 'wired');
    fs.mkdirSync(repo, { recursive: true });
    spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
    const registry = path.join(tmp, 'repos-wired');
    const env = { ...process.env, HOME: path.join(tmp, 'home'), COMMANDR_HOME: path.join(tmp, 'data'), AGENTS_INDEX_REPOS: registry };
    expect(spawnSync(path.join(ROOT, 'bin', 'commandr'), ['init', '--wire'], { cwd: repo, env }).status).toBe(0);
    const wire = (...adapter: string[]) => expect(spawnSync(path.join(ROOT, 'bin', 'commandr'), ['wire', repo, ...adapter], { env, encoding: 'utf8' }).status).toBe(0);
    wire('--adapter', 'opencode');
    const plugin = path.join(repo, '.opencode', 'plugin', 'commandr.js');
    expect(fs.existsSync(plugin)).toBe(true);
    const check = () => doctor({ ANTHROPIC_API_KEY: 'sk-test', AGENTS_INDEX_REPOS: registry }).stdout;
    expect(check()).toContain(`ok   wired: ${repo}: hooks installed and current`);

    // The install moved (a new clone, a reinstall): the hooks name files that are not this install's.
    const settingsFile = path.join(repo, '.claude', 'settings.local.json');
    const settings = fs.readFileSync(settingsFile, 'utf8');
    fs.writeFileSync(settingsFile, settings.split(ROOT).join('/opt/old-commandr'));
    const moved = check();
    expect(moved).toMatch(new RegExp(`warn wired: ${repo.replace(/[/.]/g, '\\$&')}: Claude Code hooks from an older install or another location \\(.*PreToolUse`));
    expect(moved).toContain(`fix: commandr wire ${repo}`);
    wire();
    expect(check()).toContain(`ok   wired: ${repo}: hooks installed and current`);

    // Node was upgraded away: the plugin would start nothing, and OpenCode would not say so.
    const source = fs.readFileSync(plugin, 'utf8');
    fs.writeFileSync(plugin, source.replace(/^const NODE = .*$/m, 'const NODE = "/opt/node-18/bin/node";'));
    expect(check()).toContain(`warn wired: ${repo}: the OpenCode plugin runs /opt/node-18/bin/node, which no longer exists`);
    expect(check()).toContain(`fix: commandr wire ${repo} --adapter opencode`);
    fs.writeFileSync(plugin, source.replace('const MAX_OUTPUT = 4000;', 'const MAX_OUTPUT = 2000;'));
    expect(check()).toContain(`warn wired: ${repo}: the OpenCode plugin is from an older install or another location`);
    wire('--adapter', 'opencode');
    expect(check()).toContain(`ok   wired: ${repo}: hooks installed and current`);
    // Missing hooks are said as such.
    fs.rmSync(settingsFile);
    expect(check()).toContain(`warn wired: ${repo}: Claude Code hooks missing`);
  });
});
