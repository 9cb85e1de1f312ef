// Only the workspace, /tmp and the agent CLIs' state dirs are writable inside the sandbox
// (SANDBOX-10, SANDBOX-11), with real bubblewrap. HOME is a temp dir, never the person's. Every
// refused write is paired with the same write outside succeeding, so the test fails if the
// sandbox stops doing its part.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AGENT_STATE, OPENCODE_CONFIG_SEED, sandboxArgv, sandboxSupport, type SandboxSpec } from '../../adapters/sandbox';
import { runInside } from './run-inside';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

let tmp: string;
let home: string;
let spec: SandboxSpec;

const inside = (script: string) => runInside(spec, script, { HOME: home });

/** The person's files an agent must not change: each exists with known content. */
const personal = () => ({
  gitconfig: path.join(home, '.gitconfig'),
  xdgGit: path.join(home, '.config', 'git', 'config'),
  xdgAttributes: path.join(home, '.config', 'git', 'attributes'),
  bashrc: path.join(home, '.bashrc'),
  profile: path.join(home, '.profile'),
  claudeSettings: path.join(home, '.claude', 'settings.json'),
  claudeLocal: path.join(home, '.claude', 'settings.local.json'),
  systemdUnit: path.join(home, '.config', 'systemd', 'user', 'x.service'),
});

beforeAll(() => {
  expect(sandboxSupport()).toMatchObject({ ok: true, kind: 'bwrap' });
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'sandbox-home-')));
  home = path.join(tmp, 'home');
  for (const file of Object.values(personal())) {
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, '# ORIGINAL\n');
  }
  const dataDir = path.join(tmp, 'data');
  const repo = path.join(tmp, 'repo');
  fs.mkdirSync(path.join(repo, '.agents'), { recursive: true });
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, '-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '--allow-empty', '-m', 'init');
  const worktree = path.join(dataDir, 'worktrees', 'r1', 'T-1');
  git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-1', worktree);
  spec = { cwd: worktree, repo, gitCommonDir: path.join(repo, '.git'), dataDir, home };
});

afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true });
});

describe('what the sandbox lets an agent write', () => {
  it('SANDBOX-10: the person\'s ~/.gitconfig, ~/.config/git/config and attributes, ~/.bashrc, ~/.profile and systemd user units are read-only inside; the same writes succeed outside', async () => {
    const files = personal();
    for (const name of ['gitconfig', 'xdgGit', 'xdgAttributes', 'bashrc', 'profile', 'systemdUnit'] as const) {
      const r = await inside(`echo TAMPERED >> ${JSON.stringify(files[name])}`);
      expect(r.code, name).not.toBe(0);
      expect(r.stderr, name).toMatch(/Read-only file system/);
      expect(fs.readFileSync(files[name], 'utf8'), name).toBe('# ORIGINAL\n');
    }
    // git config --global is what an agent would use: refused too; a new file in HOME neither.
    expect((await inside('git config --global filter.x.clean "touch /tmp/pwned"')).code).not.toBe(0);
    expect((await inside(`echo x > ${JSON.stringify(path.join(home, '.new-dotfile'))}`)).code).not.toBe(0);
    expect(fs.existsSync(path.join(home, '.new-dotfile'))).toBe(false);
    // Control: outside, the very same write works (the files are not read-only by themselves).
    execFileSync('bash', ['-c', `echo OUTSIDE >> ${JSON.stringify(files.bashrc)}`]);
    expect(fs.readFileSync(files.bashrc, 'utf8')).toBe('# ORIGINAL\nOUTSIDE\n');
    fs.writeFileSync(files.bashrc, '# ORIGINAL\n');
  });

  it('SANDBOX-10: the worktree, git commit, /tmp and the agent CLIs\' state dirs stay writable', async () => {
    const stamp = `stamp-${process.pid}-${Date.now()}`;
    const r = await inside([
      'set -e',
      'echo work > work.txt',
      'git add work.txt',
      'git -c user.name=a -c user.email=a@a commit -q -m work',
      `echo t > /tmp/${stamp}`,
      'mkdir -p ~/.claude/projects/p && echo s > ~/.claude/projects/p/s.jsonl',
      'echo db > ~/.local/share/opencode/x && echo st > ~/.local/state/opencode/x && echo c > ~/.cache/opencode/x',
      'echo n > ~/.npm/x',
      'echo ok',
    ].join('\n'));
    expect(r.stderr).toBe('');
    expect(r.stdout.trim()).toBe('ok');
    expect(git(spec.repo!, 'log', '-1', '--format=%s', 'agent/T-1')).toBe('work');
    expect(fs.readFileSync(path.join(home, '.claude', 'projects', 'p', 's.jsonl'), 'utf8')).toBe('s\n');
    for (const s of AGENT_STATE) expect(fs.statSync(path.join(home, s.path)).isDirectory(), s.path).toBe(true);
    expect(fs.readFileSync(path.join('/tmp', stamp), 'utf8')).toBe('t\n');
    fs.rmSync(path.join('/tmp', stamp));
  });

  it('SANDBOX-11: inside Claude Code\'s writable ~/.claude, its settings (hooks) and plugins, commands, agents, skills stay read-only', async () => {
    const files = personal();
    for (const file of [files.claudeSettings, files.claudeLocal]) {
      const r = await inside(`echo '{"hooks":{}}' > ${JSON.stringify(file)}`);
      expect(r.stderr).toMatch(/Read-only file system/);
      expect(fs.readFileSync(file, 'utf8')).toBe('# ORIGINAL\n');
    }
    for (const dir of ['plugins', 'commands', 'agents', 'skills', 'hooks']) {
      const r = await inside(`echo x > ~/.claude/${dir}/planted`);
      expect(r.stderr, dir).toMatch(/Read-only file system/);
      expect(fs.existsSync(path.join(home, '.claude', dir, 'planted')), dir).toBe(false);
    }
  });

  it('SANDBOX-16: on a HOME without ~/.config, OpenCode\'s config dir and its .gitignore are made first, so the CLI finds them, and stay read-only inside', async () => {
    const bare = path.join(tmp, 'bare-home');
    fs.mkdirSync(bare);
    const r = await runInside({ ...spec, home: bare }, 'mkdir -p ~/.config/opencode && echo made; echo x > ~/.config/opencode/opencode.json', { HOME: bare });
    expect(r.stdout).toContain('made');
    expect(r.stderr).toMatch(/Read-only file system/);
    expect(fs.statSync(path.join(bare, '.config', 'opencode')).mode & 0o777).toBe(0o700);
    expect(fs.readdirSync(path.join(bare, '.config', 'opencode'))).toEqual(['.gitignore']);
    // One the person has is left as it is.
    fs.writeFileSync(path.join(bare, OPENCODE_CONFIG_SEED.path), 'mine\n');
    await runInside({ ...spec, home: bare }, 'true', { HOME: bare });
    expect(fs.readFileSync(path.join(bare, OPENCODE_CONFIG_SEED.path), 'utf8')).toBe('mine\n');
  });
});
