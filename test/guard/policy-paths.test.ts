// The holes an attacking agent found in the shipped policy (issue 30): each once came back
// `allow` from the wired PreToolUse hook. Judged here by the policy entry point with the
// shipped default, in real temp dirs with real symbolic links, by the hook's own decision
// code, and by the real hook executable with no relay running (it fails closed: ask).
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { decidePermission } from '../../adapters/claude/lib/permission-decide';
import { systemReadlink } from '../../policy/fs-view';
import { loadPolicy } from '../../policy/load';
import { evaluate, type ToolRequest } from '../../policy/policy';
import { agentSandboxed, sandboxState } from '../../policy/sandboxed';
import { tempDir } from '../permissions/helpers';

const ROOT_DIR = path.resolve(__dirname, '..', '..');
const DEFAULT = path.join(ROOT_DIR, 'policy', 'default-policy.yaml');
const HOOK = path.join(ROOT_DIR, 'adapters', 'claude', 'hooks', 'permission');
const BIN = path.join(ROOT_DIR, 'bin', 'commandr');
const policy = loadPolicy({ defaultFile: DEFAULT });
const cleanups: Array<() => unknown> = [];
afterEach(() => { while (cleanups.length) cleanups.pop()!(); });

let home: string;
let repo: string;
let data: string;
beforeEach(() => {
  home = tempDir('commandr-polpath-home-', cleanups);
  repo = path.join(home, 'repo');
  data = path.join(home, '.commandr');
  fs.mkdirSync(path.join(data, 'approval'), { recursive: true });
  fs.writeFileSync(path.join(data, 'approval', 'private.pem'), 'secret\n');
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q'], { cwd: repo });
  fs.mkdirSync(path.join(repo, 'src'));
});

// The readlink the hook and the relay use (POLPATH-n), so every case below resolves links as they do.
const real = { readlink: systemReadlink, realpath: (f: string) => fs.realpathSync(f), readdir: (d: string) => fs.readdirSync(d) };
const judge = (command: string, extra: Partial<ToolRequest> = {}) =>
  evaluate(policy, { tool: 'Bash', input: { command }, cwd: repo, root: repo, home, commandrHome: data, scope: 'src/**', ...real, ...extra });
const unsandboxed = { sandboxed: false, why: 'no COMMANDR_SANDBOX, Claude Code sandbox off' };
const sandboxed = { sandboxed: true, why: 'COMMANDR_SANDBOX=bwrap' };

describe('reading links', () => {
  it('POLPATH-2: the policy\'s readlink answers as readlink(2) does: the target of a link, EINVAL for a file or a directory, ENOENT for none, the error of a path through a file', () => {
    fs.writeFileSync(path.join(repo, 'file'), 'x');
    fs.symlinkSync('../elsewhere', path.join(repo, 'link'));
    const code = (read: (f: string) => string, file: string) => { try { return read(file); } catch (error) { return (error as NodeJS.ErrnoException).code; } };
    for (const name of ['link', 'file', 'src', 'missing', 'file/below', 'missing/below']) {
      const file = path.join(repo, name);
      expect(code(systemReadlink, file), name).toBe(code((f) => fs.readlinkSync(f), file));
    }
    expect(code(systemReadlink, path.join(repo, 'link'))).toBe('../elsewhere');
  });
});

