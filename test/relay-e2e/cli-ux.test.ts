// Command-line traps (CLIUX-n): `commandr task new`, what `commandr init` says next,
// and the gate's block message — the real bin/commandr over real temp git repos.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parsePacket } from '../../bus/packet';
import { git } from '../council/fixtures';

const BIN = path.join(__dirname, '..', '..', 'bin', 'commandr');
let dir: string;
let repo: string;
let env: NodeJS.ProcessEnv;

beforeEach(() => {
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-ux-')));
  repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  fs.mkdirSync(path.join(dir, 'home'));
  env = {
    ...process.env, HOME: path.join(dir, 'home'), COMMANDR_HOME: path.join(dir, 'data'), AGENTS_INDEX_REPOS: path.join(dir, 'registry'),
    GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@t', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@t',
  };
  delete env.AGENTS_TASK_ID;
  git(repo, 'init', '-q', '-b', 'main');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const commandr = (args: string[], cwd = repo) => spawnSync(BIN, args, { cwd, env, encoding: 'utf8' });

describe('commandr task new', () => {
  it('CLIUX-1: writes one complete packet into the inbox that the bus parses (every section, the fields given); bad input writes nothing', async () => {
    expect(commandr(['init']).status).toBe(0);
    const run = commandr(['task', 'new', 'T-7', '--scope', 'src/**', '--title', 'Add a health check: GET /healthz', '--type', 'implementation',
      '--context', 'Ops wants one.', '--criterion', 'GET /healthz answers 200', '--criterion', 'a test covers it', '--file', 'src/server.ts', '--blocked-by', 'T-6']);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    const file = path.join(repo, '.agents', 'inbox', 'T-7.md');
    expect(run.stdout).toBe(`inbox:${file}\n`);
    const parsed = await parsePacket(fs.readFileSync(file, 'utf8'));
    expect(parsed.ok && { front: parsed.front, missing: parsed.missingSections }).toEqual({
      front: { id: 'T-7', type: 'implementation', scope: 'src/**', blocking: [], 'blocked-by': ['T-6'] }, missing: [],
    });
    expect(fs.readFileSync(file, 'utf8')).toContain('# Add a health check: GET /healthz\n');
    expect(fs.readFileSync(file, 'utf8')).toContain('- GET /healthz answers 200\n- a test covers it\n');
    // The same id again, a bad id, a bad type, a title with a line break: exit codes, nothing written.
    const again = commandr(['task', 'new', 'T-7', '--scope', 'x', '--title', 'again']);
    expect([again.status, again.stderr]).toEqual([1, expect.stringMatching(/E_EXISTS: task T-7 already has a packet/)]);
    expect(commandr(['task', 'new', '../x', '--scope', 'x', '--title', 't']).status).toBe(2);
    expect(commandr(['task', 'new', 'T-8', '--scope', 'x', '--title', 't', '--type', 'chore']).status).toBe(2);
    expect(commandr(['task', 'new', 'T-9', '--scope', 'x', '--title', 'two\nlines']).status).toBe(2);
    expect(commandr(['task', 'new', 'T-10', '--title', 'no scope']).status).toBe(2);
    expect(fs.readdirSync(path.join(repo, '.agents', 'inbox')).sort()).toEqual(['.gitkeep', 'T-7.md']); // and no temp file
    // And `claim` takes one as written (T-7 waits for T-6), with no missing-section warning.
    expect(commandr(['task', 'new', 'T-11', '--scope', 'docs/**', '--title', 'Document it']).status).toBe(0);
    const claim = spawnSync(BIN, ['claim'], { cwd: repo, env, encoding: 'utf8' });
    expect(claim.stdout).toMatch(/^claimed:.*T-11\.md\n/);
    expect(claim.stderr).not.toMatch(/section/);
  });
});

describe('commandr init', () => {
  it('CLIUX-4: init prints the next steps (commit the bus, add a task, wire, serve and pair) and writes no absolute path into files meant to be committed', () => {
    const run = commandr(['init']);
    expect(run.status).toBe(0);
    expect(run.stdout).toBe(`init:${path.join(repo, '.agents')}\n`);
    expect(run.stderr).toContain('next steps:');
    expect(run.stderr).toContain('commandr task new T-1');
    expect(run.stderr).toContain(`commandr wire ${repo}`);
    expect(run.stderr).toContain('commandr serve');
    git(repo, 'add', '-A');
    const committed = spawnSync('git', ['ls-files'], { cwd: repo, encoding: 'utf8' }).stdout.trim().split('\n');
    for (const f of committed) expect(fs.readFileSync(path.join(repo, f), 'utf8'), f).not.toContain(dir);
  });

  it('CLIUX-6: init --wire names in its commit step the shared agent setup (.mcp.json, .claude/settings.json) and never settings.local.json; that exact line commits them', () => {
    const run = commandr(['init', '--wire']);
    expect(run.status, run.stderr).toBe(0);
    const step = run.stderr.split('\n').find((l) => l.includes('commit the bus skeleton'));
    const add = /git add ([^&]+) &&/.exec(step ?? '')?.[1]?.trim().split(' ');
    expect(add).toEqual(['.gitignore', '.agents', '.mcp.json', path.join('.claude', 'settings.json')]);
    git(repo, 'add', ...add!);
    const staged = spawnSync('git', ['diff', '--cached', '--name-only'], { cwd: repo, encoding: 'utf8' }).stdout.split('\n');
    expect(staged).toEqual(expect.arrayContaining(['.mcp.json', '.claude/settings.json', '.gitignore']));
    expect(staged).not.toContain('.claude/settings.local.json');
  });
});

describe('the gate', () => {
  it('CLIUX-5: a blocked commit says to approve it in Commandr on the phone, then run `git commit` again', () => {
    expect(commandr(['init']).status).toBe(0);
    git(repo, 'checkout', '-q', '-b', 'agent/T-1');
    fs.writeFileSync(path.join(repo, 'a.txt'), 'a\n');
    git(repo, 'add', 'a.txt');
    const commit = spawnSync('git', ['commit', '-q', '-m', 'x'], { cwd: repo, env, encoding: 'utf8' });
    expect(commit.status).not.toBe(0);
    expect(commit.stderr).toContain('approve it in Commandr on your phone, then run `git commit` again');
  });
});
