// Adapter selection and `commandr wire` (ADAPTER-n): default, env choice, local override,
// clear errors; the CLI runs the selected adapter's real `wire` executable.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveAdapter } from '../../adapters/lib/resolve';
import { cleanup, git, makeHome, ROOT, runProcess, tempDir } from './harness';

afterAll(cleanup);

function localAdapter(commandrHome: string, name: string, withWire = true): string {
  const dir = path.join(commandrHome, 'adapters', name);
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'run'), '#!/bin/sh\necho local-run\n', { mode: 0o755 });
  if (withWire) fs.writeFileSync(path.join(dir, 'wire'), '#!/bin/sh\necho "local-wire $*"\n', { mode: 0o755 });
  return dir;
}

describe('adapter selection', () => {
  it('ADAPTER-1: claude by default, COMMANDR_AGENT_ADAPTER picks another shipped adapter, unknown or unsafe names are clear errors', () => {
    const { commandrHome } = makeHome();
    const def = resolveAdapter(undefined, { COMMANDR_HOME: commandrHome });
    expect(def).toMatchObject({ name: 'claude', source: 'shipped', run: path.join(ROOT, 'adapters', 'claude', 'run'), wire: path.join(ROOT, 'adapters', 'claude', 'wire') });
    expect(resolveAdapter(undefined, { COMMANDR_HOME: commandrHome, COMMANDR_AGENT_ADAPTER: 'opencode' }).run).toBe(path.join(ROOT, 'adapters', 'opencode', 'run'));
    expect(() => resolveAdapter('nope', { COMMANDR_HOME: commandrHome })).toThrow(/E?no adapter "nope"/);
    expect(() => resolveAdapter('../claude', { COMMANDR_HOME: commandrHome })).toThrow(/invalid/);
  });

  it('ADAPTER-2: a directory of the same name under $COMMANDR_HOME/adapters overrides the shipped one, only when complete', () => {
    const { commandrHome } = makeHome();
    const partial = localAdapter(commandrHome, 'claude', false);
    expect(resolveAdapter('claude', { COMMANDR_HOME: commandrHome }).source).toBe('shipped');
    fs.writeFileSync(path.join(partial, 'wire'), '#!/bin/sh\n', { mode: 0o755 });
    expect(resolveAdapter('claude', { COMMANDR_HOME: commandrHome })).toMatchObject({ source: 'local', run: path.join(partial, 'run') });
    localAdapter(commandrHome, 'mine');
    expect(resolveAdapter(undefined, { COMMANDR_HOME: commandrHome, COMMANDR_AGENT_ADAPTER: 'mine' }).source).toBe('local');
  });

  it('ADAPTER-3: `commandr wire [repo]` runs the selected adapter’s wire on the repo top level; `init --wire` does too', async () => {
    const { home, commandrHome } = makeHome();
    localAdapter(commandrHome, 'mine');
    const repo = tempDir('commandr-wire-cli-');
    git(repo, 'init', '-q');
    fs.mkdirSync(path.join(repo, 'sub'));
    const env = { PATH: process.env.PATH, HOME: home, COMMANDR_HOME: commandrHome, AGENTS_INDEX_REPOS: path.join(home, 'repos') };
    const local = await runProcess(path.join(ROOT, 'bin', 'commandr'), ['wire', path.join(repo, 'sub'), '--dry-run'], { cwd: repo, env: { ...env, COMMANDR_AGENT_ADAPTER: 'mine' } });
    expect(local.code, local.stderr).toBe(0);
    expect(local.stdout.trim()).toBe(`local-wire ${repo} --dry-run`);
    const shipped = await runProcess(path.join(ROOT, 'bin', 'commandr'), ['init', repo, '--wire'], { cwd: repo, env });
    expect(shipped.code, shipped.stderr).toBe(0);
    expect(shipped.stdout).toContain('.claude/settings.local.json: fixed');
    const hint = await runProcess(path.join(ROOT, 'bin', 'commandr'), ['init', repo], { cwd: repo, env });
    expect(hint.stderr).toContain('commandr wire');
    const bad = await runProcess(path.join(ROOT, 'bin', 'commandr'), ['wire', repo, '--adapter', 'ghost'], { cwd: repo, env });
    expect(bad.code).toBe(1);
    expect(bad.stderr).toContain('E_NO_ADAPTER');
  });
});
