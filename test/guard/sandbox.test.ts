// `commandr init --sandbox` (GUARD-10): Claude Code's sandbox on, Commandr's data dir and
// the approvals out of the agent's reach, merged into the repo's local settings.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { sandboxDeny, SandboxError, writeSandboxSettings } from '../../policy/sandbox';
import { tempDir } from '../permissions/helpers';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'commandr');
const cleanups: Array<() => unknown> = [];
afterEach(() => { while (cleanups.length) cleanups.pop()!(); });

describe('init --sandbox', () => {
  it('GUARD-10: merges sandbox.enabled and the deny rules into settings.local.json once, keeping what was there', () => {
    const repo = tempDir('commandr-sandbox-', cleanups);
    fs.mkdirSync(path.join(repo, '.claude'));
    const file = path.join(repo, '.claude', 'settings.local.json');
    fs.writeFileSync(file, JSON.stringify({ model: 'x', permissions: { deny: ['Bash(rm:*)'], allow: ['Bash(ls:*)'] } }));
    const paths = { dataDir: path.join(repo, 'home'), publicKey: path.join(repo, 'home', 'keys', 'public.pem') };
    expect(writeSandboxSettings(repo, paths)).toBe(file);
    const written = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(written.sandbox.enabled).toBe(true);
    expect(written.model).toBe('x');
    expect(written.permissions.allow).toEqual(['Bash(ls:*)']);
    expect(written.permissions.deny).toEqual(['Bash(rm:*)', ...sandboxDeny(paths)]);
    expect(writeSandboxSettings(repo, paths)).toBeUndefined();
    fs.writeFileSync(file, '[1]');
    expect(() => writeSandboxSettings(repo, paths)).toThrow(SandboxError);
    expect(fs.readFileSync(file, 'utf8')).toBe('[1]');
  });

  it('GUARD-10: commandr init turns the sandbox on by default (SBXDEF-1), and --sandbox still writes it', () => {
    const repo = tempDir('commandr-sandbox-init-', cleanups);
    spawnSync('git', ['init', '-q', repo]);
    const env = { ...process.env, AGENTS_INDEX_REPOS: path.join(repo, '.reg') };
    const offered = spawnSync(BIN, ['init', repo], { encoding: 'utf8', env });
    expect(offered.status, offered.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')).sandbox.enabled).toBe(true);
    const ran = spawnSync(BIN, ['init', repo, '--sandbox'], { encoding: 'utf8', env });
    expect(ran.status, ran.stderr).toBe(0);
    expect(JSON.parse(fs.readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')).sandbox.enabled).toBe(true);
  });
});
