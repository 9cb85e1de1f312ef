// Fleet figures (`npx tsx bench/fleet.ts`): what leases on remote claims cost
// against a local bare remote (LEASE-n) — winning a task, renewing, taking over a
// lapsed lease, completing, listing 200 claims (each costs git processes, so on a
// loaded machine the wall times mostly queue for a core); then the fleet link
// (FLEET-n): a bus event on a member relay reaching a device on the home, an approve
// for a member task from a home device after reading its diff, as the app does (also
// cold, and the same approve made on the member), and the home relay's memory (its own
// process) with 10 member relays × 20 repos linked.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { acquireTask, listClaims, stepLease, writeLeaseRecord } from '../bus/lease';
import { fetchTaskTip } from '../bus/lease-git';
import { appendProgress } from '../bus/progress';
import { currentDigest } from '../bus/diff';
import { createRelay, type Relay } from '../relay/server';
import { createJoinCode } from '../relay/fleet/machines';
import { joinHome } from '../relay/fleet/member';
import { labelRepo } from '../relay/fleet/home';
import { repoIdOf } from '../relay/watch/repo-id';
import { connectDevice, type DeviceClient } from '../test/helpers/device';
import { buildRelayInstall, startChildRelay } from '../test/relay-e2e/child-relay';

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
    // `npx tsx bench/fleet.ts link`: the link figures only.
    if (process.argv.includes('link')) return await linkFigures(root);
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
    await linkFigures(root);
  } finally {
    fs.rmSync(root, { recursive: true, force: true });
  }
}

const relayAt = (dataDir: string, repos: string[]) =>
  createRelay({ port: 0, host: '127.0.0.1', dataDir, repos, registryFile: path.join(dataDir, 'registry'), demo: false, logger: { info() {}, warn() {}, error() {} } });

function busRepo(dir: string, packets: number): string {
  fs.mkdirSync(dir, { recursive: true });
  git(dir, 'init', '-q', '-b', 'main');
  for (const d of ['inbox', 'claimed', 'done', 'approvals']) fs.mkdirSync(path.join(dir, '.agents', d), { recursive: true });
  for (let i = 0; i < packets; i++) fs.writeFileSync(path.join(dir, '.agents', 'inbox', `T-${i}.md`), `---\nid: T-${i}\ntype: implementation\nscope: "**"\n---\n# Task ${i}\n`);
  return dir;
}

