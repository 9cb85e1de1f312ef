// Bus figures (`npx tsx bench/bus.ts`): index fold wall time and linearity, bin
// tool cold start against `node -e 0`, in-process claim throughput. Prints a table.
// Tools run from a private build of the real bundles + bin shims (as the tests do).
// Child CPU time is shown beside wall time: on a shared, loaded machine wall time
// mostly measures the queue for a core.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { claimNext, createClaimer } from '../bus/claim';
import { type Install, World, buildInstall, packet } from '../test/conformance/harness';

interface Row {
  figure: string;
  value: string;
  target: string;
  ok: boolean;
}
const rows: Row[] = [];
const ms = (n: number): string => `${n.toFixed(1)} ms`;

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

interface Sample {
  wall: number;
  /** user + system CPU of the child, in ms: what wall time would be on an idle machine. */
  cpu: number;
}

const TIME = fs.existsSync('/usr/bin/time') ? '/usr/bin/time' : undefined;
const cpuFile = path.join(os.tmpdir(), `bench-bus-cpu-${process.pid}`);

function timeRun(file: string, args: string[], cwd: string, env: NodeJS.ProcessEnv): Sample {
  const [cmd, argv] = TIME ? [TIME, ['-f', '%U %S', '-o', cpuFile, file, ...args]] : [file, args];
  const start = process.hrtime.bigint();
  const r = spawnSync(cmd, argv, { cwd, env, stdio: 'ignore' });
  const wall = Number(process.hrtime.bigint() - start) / 1e6;
  if (r.status !== 0 && r.status !== 2) throw new Error(`${file} ${args.join(' ')} exited ${r.status}`);
  const cpu = TIME ? fs.readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1)!.split(' ').reduce((a, b) => a + Number(b) * 1000, 0) : NaN;
  return { wall, cpu };
}

function medianOf(samples: Sample[]): Sample {
  return { wall: median(samples.map((s) => s.wall)), cpu: median(samples.map((s) => s.cpu)) };
}

/** A bus with `inbox` + `done` packets and `events` progress lines, written directly. */
function fillRepo(world: World, inbox: number, done: number, events: number): void {
  for (let i = 0; i < inbox; i++) world.write(`inbox/${String(i).padStart(5, '0')}.md`, packet({ id: `I-${i}` }));
  for (let i = 0; i < done; i++) world.write(`done/vm_${1000 + i}_${String(i).padStart(5, '0')}.md`, packet({ id: `D-${i}` }));
  const lines: string[] = [];
  for (let i = 0; i < events; i++) {
    lines.push(JSON.stringify({ ts: new Date(Date.UTC(2026, 0, 1) + i * 1000).toISOString(), event: 'task_progress', task: `I-${i % Math.max(inbox, 1)}`, note: `step ${i}` }));
  }
  world.write('events.jsonl', lines.join('\n') + '\n');
}

function benchIndex(install: Install, scale: number, runs: number): Sample {
  const worlds = Array.from({ length: 4 }, () => new World(install));
  try {
    for (const w of worlds) fillRepo(w, 250 * scale, 250 * scale, 1000 * scale);
    const w0 = worlds[0]!;
    const args = ['refresh', ...worlds.map((w) => w.repo)];
    timeRun(install.bin('index'), args, w0.home, w0.env);
    return medianOf(Array.from({ length: runs }, () => timeRun(install.bin('index'), args, w0.home, w0.env)));
  } finally {
    for (const w of worlds) w.cleanup();
  }
}

