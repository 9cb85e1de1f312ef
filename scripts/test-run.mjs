// What `npm test` (scripts/test.mjs) is made of, apart from its list of stages:
// running the stages in order, some side by side (SUITE-3), with CPU-bound processes
// beside them when COMMANDR_TEST_HOGS asks for a busy machine (SUITE-1, always stopped at the end),
// and the timing report printed at the end of every run (SUITE-2): the time of each
// stage and the slowest test files, from vitest's and Playwright's JSON reports.
import { spawn, spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { cpus, loadavg } from 'node:os';
import { relative, resolve } from 'node:path';

/** The marker in a hog's command line, followed by the pid of the run that started it. */
export const HOG_MARK = 'commandr-test-hog';

/**
 * A CPU-bound process that spins until the run that started it is gone: it checks its
 * parent every ~100 ms, so even a run killed with SIGKILL leaves no hog behind.
 */
const HOG_SOURCE = `const parent = Number(process.argv[1]);
for (;;) {
  const until = Date.now() + 100;
  while (Date.now() < until);
  try { process.kill(parent, 0); } catch { process.exit(0); }
  if (process.ppid !== parent) process.exit(0);
}`;

/** How many hogs COMMANDR_TEST_HOGS asks for: unset or empty is 0; anything but a whole number 0–64 is an error. */
export function hogCount(value) {
  if (value === undefined || value === '') return 0;
  if (!/^\d+$/.test(value) || Number(value) > 64) {
    throw new Error(`COMMANDR_TEST_HOGS must be a whole number of CPU-bound processes from 0 to 64, not ${JSON.stringify(value)}`);
  }
  return Number(value);
}

/**
 * How `npm test` lays out its stages (SUITE-3, SUITE-8), from COMMANDR_TEST_TOGETHER: unset, empty or
 * `0` `none` (the default: one stage after another), `1` `all` (every vitest file beside the app's
 * build and Playwright), `split` (the vitest files that start a real agent CLI on their own, then every
 * other file beside the app's build and Playwright). Anything else is refused naming the variable.
 */
export function stageLayout(value) {
  if (value === undefined || value === '' || value === '0') return 'none';
  if (value === '1') return 'all';
  if (value === 'split') return 'split';
  throw new Error(`COMMANDR_TEST_TOGETHER must be 0 or unset (one after another), 1 (side by side) or split (agent CLIs alone, the rest side by side), not ${JSON.stringify(value)}`);
}

/**
 * What the Playwright stage adds to its environment (SUITE-4): beside vitest (`all`, `split`) one
 * browser unless COMMANDR_PLAYWRIGHT_WORKERS is set; alone (`none`) nothing, so its default of one
 * browser per core holds.
 */
export function playwrightStageEnv(layout, env) {
  return layout !== 'none' && !env.COMMANDR_PLAYWRIGHT_WORKERS ? { COMMANDR_PLAYWRIGHT_WORKERS: '1' } : {};
}

/**
 * The environment every stage runs in (SUITE-10): the caller's, with Next's telemetry off and without
 * NODE_EXTRA_CA_CERTS. Node reads and parses the bundle that variable names at every start, before any
 * code runs: 40 ms of CPU per process on the CI machine, whose environment points it at the system's
 * whole bundle, in a suite that starts thousands of Node processes (bin tools, hooks, relays). No test
 * reaches a TLS server outside loopback, and the ones that speak TLS name their own certificate
 * authority (test/helpers/certificate.ts), so the variable only costs time here.
 */
export function stageEnv(env) {
  const { NODE_EXTRA_CA_CERTS: _unused, ...rest } = env;
  return { ...rest, NEXT_TELEMETRY_DISABLED: '1' };
}

/** Starts `count` hogs and resolves once each is running; `stop()` ends them (idempotent). */
export async function startHogs(count) {
  const hogs = Array.from({ length: count }, () =>
    spawn(process.execPath, ['-e', HOG_SOURCE, String(process.pid), HOG_MARK], { stdio: 'ignore' }));
  await Promise.all(hogs.map((h) => new Promise((resolve, reject) => { h.once('spawn', resolve); h.once('error', reject); })));
  return {
    pids: hogs.map((h) => h.pid),
    stop() {
      for (const h of hogs) if (h.exitCode === null && h.signalCode === null) h.kill('SIGKILL');
    },
  };
}

/**
 * Runs the stages in order, stdio inherited, and stops at the first that fails. A stage is
 * `[label, cmd, args, { env? }]` (`env` added to the run's) or `{ together: [chain, chain, ...] }`:
 * chains (each a list of stages run in turn) run side by side (SUITE-3), their output passed on
 * line by line, each line prefixed with its stage's label. A failed stage ends its chain; the other
 * chains run to their end; no stage after the group runs, and the run's exit code is that of the
 * first stage that failed. Hogs (if any) run beside every stage and are stopped whatever happens:
 * the end, a failed stage, or SIGINT / SIGTERM / SIGHUP to this run (every running stage gets the
 * same signal). Returns the exit code, the time of each stage (`at`: its start, ms after the run's),
 * and the run's wall time.
 */
export async function runStages(stages, { cwd, env, hogs = 0, out = process.stdout } = {}) {
  const running = await startHogs(hogs);
  if (hogs > 0) out.write(`\n== ${hogs} CPU-bound process${hogs === 1 ? '' : 'es'} beside the suite (COMMANDR_TEST_HOGS): pid ${running.pids.join(', ')}\n`);
  const children = new Set();
  const onSignal = (signal) => {
    running.stop();
    for (const child of children) child.kill(signal);
    out.write(`\nnpm test: stopped by ${signal}\n`);
    process.exit(128 + ({ SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[signal] ?? 0));
  };
  const signals = ['SIGINT', 'SIGTERM', 'SIGHUP'];
  for (const s of signals) process.on(s, onSignal);
  const begun = Date.now();
  const times = [];
  let code = 0;
  const fail = (label, result) => {
    out.write(`\nnpm test: ${label} failed (exit ${result.status ?? result.signal}${result.error ? `: ${result.error.message}` : ''})\n`);
    if (code === 0) code = result.status || 1;
  };
  /** Runs one stage; `prefix` set: its output is piped and each line prefixed. Resolves whether it passed. */
  const runOne = async ([label, cmd, args, options = {}], prefix) => {
    out.write(prefix ? `\n== ${label} (started beside the other stages of its group)\n` : `\n== ${label}\n`);
    const started = Date.now();
    let child;
    const result = await new Promise((resolve) => {
      child = spawn(cmd, args, { cwd, env: { ...env, ...options.env }, stdio: prefix ? ['ignore', 'pipe', 'pipe'] : 'inherit' });
      children.add(child);
      if (prefix) for (const stream of [child.stdout, child.stderr]) prefixLines(stream, `[${label}] `, out);
      child.on('error', (error) => resolve({ status: 127, signal: null, error }));
      // 'close', not 'exit': every line of a piped stage is written before its time is taken. A process
      // the stage left behind may hold its pipes open: 5 s after the exit only bounds that wait.
      child.on('close', (status, signal) => resolve({ status, signal }));
      child.on('exit', (status, signal) => {
        if (prefix) setTimeout(() => { child.stdout.destroy(); child.stderr.destroy(); resolve({ status, signal }); }, 5_000).unref();
      });
    });
    children.delete(child);
    times.push({ label, ms: Date.now() - started, ok: result.status === 0, at: started - begun });
    if (result.status !== 0) fail(label, result);
    else if (prefix) out.write(`\n== ${label} passed\n`);
    return result.status === 0;
  };
  try {
    for (const stage of stages) {
      if (Array.isArray(stage)) {
        if (!(await runOne(stage, false))) break;
        continue;
      }
      const results = await Promise.all(stage.together.map(async (chain) => {
        for (const s of chain) if (!(await runOne(s, true))) return false;
        return true;
      }));
      if (!results.every(Boolean)) break;
    }
  } finally {
    running.stop();
    for (const s of signals) process.off(s, onSignal);
  }
  return { code, times, wallMs: Date.now() - begun };
}

/** Copies `stream` to `out` line by line, each line prefixed (a last line without a newline too). */
function prefixLines(stream, prefix, out) {
  let rest = '';
  stream.setEncoding('utf8');
  stream.on('data', (chunk) => {
    const lines = (rest + chunk).split('\n');
    rest = lines.pop();
    if (lines.length) out.write(lines.map((l) => prefix + l + '\n').join(''));
  });
  stream.on('end', () => { if (rest) out.write(prefix + rest + '\n'); });
}

/** Per-file durations from vitest's JSON reporter (`testResults[].name/startTime/endTime`; the file's tests and hooks, not its import). */
export function vitestFiles(report, root) {
  return (report?.testResults ?? [])
    .filter((r) => typeof r.startTime === 'number' && typeof r.endTime === 'number')
    .map((r) => ({ stage: 'vitest', file: relative(root, r.name), ms: r.endTime - r.startTime }));
}

/** Per-file durations from Playwright's JSON reporter: every result of every test in the file, all projects and retries. */
export function playwrightFiles(report, root) {
  const total = new Map();
  const walk = (suite, file) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) for (const r of test.results ?? []) total.set(file, (total.get(file) ?? 0) + (r.duration ?? 0));
    }
    for (const child of suite.suites ?? []) walk(child, file);
  };
  for (const suite of report?.suites ?? []) walk(suite, suite.file ?? suite.title);
  // Files are named relative to the test dir (config.rootDir); the table names them from the repo root.
  const dir = report?.config?.rootDir ?? root;
  return [...total].map(([file, ms]) => ({ stage: 'playwright', file: relative(root, resolve(dir, file)), ms }));
}

