// The `npm test` runner itself (scripts/test-run.mjs, used by scripts/test.mjs):
// CPU hogs beside the suite that never outlive the run (SUITE-1), and the timing
// report built from real vitest and Playwright JSON reports (SUITE-2).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
// @ts-expect-error -- a plain .mjs script without types
import { HOG_MARK, hogCount, machineBusyCpu, machineFacts, nodeStartCpuMs, playwrightFiles, playwrightStageEnv, runStages, stageEnv, stageLayout, timingReport, vitestFiles } from '../scripts/test-run.mjs';
import playwrightConfig from '../playwright.config';
// @ts-expect-error -- an .mts import (vitest's own config); its type is not needed here
import vitestConfig from '../vitest.config.mts';
import { playwrightWorkers, vitestWorkers } from './suite-workers';

const ROOT = path.resolve(__dirname, '..');
const RUNNER = path.join(ROOT, 'scripts', 'test-run.mjs');
const dirs: string[] = [];
afterEach(() => { for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true }); });
function tempDir(): string {
  const d = mkdtempSync(path.join(tmpdir(), 'suite-runner-'));
  dirs.push(d);
  return d;
}

/** Pids of the hogs started by the run with pid `runPid` (read from /proc, as `ps` would). */
function hogsOf(runPid: number): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const argv = readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0');
      const state = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.[0];
      if (argv.includes(HOG_MARK) && argv.includes(String(runPid)) && state !== 'Z') pids.push(Number(entry));
    } catch { /* gone meanwhile */ }
  }
  return pids;
}

