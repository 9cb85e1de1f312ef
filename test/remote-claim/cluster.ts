// Shared set-up for remote-claim and lease tests: a bare remote whose main branch
// carries inbox packets, clones of it each with its own bus (the machines), and
// the bin tools run as real processes.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, readlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { bundleCli, cleanEnv, git, packetText, run, type RunResult, type TempDirs } from '../council/fixtures';

const BUS_DIRS = ['inbox', 'claimed', 'done', 'approvals'];

export interface Cluster { root: string; origin: string; ids: string[]; clones: string[] }

/** A bare remote whose main branch carries `count` inbox packets, and `machines` clones of it. */
export function cluster(dirs: TempDirs, count: number, machines: number): Cluster {
  const root = dirs.make('remote-claim-');
  const origin = join(root, 'origin.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  const seed = join(root, 'seed');
  git(root, 'clone', '-q', origin, seed);
  git(seed, 'config', 'user.email', 's@example.com');
  git(seed, 'config', 'user.name', 'Seed');
  mkdirSync(join(seed, '.agents', 'inbox'), { recursive: true });
  const ids = Array.from({ length: count }, (_, i) => `R-${String(i).padStart(2, '0')}`);
  for (const id of ids) writeFileSync(join(seed, '.agents', 'inbox', `${id}.md`), packetText(id));
  git(seed, 'add', '.');
  git(seed, 'commit', '-q', '-m', 'packets');
  git(seed, 'push', '-q', 'origin', 'main');
  const clones = Array.from({ length: machines }, (_, k) => {
    const clone = join(root, `machine-${k}`);
    git(root, 'clone', '-q', origin, clone);
    for (const d of BUS_DIRS) mkdirSync(join(clone, '.agents', d), { recursive: true });
    return clone;
  });
  return { root, origin, ids, clones };
}

/** Runs a bin tool (bundled from cli/<name>.ts) as its own process in `cwd`. */
export async function tool(name: string, cwd: string, args: string[], env: Record<string, string> = {}): Promise<RunResult> {
  return run(await bundleCli(name), args, { cwd, env: cleanEnv(env) });
}

/** Every event of a clone's bus log. */
export function events(clone: string): Array<Record<string, unknown>> {
  const file = join(clone, '.agents', 'events.jsonl');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l));
}

/** `key: value` fields of the commit `rev` in `repo`. */
export function leaseFields(repo: string, rev: string): Record<string, string> {
  const body = git(repo, 'log', '-1', '--format=%B', rev);
  return Object.fromEntries(body.split('\n').map((l) => /^([a-z-]+): (.*)$/.exec(l)).filter((m) => m !== null).map((m) => [m![1]!, m![2]!]));
}

/** Polls `check` every 20 ms until it holds (a condition, not a fixed sleep); fails after `ms`. */
export async function until(check: () => boolean | Promise<boolean>, ms = 20_000, what = 'condition'): Promise<void> {
  const deadline = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** Waits until the lease on the remote's `refs/tasks/<id>` tip has lapsed by the shared clock. */
export async function leaseLapsed(origin: string, id: string): Promise<void> {
  const until_ = Date.parse(leaseFields(origin, `refs/tasks/${id}`)['lease-until']!);
  await until(() => Date.now() > until_ + 5, 60_000, `the lease on ${id} to lapse`);
}

/**
 * A long-running process in `cwd` that runs `<cli> args…` in a loop (each a
 * real child process) once `go` exists, until `stop` exists; it prints one line
 * per run (`<exit code> <first stdout line>`). Used for claimants that renew and takers that retry.
 */
export function looper(root: string, cli: string, cwd: string, args: string[], files: { go: string; stop: string }, env: Record<string, string> = {}) {
  const script = join(root, 'looper.cjs');
  if (!existsSync(script)) {
    writeFileSync(script, `const { spawnSync } = require('child_process'); const fs = require('fs');
const [cli, go, stop, ...args] = process.argv.slice(2);
const deadline = Date.now() + 60000;
(function wait() { if (!fs.existsSync(go) && Date.now() < deadline) return setTimeout(wait, 5); loop(); })();
function loop() {
  while (!fs.existsSync(stop) && Date.now() < deadline) {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    process.stdout.write(r.status + ' ' + r.stdout.split('\\n')[0] + (r.stderr ? ' | ' + r.stderr.replace(/\\n/g, ' ') : '') + '\\n');
  }
  process.exit(0);
}`);
  }
  const child = spawn(process.execPath, [script, cli, files.go, files.stop, ...args], { cwd, env: cleanEnv(env) });
  let out = '';
  child.stdout.on('data', (c) => (out += c));
  child.stderr.on('data', (c) => (out += c));
  const closed = new Promise<void>((resolve) => child.on('close', () => resolve()));
  return { child, closed, lines: () => out.split('\n').filter(Boolean) };
}

/** Runs `claim` in `clone` until it prints inbox:empty, starting once `go` exists (so racers start together). */
export function claimWorker(root: string, claimCli: string, clone: string, go: string, env: Record<string, string>, args: string[]): Promise<{ code: number | null; out: string; err: string }> {
  const script = join(root, 'worker.cjs');
  if (!existsSync(script)) {
    writeFileSync(script, `const { spawnSync } = require('child_process'); const fs = require('fs');
const [cli, go, ...args] = process.argv.slice(2);
const deadline = Date.now() + 20000;
(function wait() { if (!fs.existsSync(go) && Date.now() < deadline) return setTimeout(wait, 5); loop(); })();
function loop() {
  for (let i = 0; i < 100; i++) {
    const r = spawnSync(process.execPath, [cli, ...args], { encoding: 'utf8' });
    if (r.status !== 0) { process.stderr.write(r.stderr); process.exit(r.status || 1); }
    const first = r.stdout.split('\\n')[0];
    if (first === 'inbox:empty') process.exit(0);
    process.stdout.write(first + '\\n');
  }
  process.exit(3);
}`);
  }
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [script, claimCli, go, ...args], { cwd: clone, env: cleanEnv(env) });
    let out = '';
    let err = '';
    child.stdout.on('data', (c) => (out += c));
    child.stderr.on('data', (c) => (err += c));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out, err }));
  });
}

/** Pids of live processes whose working directory is `dir` or below it (Linux /proc). */
export function processesIn(dir: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const cwd = readlinkSync(`/proc/${entry}/cwd`);
      if (cwd === dir || cwd.startsWith(dir + '/')) pids.push(Number(entry));
    } catch {
      // gone, or not ours to read
    }
  }
  return pids;
}