describe('option values are paths too', () => {
  it.each([
    ["git log -1 --format='#!/bin/sh' --output=.git/hooks/pre-commit", 'ask.read_paths'],
    ['git diff --output=.git/hooks/pre-push', 'ask.read_paths'],
    ['git show HEAD --output=.git/config', 'ask.read_paths'],
    ['git log -o.git/hooks/pre-commit', 'ask.read_paths'],
    ['git format-patch -o .git/hooks HEAD~1', 'ask.read_paths'],
    ['git format-patch --output-directory=.git/hooks HEAD~1', 'ask.read_paths'],
    ['git log --output=.git/info/exclude', 'ask.paths'],
    ['git log --output .git/hooks/pre-commit', 'ask.read_paths'],
    ['git -C .git log --output=hooks/pre-commit', 'ask.paths'],
    ['diff --from-file=~/.commandr/approval/private.pem src/a', 'ask.read_paths'],
    ['grep --file=.git/config x src', 'ask.read_paths'],
    ['grep -rf.git/config x', 'ask.read_paths'],
    ['grep -f ~/.commandr/hook-token x', 'ask.read_paths'],
    ['cat if=~/.commandr/hook-token', 'ask.read_paths'],
    ['diff --from-file=$HOME/.commandr/hook-token src/a', 'ask.read_paths'],
    ['diff --from-file=${HOME}/.commandr/hook-token src/a', 'ask.read_paths'],
  ])('POLPATH-1: %s → ask by %s', (command, rule) => {
    const v = judge(command);
    expect({ decision: v.decision, rule: v.rule }, v.why).toEqual({ decision: 'ask', rule });
    expect(v.word).toBeTruthy();
  });

  it.each([
    ['git diff --output=/home/someone/.bashrc', '--output=/home/someone/.bashrc'],
    ['git log -1 --output src/notes.txt', '--output'],
    ['git format-patch -o/tmp/out HEAD~1', '-o/tmp/out'],
  ])('POLPATH-1: a command allowed as a read that writes a file by an option is asked: %s', (command, word) => {
    const v = judge(command);
    expect({ decision: v.decision, rule: v.rule, word: v.word }, v.why).toEqual({ decision: 'ask', rule: 'allow.commands', word });
    expect(v.why).toMatch(/write a file/);
  });

  it.each(['git commit -o src/a.ts -m x', 'git log --format=%H -n 5', 'ls -la src', 'grep -rn --include=*.ts needle src', 'git diff --stat=100', 'git log --output=/dev/null'])(
    'POLPATH-1: a harmless option stays allowed: %s', (command) => {
      const v = judge(command);
      expect(v.decision, `${v.rule}: ${v.why}`).toBe('allow');
    });
});

describe('a command too large to check', () => {
  it('POLPATH-2: is asked within a bound, never allowed and never a stalled hook', () => {
    const started = Date.now();
    const dots = judge(`git log ${Array(100).fill(`-${'.'.repeat(250)}`).join(' ')}`);
    expect(dots.decision, dots.why).toBe('ask');
    const many = judge(`git log ${Array(5000).fill('-rfsrc').join(' ')}`);
    expect({ decision: many.decision, rule: many.rule }, many.why).toEqual({ decision: 'ask', rule: 'ask.unknown-path' });
    expect(judge(`cat -${'a'.repeat(300)}`).rule).toBe('ask.unknown-path');
    expect(judge('cat {/a,b').decision).toBe('allow');
    expect(Date.now() - started).toBeLessThan(20_000);
  });
});

describe('paths are resolved as the kernel would', () => {
  it('POLPATH-2: a symbolic link in the worktree to the data dir is followed, `..` after it included', () => {
    fs.symlinkSync(data, path.join(repo, 'src', 'creds'));
    fs.symlinkSync(path.join(data, 'approval'), path.join(repo, 'src', 'deep'));
    for (const command of ['cat src/creds/approval/private.pem', 'cat src/deep/../hook-token', 'git diff --no-index --output=src/creds/x a b', 'grep -r key src/creds']) {
      const v = judge(command);
      expect({ decision: v.decision, rule: v.rule }, `${command}: ${v.why}`).toEqual({ decision: 'ask', rule: 'ask.read_paths' });
    }
    expect(judge('cat src/a.ts').decision).toBe('allow');
  });

  it('POLPATH-2: a glob or a brace expansion is checked as the files the shell would make of it', () => {
    fs.symlinkSync(data, path.join(repo, 'src', 'creds'));
    fs.writeFileSync(path.join(repo, 'src', 'a.ts'), '');
    for (const command of ['cat src/cre*/hook-token', 'cat src/c?eds/approval/private.pem', 'cat src/*/approval/*', `cat {${data},x}/hook-token`, 'cat ~/.comman{d,}r/hook-token', 'git log --output={.git/hooks/x,y}']) {
      const v = judge(command);
      expect({ decision: v.decision, rule: v.rule }, `${command}: ${v.why}`).toEqual({ decision: 'ask', rule: 'ask.read_paths' });
    }
    for (const command of ['ls src/*.ts', 'cat src/{a,b}.ts', `cat x{,{${data}/a,b}}`]) expect(judge(command).decision, command).toBe('allow');
  });

  it('POLPATH-3: /proc/self/root, /proc/<pid>/cwd, /proc/*/fd and /dev/fd are never allowed', () => {
    fs.symlinkSync('/proc/self/root', path.join(repo, 'src', 'everything'));
    for (const command of [
      `cat /proc/self/root${data}/approval/private.pem`,
      'cat /proc/self/root$HOME/.commandr/approval/private.pem',
      `cat /proc/${process.pid}/cwd/../.commandr/hook-token`,
      'cat /proc/1/task/1/root/etc/hostname',
      'cat /proc/*/root/etc/hostname',
      'cat /proc/self/fd/3',
      'cat /dev/fd/3',
      `cat src/everything${data}/hook-token`,
      `git log --output=/proc/self/cwd/.git/hooks/pre-commit`,
    ]) {
      const v = judge(command);
      expect(v.decision, `${command}: ${v.rule} ${v.why}`).toBe('ask');
    }
    for (const command of ['cat /proc/self/environ', `cat /proc/${process.pid}/cmdline`, 'cat ~root/.commandr/hook-token', 'cat x=~root/.commandr/hook-token']) {
      expect(judge(command).rule, command).toBe('ask.unknown-path');
    }
    expect(judge('cat /proc/cpuinfo').decision).toBe('allow');
    const read = evaluate(policy, { tool: 'Read', input: { file_path: `/proc/${process.pid}/cwd/x` }, cwd: repo, root: repo, home, commandrHome: data, ...real });
    expect({ decision: read.decision, rule: read.rule }).toEqual({ decision: 'ask', rule: 'ask.unknown-path' });
  });

  it('POLPATH-4: `~`, `$HOME`, `${HOME}` and `..` are expanded before matching, in option values too', () => {
    for (const command of ['cat ~/.commandr/hook-token', 'cat $HOME/.commandr/hook-token', 'cat ${HOME}/.commandr/hook-token', 'cat src/../../.commandr/hook-token', 'grep --file=src/../.git/config x']) {
      const v = judge(command);
      expect({ decision: v.decision, rule: v.rule }, command).toEqual({ decision: 'ask', rule: 'ask.read_paths' });
    }
  });
});