const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;

/**
 * The report printed at the end of `npm test`: time per stage (and in all), then the `top` slowest
 * test files. With `wallMs` (stages ran side by side) the total is the run's wall time and the stages
 * that overlapped another are marked.
 */
export function timingReport(times, files, top = 15, wallMs, machine) {
  const lines = ['', '== time per stage'];
  const width = Math.max(5, ...times.map((t) => t.label.length));
  const overlaps = (t) => typeof t.at === 'number' && times.some((o) => o !== t && typeof o.at === 'number' && o.at < t.at + t.ms && t.at < o.at + o.ms);
  for (const t of times) lines.push(`${t.label.padEnd(width)}  ${seconds(t.ms).padStart(9)}${t.ok ? '' : '  (failed)'}${wallMs !== undefined && overlaps(t) ? '  (side by side)' : ''}`);
  lines.push(`${'total'.padEnd(width)}  ${seconds(wallMs ?? times.reduce((sum, t) => sum + t.ms, 0)).padStart(9)}${wallMs !== undefined ? '  (wall)' : ''}`);
  const slowest = [...files].sort((a, b) => b.ms - a.ms).slice(0, top);
  if (slowest.length) {
    lines.push('', `== slowest ${slowest.length} test files`);
    for (const f of slowest) lines.push(`${seconds(f.ms).padStart(9)}  ${f.stage.padEnd(10)}  ${f.file}`);
  }
  if (machine) lines.push('', ...machineLines(machine));
  return lines.join('\n') + '\n';
}