/** Waits for `check` to hold, polling; the deadline only bounds a hang. */
async function until(check: () => boolean, what: string, deadlineMs = 45_000): Promise<void> {
  const end = Date.now() + deadlineMs;
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting until ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** A stage: node running `source`. */
const nodeStage = (label: string, source: string, ...args: string[]) => [label, process.execPath, ['-e', source, ...args]];
const quiet = { write: () => true };

describe('npm test runner', () => {
  it('SUITE-1: COMMANDR_TEST_HOGS=2 runs two CPU-bound processes beside every stage, and none is left when the run ends', { timeout: 120_000 }, async () => {
    const dir = tempDir();
    // Each stage records how many hogs of this run it saw and how much CPU they had used.
    const probe = `const fs = require('fs'); const [out] = process.argv.slice(1); const { MARK: mark, RUN: run } = process.env;
      const ticks = () => fs.readdirSync('/proc').filter((p) => /^\\d+$/.test(p)).flatMap((p) => { try {
        const argv = fs.readFileSync('/proc/' + p + '/cmdline', 'utf8').split('\\0');
        if (!argv.includes(mark) || !argv.includes(run)) return [];
        const f = fs.readFileSync('/proc/' + p + '/stat', 'utf8').split(') ')[1].split(' ');
        return [Number(f[11]) + Number(f[12])]; } catch { return []; } });
      const first = ticks(); const end = Date.now() + 20000; let now = ticks();
      while (Date.now() < end && !(now.length === first.length && now.every((t, i) => t > first[i]))) { const s = Date.now() + 50; while (Date.now() < s); now = ticks(); }
      fs.writeFileSync(out, JSON.stringify({ hogs: first.length, busy: now.every((t, i) => t > first[i]) }));`;
    const stages = [1, 2].map((n) => [...nodeStage(`probe ${n}`, probe, path.join(dir, `stage${n}.json`)), { env: { MARK: HOG_MARK, RUN: String(process.pid) } }]);
    const { code, times } = await runStages(stages, { cwd: dir, env: process.env, hogs: 2, out: quiet });
    expect(code).toBe(0);
    expect(times.map((t: { label: string; ok: boolean }) => [t.label, t.ok])).toEqual([['probe 1', true], ['probe 2', true]]);
    for (const n of [1, 2]) expect(JSON.parse(readFileSync(path.join(dir, `stage${n}.json`), 'utf8'))).toEqual({ hogs: 2, busy: true });
    await until(() => hogsOf(process.pid).length === 0, 'the hogs are gone');
  });

  it('SUITE-1: a failed stage ends the run with its exit code, runs no later stage, and stops the hogs', async () => {
    const dir = tempDir();
    const { code, times } = await runStages([
      nodeStage('fails', 'process.exit(3)'),
      nodeStage('never', `require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'ran'))}, '')`),
    ], { cwd: dir, env: process.env, hogs: 1, out: quiet });
    expect(code).toBe(3);
    expect(times.map((t: { label: string; ok: boolean }) => [t.label, t.ok])).toEqual([['fails', false]]);
    expect(existsSync(path.join(dir, 'ran'))).toBe(false);
    await until(() => hogsOf(process.pid).length === 0, 'the hogs are gone');
  });

  it('SUITE-10: a stage runs without NODE_EXTRA_CA_CERTS and with Next telemetry off; everything else of the caller\'s environment reaches it', async () => {
    const dir = tempDir();
    const seen = path.join(dir, 'env.json');
    const caller = { ...process.env, NODE_EXTRA_CA_CERTS: '/etc/ssl/certs/ca-certificates.crt', COMMANDR_PROBE: 'kept' };
    const { code } = await runStages([
      nodeStage('env', `require('fs').writeFileSync(${JSON.stringify(seen)}, JSON.stringify(process.env))`),
    ], { cwd: dir, env: stageEnv(caller), hogs: 0, out: quiet });
    expect(code).toBe(0);
    const env = JSON.parse(readFileSync(seen, 'utf8'));
    expect(env.NODE_EXTRA_CA_CERTS).toBeUndefined();
    expect(env.COMMANDR_PROBE).toBe('kept');
    expect(env.NEXT_TELEMETRY_DISABLED).toBe('1');
    expect(env.PATH).toBe(process.env.PATH);
    expect(caller.NODE_EXTRA_CA_CERTS, 'the caller\'s own environment is left as it was').toBe('/etc/ssl/certs/ca-certificates.crt');
  });

  it('SUITE-1: a run stopped by SIGINT or SIGTERM stops its stage and its hogs; a run killed outright leaves no hog either', { timeout: 240_000 }, async () => {
    const dir = tempDir();
    const script = path.join(dir, 'run.mjs');
    writeFileSync(script, `import { runStages } from ${JSON.stringify(RUNNER)};
      const stage = ['long', process.execPath, ['-e', "require('fs').writeFileSync(process.argv[1], String(process.pid)); setInterval(() => {}, 1000)", process.argv[2]]];
      const { code } = await runStages([stage], { cwd: process.cwd(), env: process.env, hogs: 2 });
      process.exit(code);`);
    for (const signal of ['SIGINT', 'SIGTERM', 'SIGKILL'] as const) {
      const stagePidFile = path.join(dir, `stage-${signal}`);
      const run = spawn(process.execPath, [script, stagePidFile], { cwd: dir, stdio: 'ignore' });
      const exited = new Promise<number | null>((r) => run.on('exit', (code) => r(code)));
      await until(() => existsSync(stagePidFile) && readFileSync(stagePidFile, 'utf8') !== '' && hogsOf(run.pid!).length === 2, `${signal}: the stage and two hogs run`);
      const stagePid = Number(readFileSync(stagePidFile, 'utf8'));
      run.kill(signal);
      const code = await exited;
      if (signal !== 'SIGKILL') expect(code, signal).toBe(signal === 'SIGINT' ? 130 : 143);
      await until(() => hogsOf(run.pid!).length === 0, `${signal}: the hogs are gone`);
      if (signal !== 'SIGKILL') await until(() => !alive(stagePid), `${signal}: the stage is gone`);
      else process.kill(stagePid, 'SIGKILL'); // an orphaned stage is the killer's to clean up, as with any process tree
    }
  });

  it('SUITE-1: COMMANDR_TEST_HOGS takes a whole number; anything else is refused naming the variable', () => {
    expect(hogCount(undefined)).toBe(0);
    expect(hogCount('')).toBe(0);
    expect(hogCount('2')).toBe(2);
    for (const bad of ['two', '-1', '1.5', '1e3', ' 2', '65']) expect(() => hogCount(bad), bad).toThrow(/COMMANDR_TEST_HOGS must be a whole number/);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'test.mjs')], { env: { ...process.env, COMMANDR_TEST_HOGS: 'lots' }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('COMMANDR_TEST_HOGS must be a whole number of CPU-bound processes from 0 to 64, not "lots"');
  });

  it('SUITE-3: one after another by default; COMMANDR_TEST_TOGETHER=1 side by side, split the agent CLIs alone then the rest side by side, 0 none, and anything else is refused naming the variable', () => {
    expect(stageLayout(undefined)).toBe('none');
    expect(stageLayout('')).toBe('none');
    expect(stageLayout('0')).toBe('none');
    expect(stageLayout('1')).toBe('all');
    expect(stageLayout('split')).toBe('split');
    for (const bad of ['yes', 'true', ' 1', '2', 'Split']) expect(() => stageLayout(bad), bad).toThrow(/COMMANDR_TEST_TOGETHER must be 0 or unset \(one after another\), 1 \(side by side\) or split/);
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'test.mjs')], { env: { ...process.env, COMMANDR_TEST_TOGETHER: 'yes' }, encoding: 'utf8' });
    expect(r.status).toBe(2);
    expect(r.stderr).toContain('COMMANDR_TEST_TOGETHER must be 0 or unset (one after another), 1 (side by side) or split (agent CLIs alone, the rest side by side), not "yes"');
  });

  it('SUITE-2: the end-of-run report gives the time per stage and the slowest test files, from real vitest and Playwright JSON reports', { timeout: 240_000 }, () => {
    const dir = tempDir();
    symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));
    mkdirSync(path.join(dir, 'e2e'));
    // Real files that take a known minimum: a vitest file of ~600 ms, one of ~0; a Playwright spec of ~400 ms in two projects.
    writeFileSync(path.join(dir, 'slow.test.mjs'), "import { it } from 'vitest';\nit('waits', async () => { const end = Date.now() + 600; while (Date.now() < end); });\n");
    writeFileSync(path.join(dir, 'fast.test.mjs'), "import { it } from 'vitest';\nit('is quick', () => {});\n");
    writeFileSync(path.join(dir, 'e2e', 'page.pw.mjs'), "import { test } from '@playwright/test';\ntest.describe('group', () => { test('spins', async () => { const end = Date.now() + 400; while (Date.now() < end); }); });\n");
    writeFileSync(path.join(dir, 'playwright.config.mjs'), "export default { testDir: 'e2e', testMatch: '**/*.pw.mjs', workers: 1, projects: [{ name: 'a' }, { name: 'b' }] };\n");
    const vitestJson = path.join(dir, 'vitest.json');
    const playwrightJson = path.join(dir, 'playwright.json');
    const vi = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--root', dir, '--reporter=json', `--outputFile.json=${vitestJson}`], { cwd: dir, encoding: 'utf8' });
    expect(vi.status, vi.stderr).toBe(0);
    const pw = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'playwright'), ['test', '-c', 'playwright.config.mjs', '--reporter=json'], { cwd: dir, encoding: 'utf8', env: { ...process.env, PLAYWRIGHT_JSON_OUTPUT_NAME: playwrightJson } });
    expect(pw.status, pw.stderr).toBe(0);

    const files = [...vitestFiles(JSON.parse(readFileSync(vitestJson, 'utf8')), dir), ...playwrightFiles(JSON.parse(readFileSync(playwrightJson, 'utf8')), dir)];
    const byFile = Object.fromEntries(files.map((f: { file: string; ms: number; stage: string }) => [f.file, f]));
    expect(Object.keys(byFile).sort()).toEqual(['e2e/page.pw.mjs', 'fast.test.mjs', 'slow.test.mjs']);
    expect(byFile['slow.test.mjs']).toMatchObject({ stage: 'vitest', ms: expect.any(Number) });
    expect(byFile['slow.test.mjs'].ms).toBeGreaterThanOrEqual(600);
    expect(byFile['e2e/page.pw.mjs'].stage).toBe('playwright');
    expect(byFile['e2e/page.pw.mjs'].ms).toBeGreaterThanOrEqual(800); // both projects, the describe walked into

    const report: string = timingReport([{ label: 'vitest', ms: 61_000, ok: true }, { label: 'playwright', ms: 2_500, ok: false }], files, 2);
    const lines = report.trim().split('\n');
    expect(lines.slice(0, 5)).toEqual(['== time per stage', 'vitest         61.0 s', 'playwright      2.5 s  (failed)', 'total          63.5 s', '']);
    expect(lines[5]).toBe('== slowest 2 test files');
    // Slowest first, and only `top` of them.
    expect(lines.slice(6).map((l) => l.trim().split(/\s+/).pop())).toEqual(['e2e/page.pw.mjs', 'slow.test.mjs']);
    expect(lines).toHaveLength(8);
  });

  it('SUITE-2: a stage that wrote no report leaves only its stage time in the report', () => {
    expect(vitestFiles(undefined, ROOT)).toEqual([]);
    expect(playwrightFiles(undefined, ROOT)).toEqual([]);
    expect(timingReport([{ label: 'typecheck', ms: 1_000, ok: false }], [])).toBe('\n== time per stage\ntypecheck      1.0 s  (failed)\ntotal          1.0 s\n');
  });
});