function benchColdStart(install: Install, runs: number): void {
  const world = new World(install);
  try {
    world.write('inbox/.keep', '');
    const cases: Array<[string, string, string[]]> = [
      ['node -e 0', process.execPath, ['-e', '0']],
      ['claim (empty inbox)', install.bin('claim'), []],
      ['complete --help', install.bin('complete'), ['--help']],
      ['progress (append)', install.bin('progress'), ['T-1', 'bench note']],
      ['pre-commit-gate (no task)', install.bin('pre-commit-gate'), []],
      ['index refresh (1 empty repo)', install.bin('index'), ['refresh', world.repo]],
      ['annotate-write (write)', install.bin('annotate-write'), ['--bus', world.bus, '--task', 'T-1', '--turn', '1', '--body', 'x']],
      ['commandr --version', install.bin('commandr'), ['--version']],
    ];
    const samples = cases.map(() => [] as Sample[]);
    for (const [, file, args] of cases) timeRun(file, args, world.repo, world.env);
    // Interleaved so background load hits every case alike.
    for (let r = 0; r < runs; r++) cases.forEach(([, file, args], i) => samples[i]!.push(timeRun(file, args, world.repo, world.env)));
    const base = medianOf(samples[0]!);
    rows.push({ figure: 'cold start: node -e 0', value: `${ms(base.wall)} / cpu ${ms(base.cpu)}`, target: 'baseline', ok: true });
    cases.slice(1).forEach(([label], i) => {
      const m = medianOf(samples[i + 1]!);
      const ratio = m.wall / base.wall;
      rows.push({ figure: `cold start: ${label}`, value: `${(ratio).toFixed(2)}× wall, ${(m.cpu / base.cpu).toFixed(2)}× cpu`, target: '≤ 1.30×', ok: ratio <= 1.3 });
    });
  } finally {
    world.cleanup();
  }
}

/** Claims per second draining a `count`-packet inbox in-process, one claim at a time. */
async function benchClaim(count: number, mode: 'claimNext' | 'claimer'): Promise<number> {
  const bus = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-claim-'));
  try {
    for (const d of ['inbox', 'claimed', 'done', 'approvals']) fs.mkdirSync(path.join(bus, d));
    for (let i = 0; i < count; i++) fs.writeFileSync(path.join(bus, 'inbox', `${String(i).padStart(5, '0')}.md`), packet({ id: `C-${i}` }));
    const claimer = createClaimer(bus);
    const next = mode === 'claimer' ? () => claimer.next() : () => claimNext(bus);
    const start = process.hrtime.bigint();
    let claimed = 0;
    while (await next()) claimed++;
    const seconds = Number(process.hrtime.bigint() - start) / 1e9;
    if (claimed !== count) throw new Error(`claimed ${claimed} of ${count}`);
    return claimed / seconds;
  } finally {
    fs.rmSync(bus, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const install = await buildInstall();
  try {
    const one = benchIndex(install, 1, 7);
    rows.push({ figure: 'index refresh: 4 repos × (250 inbox + 250 done), 1,000 events each', value: `${ms(one.wall)} / cpu ${ms(one.cpu)}`, target: '≤ 300 ms', ok: one.wall <= 300 });
    const four = benchIndex(install, 4, 5);
    rows.push({ figure: 'index refresh: 4× the packets and events', value: `${(four.wall / one.wall).toFixed(2)}× wall, ${(four.cpu / one.cpu).toFixed(2)}× cpu`, target: '≤ 4.5×', ok: four.wall / one.wall <= 4.5 });
    benchColdStart(install, 21);
    const perCall = await benchClaim(2000, 'claimNext');
    rows.push({ figure: 'library claimNext (lists inbox/ per claim): 2,000 packets', value: `${Math.round(perCall)} claims/s`, target: '≥ 2,000/s', ok: perCall >= 2000 });
    const batch = await benchClaim(2000, 'claimer');
    rows.push({ figure: 'library createClaimer().next (one listing): 2,000 packets', value: `${Math.round(batch)} claims/s`, target: '≥ 2,000/s', ok: batch >= 2000 });
  } finally {
    fs.rmSync(install.root, { recursive: true, force: true });
  }
  fs.rmSync(cpuFile, { force: true });
  rows.push({ figure: 'machine load average (1 min) / cores', value: `${os.loadavg()[0]!.toFixed(1)} / ${os.cpus().length}`, target: 'context', ok: true });
  const width = Math.max(...rows.map((r) => r.figure.length));
  console.log(`${'figure'.padEnd(width)} | ${'measured'.padEnd(30)} | ${'target'.padEnd(9)} | ok`);
  console.log(`${'-'.repeat(width)}-|-${'-'.repeat(30)}-|-${'-'.repeat(9)}-|---`);
  for (const r of rows) console.log(`${r.figure.padEnd(width)} | ${r.value.padEnd(30)} | ${r.target.padEnd(9)} | ${r.ok ? 'yes' : 'NO'}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
