// Sandbox start cost (target: ≤ 50 ms p50 added): a job's start, from Jobs.start() to the
// adapter's first output line, sandboxed (bwrap) and not, alternating so machine load hits
// both alike. The adapter prints one line and exits, so the figure is the launch itself.
// Run: npx tsx bench/sandbox.ts   (BENCH_RUNS=N, default 30 each)
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { Jobs } from '../relay/jobs/service';
import { sandboxSupport } from '../adapters/sandbox/detect';

const RUNS = Number(process.env.BENCH_RUNS ?? 30);
const TARGET_MS = 50;

const median = (xs: number[]): number => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

async function main(): Promise<void> {
  const support = sandboxSupport();
  if (!support.ok) throw new Error(`no sandbox here: ${support.reason} (${support.fix})`);
  const tmp = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-sandbox-')));
  const repo = path.join(tmp, 'repo');
  fs.mkdirSync(path.join(repo, '.agents'), { recursive: true });
  execFileSync('git', ['init', '-q', repo]);
  const packet = path.join(tmp, 'T-1.md');
  fs.writeFileSync(packet, '# T-1\n');
  const run = path.join(tmp, 'run');
  fs.writeFileSync(run, '#!/bin/sh\necho ready\n', { mode: 0o755 });
  const jobs = (enabled: boolean) => new Jobs({ dataDir: path.join(tmp, `data-${enabled}`), adapter: () => ({ name: 'echo', run }), broadcast: () => undefined, sandbox: { enabled } });
  const boxed = jobs(true);
  const plain = jobs(false);
  const once = async (j: Jobs): Promise<number> => {
    const t0 = performance.now();
    const first = new Promise<number>((resolve) => j.once('output', () => resolve(performance.now() - t0)));
    const ended = new Promise<void>((resolve) => j.on('state', (s) => { if (s.status !== 'running') resolve(); }));
    await j.start({ repoId: 'r-bench', repo, bus: path.join(repo, '.agents'), task: 'T-1', mode: 'review', packet });
    const ms = await first;
    await ended;
    j.removeAllListeners('state');
    return ms;
  };
  await once(boxed); // warm both paths once
  await once(plain);
  const on: number[] = [];
  const off: number[] = [];
  for (let i = 0; i < RUNS; i += 1) {
    on.push(await once(boxed));
    off.push(await once(plain));
  }
  const added = median(on) - median(off);
  const load = os.loadavg().map((l) => l.toFixed(2)).join(' ');
  process.stdout.write(`job start to first output, ${RUNS} alternating runs each (load average ${load}, ${os.cpus().length} cores)\n`);
  process.stdout.write(`  unsandboxed  p50 ${median(off).toFixed(1)} ms\n  sandboxed    p50 ${median(on).toFixed(1)} ms (${support.kind})\n`);
  process.stdout.write(`  added        p50 ${added.toFixed(1)} ms (target ≤ ${TARGET_MS} ms): ${added <= TARGET_MS ? 'PASS' : 'FAIL'}\n`);
  fs.rmSync(tmp, { recursive: true, force: true });
  process.exitCode = added <= TARGET_MS ? 0 : 1;
}

void main();