async function linkFigures(root: string): Promise<void> {
  const relays: Relay[] = [];
  try {
    const home = await relayAt(path.join(root, 'home'), []);
    relays.push(home);
    const repo = busRepo(path.join(root, 'member-repo'), 3);
    const member = await relayAt(path.join(root, 'member'), [repo]);
    relays.push(member);
    const joined = await joinHome(member.dataDir, home.url, createJoinCode(home.dataDir, 'm').code, 'm');
    const device = await connectDevice(home);
    const labelled = labelRepo(joined.machine, repoIdOf(fs.realpathSync(repo)));
    await device.request({ type: 'subscribe' });
    await device.next('repo.snapshot', (f) => f.repo.id === labelled, 30_000);
    const lat: number[] = [];
    for (let i = 0; i < 50; i++) {
      const note = `step ${i}`;
      const start = process.hrtime.bigint();
      appendProgress(path.join(repo, '.agents'), 'T-0', note);
      await device.next('bus.events', (f) => f.repo === labelled && f.events.some((e) => e.event.note === note), 30_000);
      lat.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    // An approve for a member task: the home verifies and forwards, the member re-checks the digest, signs and writes the token.
    git(repo, '-c', 'user.email=b@example.com', '-c', 'user.name=bench', 'commit', '-q', '--allow-empty', '-m', 'base');
    const wt = path.join(root, 'member-wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-1', wt);
    const stage = (text: string) => {
      fs.writeFileSync(path.join(wt, 'change.txt'), text);
      git(wt, 'add', 'change.txt');
    };
    /** As the app does: read the diff (its digest), let the person look at it, then approve; only the approve is timed. */
    const reviewThenApprove = async (client: DeviceClient, repoId: string): Promise<number> => {
      const ack = await client.request({ type: 'task.diff', repo: repoId, task: 'T-1' });
      const begin = client.received.filter((f) => f.type === 'task.diff.begin' && f.id === ack.id).at(-1) as unknown as { digest: string };
      await new Promise((r) => setTimeout(r, THINK_MS));
      const start = process.hrtime.bigint();
      await client.request({ type: 'task.approve', repo: repoId, task: 'T-1', digest: begin.digest });
      return Number(process.hrtime.bigint() - start) / 1e6;
    };
    const approve: number[] = [];
    for (let i = 0; i < 30; i++) {
      stage(`change ${i}\n`);
      approve.push(await reviewThenApprove(device, labelled));
    }
    // Cold: a digest learnt elsewhere (no diff read first), so the member reads the staged state on the approve's path.
    const cold: number[] = [];
    for (let i = 0; i < 30; i++) {
      stage(`cold ${i}\n`);
      const digest = await currentDigest(wt);
      const start = process.hrtime.bigint();
      await device.request({ type: 'task.approve', repo: labelled, task: 'T-1', digest });
      cold.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    // The same approve by a device paired with the member itself: the difference is what the link costs.
    const local = await connectDevice(member);
    const localRepo = repoIdOf(fs.realpathSync(repo));
    const direct: number[] = [];
    for (let i = 0; i < 30; i++) {
      stage(`direct ${i}\n`);
      direct.push(await reviewThenApprove(local, localRepo));
    }
    await local.close();
    await device.close();
    const rss = await homeMemory(root);
    const table = [
      ['member bus event -> home device, p50 (50 events)', `${median(lat).toFixed(1)} ms`, '<= 10 ms'],
      ['member bus event -> home device, p90', `${[...lat].sort((a, b) => a - b)[Math.floor(lat.length * 0.9)]!.toFixed(1)} ms`, ''],
      [`approve a member task from a home device after reading its diff (${THINK_MS} ms), p50 (30)`, `${median(approve).toFixed(1)} ms`, '<= 20 ms'],
      ['the same approve with no diff read first (cold), p50 (30)', `${median(cold).toFixed(1)} ms`, '(2 git processes at once)'],
      ['the same approve (after the diff) by a device paired with the member, p50 (30)', `${median(direct).toFixed(1)} ms`, ''],
      ['home relay process RSS: 10 member relays x 20 repos linked, 1 device', `${rss.home.toFixed(0)} MB (${rss.idle.toFixed(0)} MB before the members)`, '< 200 MB'],
    ];
    process.stdout.write(`\nload average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores\n`);
    for (const [a, b, c] of table) process.stdout.write(`${a!.padEnd(84)}  ${b!.padEnd(34)}  ${c}\n`);
  } finally {
    for (const r of relays) await r.close();
  }
}

const THINK_MS = 200;
const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

/**
 * The home as its own process (`commandr serve`, a child), 10 member relays in this
 * process with 20 repos each (50 packets, 200 events), a device subscribed on the
 * home, then 20 more events per repo reaching it (which fills the home's resume tails).
 */
async function homeMemory(root: string): Promise<{ home: number; idle: number }> {
  const install = await buildRelayInstall();
  const env = { ...process.env, HOME: path.join(root, 'rss-home-dir') };
  fs.mkdirSync(env.HOME, { recursive: true });
  const home = await startChildRelay(install, path.join(root, 'rss-home'), ['--no-demo'], env);
  const members: Relay[] = [];
  const device = await connectDevice(home);
  try {
    const idle = rssOf(home.child.pid!);
    const labels: string[] = [];
    const buses: string[] = [];
    for (let m = 0; m < 10; m++) {
      const repos: string[] = [];
      for (let r = 0; r < 20; r++) {
        const dir = busRepo(path.join(root, `rss-m${m}`, `repo${r}`), 50);
        const lines = Array.from({ length: 200 }, (_, n) => JSON.stringify({ ts: new Date().toISOString(), event: 'task_progress', task: `T-${n % 50}`, note: `note ${n}` }) + '\n');
        fs.writeFileSync(path.join(dir, '.agents', 'events.jsonl'), lines.join(''));
        repos.push(dir);
        buses.push(path.join(dir, '.agents'));
      }
      const data = path.join(root, `rss-m${m}-data`);
      const joined = await joinHome(data, home.url, createJoinCode(home.dataDir, `m${m}`).code, `m${m}`);
      members.push(await relayAt(data, repos));
      for (const r of repos) labels.push(labelRepo(joined.machine, repoIdOf(fs.realpathSync(r))));
    }
    await device.request({ type: 'subscribe' });
    const seen = new Set<string>();
    await device.waitFor((f) => { if (f.type === 'repo.snapshot') seen.add((f as unknown as { repo: { id: string } }).repo.id); return labels.every((l) => seen.has(l)); }, 'every member repo', 120_000);
    for (const bus of buses) for (let n = 0; n < 20; n++) appendProgress(bus, 'T-0', `more ${n}`);
    const want = new Map(labels.map((l) => [l, 20]));
    await device.waitFor((f) => {
      if (f.type !== 'bus.events') return false;
      const ev = f as unknown as { repo: string; events: unknown[] };
      want.set(ev.repo, (want.get(ev.repo) ?? 0) - ev.events.length);
      return [...want.values()].every((left) => left <= 0);
    }, 'the burst on every member repo', 120_000);
    return { home: rssOf(home.child.pid!), idle };
  } finally {
    await device.close();
    for (const m of members) await m.close();
    home.child.kill('SIGTERM');
    await home.exited;
    fs.rmSync(install, { recursive: true, force: true });
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
