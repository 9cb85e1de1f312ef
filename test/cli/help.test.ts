// `--help` on every command and verb prints help and changes nothing (CLIHELP-1), and only
// `commandr` goes on the person's PATH (CLIHELP-2). The real install (bin/ over dist/: run
// `node scripts/build.mjs` first), each invocation in its own fresh git repo with its own
// HOME and COMMANDR_HOME, both compared byte for byte before and after.
import { spawn, execFileSync, spawnSync } from 'node:child_process';
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

const ROOT = path.join(__dirname, '..', '..');
const BIN = path.join(ROOT, 'bin');
const COMMANDR = path.join(BIN, 'commandr');

/**
 * The verbs each command takes, each walked with --help too. Every key must be a command the
 * umbrella lists; a command the umbrella adds with verbs of its own belongs here.
 */
const VERBS: Record<string, string[][]> = {
  init: [['.'], ['.', '--wire'], ['--no-sandbox']],
  claim: [['--remote', 'origin']],
  complete: [['.agents/claimed/x.md', 'pass']],
  progress: [['T-1', 'a note']],
  'pre-commit-gate': [['commit-msg', 'msg'], ['post-commit'], ['post-merge', '0']],
  claims: [['list', 'origin'], ['release', 'T-1']],
  council: [['--diff', 'HEAD']],
  index: [['refresh']],
  task: [['new', 'T-1', '--scope', 'src/**', '--title', 'x']],
  'annotate-write': [['--bus', '.agents', '--task', 'T-1', '--turn', '1']],
  serve: [['--port', '0']],
  pair: [['--data', 'data']],
  devices: [['list'], ['revoke', 'd-1'], ['owner', 'd-1']],
  commanders: [['list'], ['start', 'n', '.'], ['say', 'c-1', 'hi'], ['replace', 'c-1'], ['delete', 'c-1'], ['log', 'c-1']],
  machines: [['add'], ['list'], ['remove', 'm-1']],
  join: [['http://127.0.0.1:9', 'code']],
  wire: [['.'], ['.', '--dry-run'], ['--adapter', 'opencode']],
  verify: [['main..HEAD'], ['--pre-push', 'origin'], ['--install', '.']],
  doctor: [],
  mcp: [[`--node=${process.execPath}`]],
  policy: [['check', 'Bash', 'ls']],
  sandbox: [['--repo', '.']],
};

interface Entry { kind: string; mode: number; hash: string }

/** Every path under `dir` with its type, mode and content hash (a symlink: its target). */
function snapshot(dir: string, out = new Map<string, Entry>(), base = dir): Map<string, Entry> {
  for (const name of fs.readdirSync(dir).sort()) {
    const file = path.join(dir, name);
    const rel = path.relative(base, file);
    const st = fs.lstatSync(file);
    if (st.isSymbolicLink()) out.set(rel, { kind: 'link', mode: st.mode, hash: fs.readlinkSync(file) });
    else if (st.isDirectory()) {
      out.set(rel, { kind: 'dir', mode: st.mode, hash: '' });
      snapshot(file, out, base);
    } else out.set(rel, { kind: 'file', mode: st.mode, hash: crypto.createHash('sha256').update(fs.readFileSync(file)).digest('hex') });
  }
  return out;
}

/** The repo and the home together, each path prefixed with which of the two it is in. */
function state(repo: string, home: string): Map<string, Entry> {
  const out = new Map<string, Entry>();
  for (const [k, v] of snapshot(repo)) out.set(`repo/${k}`, v);
  for (const [k, v] of snapshot(home)) out.set(`home/${k}`, v);
  return out;
}

function differences(before: Map<string, Entry>, after: Map<string, Entry>): string[] {
  const out: string[] = [];
  for (const [rel, entry] of after) {
    const was = before.get(rel);
    if (!was) out.push(`added ${rel}`);
    else if (JSON.stringify(was) !== JSON.stringify(entry)) out.push(`changed ${rel}`);
  }
  for (const rel of before.keys()) if (!after.has(rel)) out.push(`removed ${rel}`);
  return out;
}

