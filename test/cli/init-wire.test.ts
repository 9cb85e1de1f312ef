// `commandr init --wire` reports each hook event once (CLIHELP-4), and `init` refuses an
// option it does not know instead of initialising a directory named after it (CLIHELP-3).
// The real bin over dist/ (`node scripts/build.mjs` first), fresh repos, a temp HOME.
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';

const COMMANDR = path.join(__dirname, '..', '..', 'bin', 'commandr');
let dir: string | undefined;

afterEach(() => {
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
  dir = undefined;
});

function fresh(): { repo: string; env: NodeJS.ProcessEnv } {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-init-')));
  const repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
  const home = path.join(dir, 'home');
  fs.mkdirSync(home);
  return { repo, env: { PATH: process.env.PATH, HOME: home, COMMANDR_HOME: path.join(home, '.commandr') } as unknown as NodeJS.ProcessEnv };
}

describe('commandr init', () => {
  it('CLIHELP-4: init --wire names each hook event it installed once, every event it wired is named, and a second run says ok', () => {
    const { repo, env } = fresh();
    const first = spawnSync(COMMANDR, ['init', '--wire'], { cwd: repo, env, encoding: 'utf8' });
    expect(first.status, first.stderr).toBe(0);
    const output = first.stdout + first.stderr;
    const line = /settings\.local\.json: fixed \(hooks: ([^)]*)\)/.exec(output);
    expect(line, output).not.toBeNull();
    const named = line![1]!.split(', ');
    expect(new Set(named).size).toBe(named.length);
    const settings = JSON.parse(fs.readFileSync(path.join(repo, '.claude', 'settings.local.json'), 'utf8')) as { hooks: Record<string, unknown[]> };
    // Several hooks under one event (UserPromptSubmit has one per notes part), still named once.
    expect(settings.hooks.UserPromptSubmit!.length).toBeGreaterThan(1);
    expect([...named].sort()).toEqual(Object.keys(settings.hooks).sort());
    expect(output.match(/UserPromptSubmit/g)).toHaveLength(1);
    const again = spawnSync(COMMANDR, ['wire'], { cwd: repo, env, encoding: 'utf8' });
    expect(again.status, again.stderr).toBe(0);
    expect(again.stdout).toMatch(/settings\.local\.json: ok\n/);
  });

  it('CLIHELP-3: init refuses an unknown option (exit 2, E_BAD_ARGS, naming it) and writes nothing', () => {
    const { repo, env } = fresh();
    const before = fs.readdirSync(repo).sort();
    const ran = spawnSync(COMMANDR, ['init', '--wrie'], { cwd: repo, env, encoding: 'utf8' });
    expect(ran.status).toBe(2);
    expect(ran.stdout).toBe('');
    expect(ran.stderr).toMatch(/^commandr init: E_BAD_ARGS: unknown option --wrie/);
    expect(fs.readdirSync(repo).sort()).toEqual(before);
    expect(fs.existsSync(path.join(repo, '--wrie'))).toBe(false);
    expect(fs.readdirSync(path.join(dir!, 'home'))).toEqual([]);
  });
});
