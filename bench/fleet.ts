// Fleet figures (`npx tsx bench/fleet.ts`): what leases on remote claims cost
// against a local bare remote (LEASE-n) — winning a task, renewing, taking over a
// lapsed lease, completing, listing 200 claims. In-process library calls; each
// costs git processes, so on a loaded machine the wall times mostly queue for a core.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireTask, listClaims, stepLease, writeLeaseRecord } from '../bus/lease';
import { fetchTaskTip } from '../bus/lease-git';

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
const median = (v: number[]) => [...v].sort((a, b) => a - b)[Math.floor(v.length / 2)]!;

async function timed<T>(fn: () => Promise<T>): Promise<[number, T]> {
  const start = process.hrtime.bigint();
  const value = await fn();
  return [Number(process.hrtime.bigint() - start) / 1e6, value];
}

async function main(): Promise<void> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fleet-'));
  try {
    const origin = path.join(root, 'origin.git');
    git(root, 'init', '-q', '--bare', '-b', 'main', origin);
    const clones = ['a', 'b'].map((n) => {
      const dir = path.join(root, n);
      git(root, 'init', '-q', '-b', 'main', dir);
      git(dir, 'remote', 'add', 'origin', origin);
      return dir;
    });
    const [a, b] = clones as [string, string];
    const N = 20;
    const win: number[] = [];
    const renew: number[] = [];
    const take: number[] = [];
    const done: number[] = [];
    for (let i = 0; i < N; i++) {
      const task = `B-${i}`;
      const [t1, got] = await timed(() => acquireTask(a, 'origin', task, { host: 'a', pid: 1 }, 1, undefined));
      if (got.outcome !== 'won') throw new Error(`lost ${task}`);
      writeLeaseRecord(a, got.record);
      win.push(t1);
      renew.push((await timed(() => stepLease(a, task, 'renew')))[0]);
    }
    // Let every 1 s lease lapse, then take each over from the other clone (read + compare-and-swap).
    await new Promise((r) => setTimeout(r, 1100));
    for (let i = 0; i < N; i++) {
      const task = `B-${i}`;
      const [t, got] = await timed(async () => acquireTask(b, 'origin', task, { host: 'b', pid: 2 }, 600, await fetchTaskTip(b, 'origin', task)));
      if (got.outcome !== 'won') throw new Error(`could not take over ${task}`);
      writeLeaseRecord(b, got.record);
      take.push(t);
      done.push((await timed(() => stepLease(b, task, 'done')))[0]);
    }
    for (let i = N; i < 200; i++) {
      const got = await acquireTask(a, 'origin', `B-${i}`, { host: 'a', pid: 1 }, 600, undefined);
      if (got.outcome !== 'won') throw new Error('lost');
    }
    const lists: number[] = [];
    for (let i = 0; i < 5; i++) lists.push((await timed(() => listClaims(b, 'origin')))[0]);
    const rows = [
      ['win a free task (commit + create push)', median(win)],
      ['renew a lease (commit + fast-forward push)', median(renew)],
      ['take over a lapsed lease (read + commit + CAS push)', median(take)],
      ['complete: done commit (fast-forward push)', median(done)],
      ['claims list, 200 task refs (one fetch)', median(lists)],
    ] as const;
    const width = Math.max(...rows.map((r) => r[0].length));
    process.stdout.write(`${'figure'.padEnd(width)}  p50 (ms, ${N} runs; list: 5)\n`);
    for (const [name, value] of rows) process.stdout.write(`${name.padEnd(width)}  ${value.toFixed(1)}\n`);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