describe('the machine a run came from (SUITE-11)', () => {
  it('SUITE-11: a Node start\'s CPU is measured in the stages\' environment: a start that spins 80 ms more reads about 80 ms more', () => {
    const dir = tempDir();
    const spin = path.join(dir, 'spin.cjs');
    // CPU time, not wall time: a busy machine slows it down but does not change what it costs.
    writeFileSync(spin, 'const used = () => { const c = process.cpuUsage(); return c.user + c.system; };\nconst end = used() + 80000; while (used() < end);\n');
    const env = stageEnv(process.env);
    const bare = nodeStartCpuMs(env, 10)!;
    const slowed = nodeStartCpuMs({ ...env, NODE_OPTIONS: `--require ${spin}` }, 10)!;
    expect(bare).toBeGreaterThan(0);
    expect(bare).toBeLessThan(1000);
    expect(slowed - bare).toBeGreaterThanOrEqual(70);
    expect(slowed - bare).toBeLessThan(400);
    expect(() => nodeStartCpuMs({ ...env, NODE_OPTIONS: `--require ${path.join(dir, 'missing.cjs')}` }, 1)).toThrow(/node -e 0 failed \(exit 1\) in the stages' environment/);
  });

  it('SUITE-11: the machine\'s busy time counts CPU spent anywhere on it, and the report ends with the Node start, the run\'s CPU, the cores and the load', () => {
    const before = machineBusyCpu()!;
    const used = () => { const c = process.cpuUsage(); return c.user + c.system; };
    const end = used() + 500_000;
    while (used() < end);
    const after = machineBusyCpu()!;
    expect(after - before).toBeGreaterThanOrEqual(0.45);

    const facts = machineFacts({ nodeStartMs: 21.25, busyBefore: 1000, busyAfter: 2650, wallMs: 1_000_000 });
    expect(facts).toMatchObject({ nodeStartMs: 21.25, cpuSeconds: 1650, wallMs: 1_000_000 });
    const report: string = timingReport([{ label: 'vitest', ms: 61_000, ok: true }], [], 15, 61_000, { ...facts, cores: 2, load: [4.5, 3.25, 1] });
    expect(report.trim().split('\n').slice(-4)).toEqual([
      '== the machine',
      'node start    21.3 ms of CPU  (node -e 0, mean of 20, before the first stage)',
      'busy          1650 CPU-s  (the whole machine over the run, 83% of 2 cores)',
      'load average  4.50 3.25 1.00  (1, 5, 15 min, at the end)',
    ]);
    // Without /proc: no figure is made up.
    const bare: string = timingReport([], [], 15, 1000, { nodeStartMs: undefined, cpuSeconds: undefined, wallMs: 1000, cores: 2, load: [0, 0, 0] });
    expect(bare).toContain('node start     not measured here (no /proc)');
    expect(bare).not.toContain('busy');
  });
});

describe('side by side (SUITE-3) and the worker counts (SUITE-4)', () => {
  /** A stage that says it started, then waits until `other` has started too (only bounded by a deadline). */
  const meet = (label: string, dir: string, self: string, other: string) => nodeStage(label, `const fs = require('fs'); const [dir, self, other] = process.argv.slice(1);
    fs.writeFileSync(dir + '/' + self, ''); console.log(self + ' started'); process.stderr.write(self + ' on stderr, no newline');
    const end = Date.now() + 60000; const wait = () => { if (fs.existsSync(dir + '/' + other)) process.exit(0); if (Date.now() > end) process.exit(9); setTimeout(wait, 20); }; wait();`, dir, self, other);
  const collector = () => { const chunks: string[] = []; return { chunks, write: (c: string) => chunks.push(c) > 0 }; };

  it('SUITE-3: chains run side by side, each line prefixed with its stage, and the report gives the wall time and marks them', async () => {
    const dir = tempDir();
    const out = collector();
    const { code, times, wallMs } = await runStages([
      nodeStage('first', `require('fs').writeFileSync(${JSON.stringify(path.join(dir, 'first'))}, '')`),
      { together: [[meet('left', dir, 'l', 'r')], [meet('right', dir, 'r', 'l'), nodeStage('after right', 'console.log("two\\nlines")')]] },
    ], { cwd: dir, env: process.env, out });
    // Each of left and right waits for the other to start: both pass only if they ran at the same time.
    expect(code).toBe(0);
    expect(times.map((t: { label: string; ok: boolean }) => [t.label, t.ok]).sort()).toEqual([['after right', true], ['first', true], ['left', true], ['right', true]]);
    const lines = out.chunks.join('').split('\n');
    for (const l of ['[left] l started', '[left] l on stderr, no newline', '[right] r started', '[after right] two', '[after right] lines']) expect(lines).toContain(l);
    expect(lines.filter((l) => /started$/.test(l)).every((l) => l.startsWith('['))).toBe(true);
    const report: string = timingReport(times, [], 15, wallMs);
    expect(report).toMatch(/\nleft +\d+\.\d s  \(side by side\)\n/);
    expect(report).toMatch(/\nfirst +\d+\.\d s\n/); // ran alone
    const sum = times.reduce((n: number, t: { ms: number }) => n + t.ms, 0);
    expect(wallMs).toBeLessThan(sum); // the total is wall time, not the sum
    expect(report).toMatch(new RegExp(`\\ntotal +${(wallMs / 1000).toFixed(1)} s  \\(wall\\)\\n`));
  });

  it('SUITE-3: a failed stage ends its chain, the other chain runs to its end, no later stage runs, the exit code is the failed stage\'s', async () => {
    const dir = tempDir();
    const mark = (name: string) => `require('fs').writeFileSync(${JSON.stringify(path.join(dir, name))}, '')`;
    const { code, times } = await runStages([
      { together: [
        [nodeStage('fails', `${mark('failed')}; process.exit(4)`), nodeStage('never in chain', mark('chain-ran'))],
        // Runs on after its neighbour failed: waits for the failure, then a second stage.
        [nodeStage('slow', `const fs = require('fs'); const end = Date.now() + 60000; const w = () => fs.existsSync(${JSON.stringify(path.join(dir, 'failed'))}) || Date.now() > end ? process.exit(0) : setTimeout(w, 20); w();`), nodeStage('then', mark('then-ran'))],
      ] },
      nodeStage('never after', mark('after-ran')),
    ], { cwd: dir, env: process.env, hogs: 1, out: quiet });
    expect(code).toBe(4);
    expect(times.map((t: { label: string; ok: boolean }) => [t.label, t.ok]).sort()).toEqual([['fails', false], ['slow', true], ['then', true]]);
    expect(existsSync(path.join(dir, 'then-ran'))).toBe(true);
    expect(existsSync(path.join(dir, 'chain-ran'))).toBe(false);
    expect(existsSync(path.join(dir, 'after-ran'))).toBe(false);
    await until(() => hogsOf(process.pid).length === 0, 'the hogs are gone');
  });

  it('SUITE-4: vitest runs a file per core (at most 8), Playwright a browser per core (at most 4); the variables set them and bad values are refused naming them', () => {
    expect([1, 2, 3, 7, 16].map((cores) => vitestWorkers({}, cores))).toEqual([1, 2, 3, 7, 8]);
    expect(vitestWorkers({ COMMANDR_VITEST_WORKERS: '1' }, 2)).toBe(1);
    expect(vitestWorkers({ COMMANDR_VITEST_WORKERS: '12' }, 2)).toBe(12);
    expect([1, 2, 3, 7].map((cores) => playwrightWorkers({}, cores))).toEqual([1, 2, 3, 4]);
    expect(playwrightWorkers({ COMMANDR_PLAYWRIGHT_WORKERS: '1' })).toBe(1);
    // npm test: beside vitest one browser unless the variable says otherwise; alone, the default.
    expect(playwrightStageEnv('none', {})).toEqual({});
    expect(playwrightStageEnv('all', {})).toEqual({ COMMANDR_PLAYWRIGHT_WORKERS: '1' });
    expect(playwrightStageEnv('split', {})).toEqual({ COMMANDR_PLAYWRIGHT_WORKERS: '1' });
    expect(playwrightStageEnv('split', { COMMANDR_PLAYWRIGHT_WORKERS: '3' })).toEqual({});
    for (const bad of ['0', '17', 'many', '2.5', ' 3']) expect(() => vitestWorkers({ COMMANDR_VITEST_WORKERS: bad }, 2), bad).toThrow(`COMMANDR_VITEST_WORKERS must be a whole number of workers from 1 to 16, not ${JSON.stringify(bad)}`);
    for (const bad of ['0', '9', 'x']) expect(() => playwrightWorkers({ COMMANDR_PLAYWRIGHT_WORKERS: bad }), bad).toThrow('COMMANDR_PLAYWRIGHT_WORKERS must be a whole number of workers from 1 to 8');
    // The real configs use them.
    expect(vitestConfig.test?.maxWorkers).toBe(vitestWorkers());
    expect(vitestConfig.test?.pool).toBe('forks');
    expect(playwrightConfig.workers).toBe(playwrightWorkers());
    expect(playwrightConfig.fullyParallel).toBe(false);
    expect([vitestConfig.test?.testTimeout, vitestConfig.test?.hookTimeout, playwrightConfig.timeout]).toEqual([120_000, 120_000, 120_000]);
  });
});

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return !readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.startsWith('Z');
  } catch {
    return false;
  }
}