describe("commands that run the project's own code", () => {
  it.each(['npx vitest', 'npm test', 'npx tsc', 'npm run build', 'node scripts/x.js', 'python3 -m pytest', './run.sh', 'go test ./...', 'cargo test', 'make', 'yarn test', 'pnpm test'])(
    'POLPATH-5: %s is asked when the agent is not sandboxed', (command) => {
      const v = judge(command, { sandbox: unsandboxed });
      expect({ decision: v.decision, rule: v.rule }, v.why).toEqual({ decision: 'ask', rule: 'ask.own-code' });
      expect(v.why).toMatch(/allowed only when the agent is sandboxed; this session is not \(no COMMANDR_SANDBOX, Claude Code sandbox off\)/);
    });

  it('POLPATH-5: an allowed test runner runs unasked when the agent is sandboxed, and only then', () => {
    expect(judge('npx vitest', { sandbox: sandboxed }).decision).toBe('allow');
    expect(judge('npm test', { sandbox: sandboxed }).why).toMatch(/allowed because the agent is sandboxed \(COMMANDR_SANDBOX=bwrap\)/);
    expect(judge('npx vitest').decision).toBe('ask');
    // Sandboxed is necessary, not sufficient: a runner outside allow.commands is still asked.
    expect(judge('make deploy', { sandbox: sandboxed }).rule).toBe('allow.commands');
  });

  it('POLPATH-5: agentSandboxed reads COMMANDR_SANDBOX and the project\'s Claude Code sandbox setting', () => {
    expect(agentSandboxed({ COMMANDR_SANDBOX: 'bwrap' }, repo)).toBe(true);
    expect(agentSandboxed({ COMMANDR_SANDBOX: 'sandbox-exec' }, undefined)).toBe(true);
    expect(agentSandboxed({ COMMANDR_SANDBOX: '0' }, repo)).toBe(false);
    expect(agentSandboxed({ COMMANDR_SANDBOX: 'off' }, repo)).toBe(false);
    expect(agentSandboxed({}, repo)).toBe(false);
    fs.mkdirSync(path.join(repo, '.claude'));
    fs.writeFileSync(path.join(repo, '.claude', 'settings.json'), JSON.stringify({ sandbox: { enabled: true } }));
    expect(sandboxState({}, repo)).toEqual({ sandboxed: true, why: 'Claude Code sandbox on in .claude/settings.json' });
    expect(agentSandboxed({}, repo, { claude: false })).toBe(false);
    fs.writeFileSync(path.join(repo, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: false } }));
    expect(agentSandboxed({}, repo)).toBe(false);
    fs.writeFileSync(path.join(repo, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: true, excludedCommands: ['npx'] } }));
    expect(agentSandboxed({}, repo)).toBe(false);
    fs.writeFileSync(path.join(repo, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: true } }));
    expect(agentSandboxed({}, repo)).toBe(true);
    // The agent cannot turn the setting on itself without a person.
    const edit = evaluate(policy, { tool: 'Write', input: { file_path: '.claude/settings.local.json', content: '{}' }, cwd: repo, root: repo, home, commandrHome: data, scope: '**', ...real });
    expect({ decision: edit.decision, rule: edit.rule }).toEqual({ decision: 'ask', rule: 'ask.paths' });
    expect(judge('echo {} > .claude/settings.json').decision).toBe('ask');
  });
});