interface Outcome { line: string; code: number | null; stdout: string; stderr: string; changed: string[] }

let tmp: string;
let template: string;

beforeAll(() => {
  if (!fs.existsSync(path.join(ROOT, 'dist', 'commandr.cjs'))) throw new Error('dist/ is not built: run `node scripts/build.mjs` first');
  tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'cli-help-')));
  // One committed repo and an empty home, copied fresh for every invocation.
  template = path.join(tmp, 'template');
  const repo = path.join(template, 'repo');
  fs.mkdirSync(path.join(template, 'home'), { recursive: true });
  fs.mkdirSync(repo);
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
  fs.writeFileSync(path.join(repo, 'README.md'), 'hello\n');
  execFileSync('git', ['add', 'README.md'], { cwd: repo });
  execFileSync('git', ['-c', 'user.name=t', '-c', 'user.email=t@t', 'commit', '-q', '-m', 'init'], { cwd: repo });
});

afterAll(() => {
  if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
});

let serial = 0;

/** Runs one invocation in a fresh copy of the template; a hang is bounded, never waited on. */
function run(file: string, args: string[]): Promise<Outcome> {
  const dir = path.join(tmp, `run-${serial++}`);
  fs.cpSync(template, dir, { recursive: true, verbatimSymlinks: true });
  const repo = path.join(dir, 'repo');
  const home = path.join(dir, 'home');
  const before = state(repo, home);
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: home, COMMANDR_HOME: path.join(home, '.commandr'), LANG: 'C.UTF-8' } as unknown as NodeJS.ProcessEnv; // Next's global types make NODE_ENV required
  const line = [path.relative(ROOT, file), ...args].join(' ');
  return new Promise((resolve) => {
    const child = spawn(file, args, { cwd: repo, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
    child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
    // Help never takes long; a command that ignored --help and started serving is stopped here.
    const limit = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch { /* gone */ }
    }, 30_000);
    let settled = false;
    const finish = (code: number | null): void => {
      if (settled) return;
      settled = true;
      clearTimeout(limit);
      child.stdout.destroy();
      child.stderr.destroy();
      resolve({ line, code, stdout, stderr, changed: differences(before, state(repo, home)) });
    };
    child.on('close', finish);
    // A background process it left behind may hold the pipes open: the exit decides, 5 s later at most.
    child.on('exit', (code) => setTimeout(() => finish(code), 5_000).unref());
  });
}

/** All of them, a few at a time (the machine is shared). */
async function runAll(calls: Array<[string, string[]]>, width = 3): Promise<Outcome[]> {
  const results: Outcome[] = new Array(calls.length);
  let next = 0;
  await Promise.all(Array.from({ length: width }, async () => {
    while (next < calls.length) {
      const at = next++;
      results[at] = await run(...calls[at]!);
    }
  }));
  return results;
}

/** What is wrong with one help invocation: nothing when it printed help on stdout, exited 0 and changed nothing. */
function problems(o: Outcome): string[] {
  const wrong: string[] = [];
  if (o.code !== 0) wrong.push(`exit ${o.code}`);
  if (!/usage/i.test(o.stdout)) wrong.push(`no help on stdout (stdout ${JSON.stringify(o.stdout.slice(0, 80))}, stderr ${JSON.stringify(o.stderr.slice(0, 120))})`);
  if (o.changed.length > 0) wrong.push(`changed ${o.changed.slice(0, 6).join(', ')}${o.changed.length > 6 ? ' …' : ''}`);
  return wrong.length === 0 ? [] : [`${o.line}: ${wrong.join('; ')}`];
}

/** The commands `commandr --help` lists. */
function umbrellaCommands(): string[] {
  const help = spawnSync(COMMANDR, ['--help'], { encoding: 'utf8' });
  expect(help.status).toBe(0);
  return [...help.stdout.matchAll(/^ {2}commandr (\S+)/gm)].map((m) => m[1]!).filter((c) => !c.startsWith('-'));
}

