// `commandr policy check` as a person runs it: the real bin, a temp repo with its own policy file.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from './helpers';

const BIN = path.resolve(__dirname, '..', '..', 'bin', 'commandr');
const cleanups: Array<() => unknown> = [];
afterEach(() => { while (cleanups.length) cleanups.pop()!(); });

function check(args: string[], env: Record<string, string>) {
  return spawnSync(BIN, ['policy', 'check', ...args], { encoding: 'utf8', env: { PATH: process.env.PATH, ...env } as Record<string, string | undefined> as NodeJS.ProcessEnv });
}

describe('commandr policy check', () => {
  it('POLICY-6: prints the decision, the rule and why for a command and an edit, honouring the project file; exit 0', () => {
    const repo = tempDir('commandr-policy-repo-', cleanups);
    const home = tempDir('commandr-policy-home-', cleanups);
    execFileSync('git', ['init', '-q'], { cwd: repo });
    fs.mkdirSync(path.join(repo, '.commandr'));
    fs.writeFileSync(path.join(repo, '.commandr', 'policy.yaml'), 'allow:\n  commands: [make]\ndeny:\n  commands: [make deploy]\n');
    const env = { HOME: home, COMMANDR_HOME: home };
    const touch = check(['Bash', 'touch notes.txt', '--repo', repo], env);
    expect(touch.status, touch.stderr).toBe(0);
    expect(touch.stdout).toMatch(/^decision: ask$/m);
    expect(touch.stdout).toMatch(/outside the allowed command prefixes/);
    expect(touch.stdout).toMatch(/timeout: +120 s/);
    expect(check(['Bash', 'make build', '--repo', repo], { ...env, COMMANDR_SANDBOX: 'bwrap' }).stdout).toMatch(/^decision: allow$/m);
    expect(check(['Bash', 'make deploy', '--repo', repo], env).stdout).toMatch(/^decision: deny$/m);
    const edit = check(['Edit', JSON.stringify({ file_path: path.join(repo, 'src', 'a.ts') }), '--repo', repo, '--scope', 'src/**'], env);
    expect(edit.stdout).toMatch(/^decision: allow$/m);
    expect(edit.stdout).toContain(path.join(repo, '.commandr', 'policy.yaml'));
  });

  it('POLICY-5: a broken policy file is reported by name with E_POLICY', () => {
    const home = tempDir('commandr-policy-home-', cleanups);
    fs.writeFileSync(path.join(home, 'policy.yaml'), 'timeout: -3\n');
    const ran = check(['Bash', 'ls', '--repo', home], { HOME: home, COMMANDR_HOME: home });
    expect(ran.status).toBe(1);
    expect(ran.stderr).toMatch(/E_POLICY: .*policy\.yaml: timeout/);
  });
});
