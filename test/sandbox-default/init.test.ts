// `commandr init` turns Claude Code's own sandbox on by default (SBXDEF-1..3), through the real
// CLI on real git repos: the settings it writes, what --no-sandbox says it gives up, idempotence.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../permissions/helpers';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'commandr');
const cleanups: Array<() => unknown> = [];
afterEach(() => { while (cleanups.length) cleanups.pop()!(); });

function world() {
  const root = tempDir('commandr-sbxdef-', cleanups);
  const repo = path.join(root, 'app');
  const home = path.join(root, 'data home'); // the actual $COMMANDR_HOME, not ~/.commandr
  expect(spawnSync('git', ['init', '-q', repo]).status).toBe(0);
  const env = { ...process.env, COMMANDR_HOME: home, HOME: root, AGENTS_INDEX_REPOS: path.join(root, 'repos') };
  const init = (...args: string[]) => spawnSync(BIN, ['init', repo, ...args], { encoding: 'utf8', env });
  const settingsFile = path.join(repo, '.claude', 'settings.local.json');
  const settings = () => JSON.parse(fs.readFileSync(settingsFile, 'utf8'));
  return { repo, home, init, settingsFile, settings };
}

describe('init: Claude Code sandbox by default', () => {
  it('SBXDEF-1: init --wire turns the sandbox on, closes the escape hatch and denies the data dir, approvals, .git/hooks and .git/config', () => {
    const w = world();
    fs.mkdirSync(path.dirname(w.settingsFile), { recursive: true });
    fs.writeFileSync(w.settingsFile, JSON.stringify({ model: 'opus', sandbox: { network: { allowedDomains: ['x.test'] } }, permissions: { deny: ['Bash(rm:*)'] } }));
    const ran = w.init('--wire');
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stderr).toContain("wrote Claude Code's sandbox");
    const s = w.settings();
    expect(s.sandbox.enabled).toBe(true);
    expect(s.sandbox.allowUnsandboxedCommands).toBe(false);
    expect(s.sandbox.filesystem.denyRead).toEqual([w.home]);
    expect(s.sandbox.filesystem.allowRead).toEqual([path.join(w.home, 'approval', 'public.pem')]); // the gate checks signatures inside
    expect(s.sandbox.filesystem.denyWrite).toEqual([w.home, ...['.agents/approvals', '.git/hooks', '.git/config'].map((p) => path.join(w.repo, p))]);
    expect(s.permissions.deny).toEqual(['Bash(rm:*)', `Read(/${w.home}/**)`, `Edit(/${w.home}/**)`, 'Edit(./.agents/approvals/**)', 'Edit(./.git/hooks/**)', 'Edit(./.git/config)']);
    // What was there stays; --wire's hooks land in the same file.
    expect(s.model).toBe('opus');
    expect(s.sandbox.network).toEqual({ allowedDomains: ['x.test'] });
    expect(JSON.stringify(s.hooks ?? {})).toContain('adapters/claude/hooks/report');
  });

  it('SBXDEF-1: re-running init --wire changes nothing (and --sandbox is accepted, a no-op)', () => {
    const w = world();
    expect(w.init('--wire').status).toBe(0);
    const first = fs.readFileSync(w.settingsFile, 'utf8');
    const again = w.init('--wire', '--sandbox');
    expect(again.status, again.stderr).toBe(0);
    expect(again.stderr).toContain("kept Claude Code's sandbox");
    expect(fs.readFileSync(w.settingsFile, 'utf8')).toBe(first);
  });

  it('SBXDEF-2: --no-sandbox writes no sandbox and says in 2-4 lines what that gives up', () => {
    const w = world();
    const ran = w.init('--wire', '--no-sandbox');
    expect(ran.status, ran.stderr).toBe(0);
    expect(fs.existsSync(w.settingsFile) ? w.settings().sandbox : undefined).toBeUndefined();
    const lines = ran.stderr.split('\n');
    const start = lines.findIndex((l) => l.startsWith('init: --no-sandbox'));
    expect(start).toBeGreaterThanOrEqual(0);
    const said = lines.slice(start, start + 3).join('\n');
    expect(said).toMatch(/without a sandbox/);
    expect(said).toMatch(/signing key/);
    expect(said).toMatch(/forge an approval/);
    expect(said).toMatch(/\.git\/hooks/);
  });

  it('SBXDEF-3: plain init (without --wire) turns the sandbox on too: the repo\'s Claude Code sessions are the agent', () => {
    const w = world();
    const ran = w.init();
    expect(ran.status, ran.stderr).toBe(0);
    expect(w.settings().sandbox.enabled).toBe(true);
    expect(w.settings().sandbox.allowUnsandboxedCommands).toBe(false);
  });

  it('SBXDEF-1: a settings file that is not a JSON object is refused by name and left as it was', () => {
    const w = world();
    fs.mkdirSync(path.dirname(w.settingsFile), { recursive: true });
    fs.writeFileSync(w.settingsFile, '[1]');
    const ran = w.init();
    expect(ran.status).not.toBe(0);
    expect(ran.stderr).toContain('settings.local.json is not a JSON object');
    expect(fs.readFileSync(w.settingsFile, 'utf8')).toBe('[1]');
  });
});
