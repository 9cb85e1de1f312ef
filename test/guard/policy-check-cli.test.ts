// `commandr policy check` explains a guard decision: which rule, why, and which part of a compound command.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../permissions/helpers';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'commandr');
const cleanups: Array<() => unknown> = [];
afterEach(() => { while (cleanups.length) cleanups.pop()!(); });

describe('commandr policy check explains the gate guard', () => {
  it('GUARD-5: prints the deny rule and the part of a compound command that skips hooks; a project layer cannot allow it', () => {
    const repo = tempDir('commandr-guard-repo-', cleanups);
    const home = tempDir('commandr-guard-home-', cleanups);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    fs.mkdirSync(path.join(repo, '.commandr'));
    fs.writeFileSync(path.join(repo, '.commandr', 'policy.yaml'), 'allow:\n  commands: ["git commit --no-verify", "env"]\n');
    const env = { PATH: process.env.PATH, HOME: home, COMMANDR_HOME: path.join(home, '.commandr') } as unknown as NodeJS.ProcessEnv;
    const ran = spawnSync(BIN, ['policy', 'check', 'Bash', 'git status && env HUSKY=0 git commit --no-verify -m x', '--repo', repo], { encoding: 'utf8', env });
    expect(ran.status, ran.stderr).toBe(0);
    expect(ran.stdout).toMatch(/^decision: deny$/m);
    expect(ran.stdout).toMatch(/^rule: +hooks\.env$/m);
    expect(ran.stdout).toMatch(/^why: +setting HUSKY/m);
    expect(ran.stdout).toMatch(/^part: +HUSKY=0 git commit --no-verify -m x$/m);
    const token = spawnSync(BIN, ['policy', 'check', 'Read', path.join(home, '.commandr', 'hook-token'), '--repo', repo], { encoding: 'utf8', env });
    expect(token.stdout).toMatch(/^decision: ask$/m);
    expect(token.stdout).toMatch(/^rule: +ask\.read_paths$/m);
  });
});