/** Linux's unit for CPU time in /proc (USER_HZ), 100 on every architecture Node runs on. */
const TICKS_PER_S = 100;

/** How many bare Node starts SUITE-11's figure is the mean of. */
export const NODE_STARTS = 20;

/** CPU time (s) of this process's children that have ended and been waited for, from /proc; undefined without /proc. */
function reapedChildrenCpu() {
  try {
    // Fields after the command's closing parenthesis: cutime and cstime are the 14th and 15th.
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[13]) + Number(fields[14])) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/**
 * SUITE-11: what one bare Node start (`node -e 0`) costs in CPU on this machine, in ms, the mean of
 * `runs` starts in `env` (the stages' environment). Most of the suite's CPU is Node starts (bin tools,
 * hooks, relays: thousands of them) and code that scales with the same processor, so this one figure
 * says how fast the machine that produced a run's times was. Undefined without /proc.
 */
export function nodeStartCpuMs(env, runs = NODE_STARTS) {
  const before = reapedChildrenCpu();
  if (before === undefined) return undefined;
  for (let i = 0; i < runs; i++) {
    const r = spawnSync(process.execPath, ['-e', '0'], { env, stdio: 'ignore' });
    if (r.status !== 0) throw new Error(`node -e 0 failed (exit ${r.status ?? r.signal}) in the stages' environment`);
  }
  return ((reapedChildrenCpu() - before) * 1000) / runs;
}

/** SUITE-11: CPU seconds the whole machine has been busy (user, nice, system, irq, softirq, steal) since boot; undefined without /proc. */
export function machineBusyCpu() {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).map(Number);
    return (user + nice + system + irq + softirq + (steal || 0)) / TICKS_PER_S;
  } catch {
    return undefined;
  }
}

/** SUITE-11: the machine a run's times came from, for the end of the report. */
export function machineFacts({ nodeStartMs, busyBefore, busyAfter, wallMs }) {
  return { nodeStartMs, cpuSeconds: busyBefore !== undefined && busyAfter !== undefined ? busyAfter - busyBefore : undefined, wallMs, cores: cpus().length, load: loadavg() };
}

/** SUITE-11's lines: the machine's speed (a Node start's CPU), how busy it was over the run, its cores and load. */
export function machineLines({ nodeStartMs, cpuSeconds, wallMs, cores, load }) {
  const lines = ['== the machine'];
  lines.push(nodeStartMs === undefined ? 'node start     not measured here (no /proc)' : `node start  ${nodeStartMs.toFixed(1).padStart(6)} ms of CPU  (node -e 0, mean of ${NODE_STARTS}, before the first stage)`);
  if (cpuSeconds !== undefined) {
    const share = wallMs ? `, ${Math.round((cpuSeconds / (wallMs / 1000) / cores) * 100)}% of ${cores} cores` : '';
    lines.push(`busy        ${cpuSeconds.toFixed(0).padStart(6)} CPU-s  (the whole machine over the run${share})`);
  }
  lines.push(`load average  ${load.map((l) => l.toFixed(2)).join(' ')}  (1, 5, 15 min, at the end)`);
  return lines;
}

/** A JSON report, or undefined when the stage did not get far enough to write it. */
export function readReport(file) {
  try {
    return JSON.parse(readFileSync(file, 'utf8'));
  } catch {
    return undefined;
  }
}
