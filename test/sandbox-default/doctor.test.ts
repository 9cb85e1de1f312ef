// `commandr doctor` says plainly, per registered repo, when its Claude Code sessions would run without
// a sandbox and what that allows, and whether an OS sandbox can run here at all (SBXDEF-4, SBXDEF-5).
// The real bin, a temp HOME and COMMANDR_HOME, real git repos, the real bwrap (or PATH without it).
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { tempDir } from '../permissions/helpers';

const ROOT = path.resolve(__dirname, '../..');
const BIN = path.join(ROOT, 'bin', 'commandr');
const cleanups: Array<() => unknown> = [];
afterEach(() => { while (cleanups.length) cleanups.pop()!(); });

function world() {
  const tmp = tempDir('commandr-sbxdoc-', cleanups);
  const repo = path.join(tmp, 'app');
  spawnSync('git', ['init', '-q', '-b', 'main', repo]);
  const env = { PATH: process.env.PATH!, HOME: path.join(tmp, 'home'), COMMANDR_HOME: path.join(tmp, 'data'), AGENTS_INDEX_REPOS: path.join(tmp, 'repos'), COMMANDR_URL: 'http://127.0.0.1:9', COMMANDR_CLAUDE_BIN: '/bin/false', COMMANDR_OPENCODE_BIN: '/bin/false' };
  fs.mkdirSync(env.HOME, { recursive: true });
  const run = (cmd: string[], extra: Record<string, string> = {}) => spawnSync(BIN, cmd, { encoding: 'utf8', env: { ...env, ...extra } as unknown as NodeJS.ProcessEnv, timeout: 60_000 });
  const lineOf = (out: string, name: string) => {
    const lines = out.split('\n');
    const i = lines.findIndex((l) => l.slice(5).startsWith(`${name}:`));
    return i < 0 ? '' : [lines[i], lines[i + 1]?.startsWith('     fix:') ? lines[i + 1] : ''].join('\n');
  };
  return { repo, env, run, lineOf };
}

describe('doctor: sandbox lines', () => {
  it('SBXDEF-4: a repo whose Claude Code sessions run without a sandbox is named, with what that allows and the fix; init makes it ok', () => {
    const w = world();
    expect(w.run(['init', w.repo, '--no-sandbox']).status).toBe(0);
    const before = w.lineOf(w.run(['doctor']).stdout, `sandboxed: ${w.repo}`);
    expect(before).toMatch(/^warn /);
    expect(before).toContain(`Claude Code sessions in ${w.repo} run without a sandbox`);
    expect(before).toContain(`can read the relay's key in ${w.env.COMMANDR_HOME} and forge an approval`);
    expect(before).toContain(`fix: commandr init ${w.repo} --wire (sandbox on); for OpenCode: \`commandr sandbox -- opencode\``);
    expect(w.run(['init', w.repo, '--wire']).status).toBe(0);
    const after = w.lineOf(w.run(['doctor']).stdout, `sandboxed: ${w.repo}`);
    expect(after).toMatch(/^ok {3}/);
    expect(after).toContain(`keeps ${w.env.COMMANDR_HOME}, the approvals and git's hooks and config out of the agent's reach`);
  });

  it('SBXDEF-4: a sandbox turned on by hand without the data dir denied is not ok', () => {
    const w = world();
    expect(w.run(['init', w.repo, '--no-sandbox']).status).toBe(0);
    fs.mkdirSync(path.join(w.repo, '.claude'), { recursive: true });
    fs.writeFileSync(path.join(w.repo, '.claude', 'settings.local.json'), JSON.stringify({ sandbox: { enabled: true } }));
    const line = w.lineOf(w.run(['doctor']).stdout, `sandboxed: ${w.repo}`);
    expect(line).toMatch(/^warn /);
    expect(line).toContain('lacks allowUnsandboxedCommands: false');
    expect(line).toContain(`sandbox.filesystem.denyRead ${w.env.COMMANDR_HOME}`);
  });

  it('SBXDEF-5: says whether an OS sandbox can run here; without bubblewrap it says so and points to the relay as its own user', () => {
    const w = world();
    const here = w.lineOf(w.run(['doctor']).stdout, 'OS sandbox');
    expect(here).toMatch(/^ok {3}OS sandbox: bwrap works here/);
    // A PATH with node and git but no bwrap: the same probe, a real missing binary.
    const bin = tempDir('commandr-sbxdoc-bin-', cleanups);
    for (const tool of ['node', 'git', 'sh', 'bash']) {
      const found = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' }).stdout.trim();
      fs.symlinkSync(found, path.join(bin, tool));
    }
    const run = w.run(['doctor'], { PATH: bin });
    const none = w.lineOf(run.stdout, 'OS sandbox');
    expect(none, run.stdout + run.stderr).toMatch(/^warn OS sandbox: no OS sandbox is possible here: bubblewrap \(bwrap\) is not on PATH/);
    expect(none).toContain('fix: apt-get install bubblewrap');
    expect(none).toContain('run the relay as its own OS user (docs/relay-user.md)');
  });
});