/** The bare tools in bin/: every executable but the umbrella's helpers. */
function bareTools(): string[] {
  return fs.readdirSync(BIN).filter((f) => {
    const st = fs.statSync(path.join(BIN, f));
    return st.isFile() && (st.mode & 0o111) !== 0;
  }).sort();
}

describe('CLI help', () => {
  it('CLIHELP-1: --help and -h on every command the umbrella lists and on each of its verbs print help on stdout, exit 0 and change neither the repo nor the home', async () => {
    const commands = umbrellaCommands();
    // The table in cli/commandr.ts is what `commandr --help` lists: none is missed.
    const table = [...fs.readFileSync(path.join(ROOT, 'cli', 'commandr.ts'), 'utf8').matchAll(/^ {2}'?([a-z][a-z-]*)'?: \{ summary:/gm)].map((m) => m[1]!);
    expect(table.length).toBeGreaterThan(15);
    expect(commands.sort()).toEqual([...table].sort());
    expect(Object.keys(VERBS).sort()).toEqual([...commands].sort());
    const calls: Array<[string, string[]]> = [];
    for (const command of commands) {
      calls.push([COMMANDR, [command, '--help']], [COMMANDR, [command, '-h']]);
      for (const verb of VERBS[command]!) calls.push([COMMANDR, [command, ...verb, '--help']]);
    }
    const outcomes = await runAll(calls);
    expect(outcomes.length).toBe(calls.length);
    expect(outcomes.flatMap(problems)).toEqual([]);
  }, 600_000);

  it('CLIHELP-1: --help and -h on every bare tool in bin/ and on each adapter\'s wire print help and change nothing', async () => {
    const tools = bareTools();
    expect(tools).toEqual(expect.arrayContaining(['annotate-write', 'claim', 'commandr', 'complete', 'council', 'index', 'pre-commit-gate', 'progress', 'verify']));
    const wires = fs.readdirSync(path.join(ROOT, 'adapters')).map((a) => path.join(ROOT, 'adapters', a, 'wire')).filter((f) => fs.existsSync(f));
    expect(wires.length).toBeGreaterThanOrEqual(2);
    const calls: Array<[string, string[]]> = [];
    for (const file of [...tools.map((t) => path.join(BIN, t)), ...wires]) calls.push([file, ['--help']], [file, ['-h']]);
    // A verb's help is the tool's help: `claim --remote origin --help` claims nothing.
    calls.push([path.join(BIN, 'claim'), ['--remote', 'origin', '--help']], [path.join(BIN, 'index'), ['refresh', '-h']], [wires[0]!, ['.', '--help']]);
    const outcomes = await runAll(calls);
    expect(outcomes.flatMap(problems)).toEqual([]);
  }, 600_000);

  it('CLIHELP-1: words after -- are not help: `commandr sandbox -- <cli> --help` hands --help to the CLI', async () => {
    // Without a sandbox on this machine the command says so (exit 1) instead: either way it is not commandr's help.
    const [o] = await runAll([[COMMANDR, ['sandbox', '--', 'sh', '-c', 'echo "child got $1"', 'sh', '--help']]]);
    expect(o!.stdout).not.toMatch(/usage: commandr sandbox/);
    if (o!.code === 0) expect(o!.stdout).toContain('child got --help');
    else expect(o!.stderr).toMatch(/sandbox/);
  }, 60_000);

  it('CLIHELP-2: only `commandr` goes on the PATH (package.json bin); the bare tools stay executable in bin/ for the bus contract', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { bin: Record<string, string> };
    expect(pkg.bin).toEqual({ commandr: 'bin/commandr' });
    const lock = JSON.parse(fs.readFileSync(path.join(ROOT, 'package-lock.json'), 'utf8')) as { packages: Record<string, { bin?: Record<string, string> }> };
    expect(lock.packages['']!.bin).toEqual({ commandr: 'bin/commandr' });
    for (const tool of ['claim', 'complete', 'progress', 'pre-commit-gate', 'council', 'index', 'annotate-write', 'verify']) {
      expect(fs.statSync(path.join(BIN, tool)).mode & 0o111, tool).not.toBe(0);
    }
  });
});