describe('through the hook', () => {
  const payload = (command: string) => ({ session_id: 's-1', tool_name: 'Bash', tool_input: { command }, cwd: repo, tool_use_id: 't-1', hook_event_name: 'PreToolUse' });
  const env = () => ({ HOME: home, COMMANDR_HOME: data, PATH: process.env.PATH ?? '' }) as Record<string, string> as NodeJS.ProcessEnv;
  const HOLES = () => [
    "git log -1 --format='#!/bin/sh' --output=.git/hooks/pre-commit",
    `cat /proc/self/root${data}/approval/private.pem`,
    `diff --from-file=${data}/approval/private.pem src/a`,
    'grep --file=.git/config x',
    'npx vitest',
  ];

  it('POLPATH-6: the hook\'s decision code sends every hole to a person, and a sandboxed `npx vitest` is allowed', () => {
    for (const command of HOLES()) {
      const outcome = decidePermission(payload(command), env(), repo);
      expect(outcome?.kind, command).toBe('person');
    }
    const allowed = decidePermission(payload('npx vitest'), { ...env(), COMMANDR_SANDBOX: 'bwrap' }, repo);
    expect(allowed).toMatchObject({ kind: 'answer', decision: 'allow' });
    fs.mkdirSync(path.join(repo, '.claude'));
    fs.writeFileSync(path.join(repo, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: true } }));
    expect(decidePermission(payload('npx vitest'), env(), repo)).toMatchObject({ kind: 'answer', decision: 'allow' });
    // Claude Code runs a call that disables its sandbox outside it.
    const out = decidePermission({ ...payload('npx vitest'), tool_input: { command: 'npx vitest', dangerouslyDisableSandbox: true } }, env(), repo);
    expect(out?.kind).toBe('person');
  });

  it('POLPATH-6: the real PreToolUse hook with no relay answers ask, never allow, for each hole', () => {
    for (const command of HOLES()) {
      const ran = spawnSync(HOOK, [], { input: JSON.stringify(payload(command)), encoding: 'utf8', env: env(), cwd: repo, timeout: 20_000 });
      expect(ran.status, ran.stderr).toBe(0);
      const answer = JSON.parse(ran.stdout) as { hookSpecificOutput: { permissionDecision: string } };
      expect(answer.hookSpecificOutput.permissionDecision, command).toBe('ask');
    }
    const sandboxedRun = spawnSync(HOOK, [], { input: JSON.stringify(payload('npx vitest')), encoding: 'utf8', env: { ...env(), COMMANDR_SANDBOX: 'bwrap' }, cwd: repo, timeout: 20_000 });
    expect(JSON.parse(sandboxedRun.stdout).hookSpecificOutput.permissionDecision).toBe('allow');
  });

  it('POLPATH-6: `commandr policy check` names the deciding word and says why a test runner is asked', () => {
    const check = (command: string, extra: Record<string, string> = {}) =>
      spawnSync(BIN, ['policy', 'check', 'Bash', command, '--repo', repo], { encoding: 'utf8', env: { ...env(), ...extra }, cwd: repo });
    const output = check("git log -1 --format=x --output=.git/hooks/pre-commit");
    expect(output.status, output.stderr).toBe(0);
    expect(output.stdout).toMatch(/^decision: ask$/m);
    expect(output.stdout).toMatch(/^rule: +ask\.read_paths$/m);
    expect(output.stdout).toMatch(/^word: +--output=\.git\/hooks\/pre-commit$/m);
    const runner = check('npx vitest');
    expect(runner.stdout).toMatch(/^rule: +ask\.own-code$/m);
    expect(runner.stdout).toMatch(/^why: +`npx vitest` runs the project's own code .*: allowed only when the agent is sandboxed; this session is not \(no COMMANDR_SANDBOX, Claude Code sandbox off\)$/m);
    expect(runner.stdout).toMatch(/^sandbox: +no \(no COMMANDR_SANDBOX, Claude Code sandbox off\)$/m);
    const inside = check('npx vitest', { COMMANDR_SANDBOX: 'bwrap' });
    expect(inside.stdout).toMatch(/^decision: allow$/m);
    expect(inside.stdout).toMatch(/^sandbox: +yes \(COMMANDR_SANDBOX=bwrap\)$/m);
    const proc = check(`cat /proc/self/root${data}/hook-token`);
    expect(proc.stdout).toMatch(/^rule: +ask\.unknown-path$/m);
    expect(proc.stdout).toMatch(/^why: +.*another process's view of the files/m);
  });
});
