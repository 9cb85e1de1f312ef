// Fleet figures (`npx tsx bench/fleet.ts`): what leases on remote claims cost
// against a local bare remote (LEASE-n) — winning a task, renewing, taking over a
// lapsed lease, completing, listing 200 claims (each costs git processes, so on a
// loaded machine the wall times mostly queue for a core); then the fleet link
// (FLEET-n): a bus event on a member relay reaching a device on the home, an approve
// for a member task from a home device (and the same approve made on the member), and the
// home's memory with 10 members × 20 repos linked.
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
import { joinHome, openLink } from '../relay/fleet/member';
import { labelRepo } from '../relay/fleet/home';
import { repoIdOf } from '../relay/watch/repo-id';
import { connectDevice } from '../test/helpers/device';

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
    const approve: number[] = [];
    for (let i = 0; i < 30; i++) {
      fs.writeFileSync(path.join(wt, 'change.txt'), `change ${i}\n`);
      git(wt, 'add', 'change.txt');
      const digest = await currentDigest(wt);
      const start = process.hrtime.bigint();
      await device.request({ type: 'task.approve', repo: labelled, task: 'T-1', digest });
      approve.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    // The same approve by a device paired with the member itself: the difference is what the link costs.
    const local = await connectDevice(member);
    const localRepo = repoIdOf(fs.realpathSync(repo));
    const direct: number[] = [];
    for (let i = 0; i < 30; i++) {
      fs.writeFileSync(path.join(wt, 'change.txt'), `direct ${i}\n`);
      git(wt, 'add', 'change.txt');
      const digest = await currentDigest(wt);
      const start = process.hrtime.bigint();
      await local.request({ type: 'task.approve', repo: localRepo, task: 'T-1', digest });
      direct.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    await local.close();
    await device.close();
    // 10 members × 20 repos: links that send the snapshots a member relay would send, into one home.
    const before = process.memoryUsage().rss;
    const links = [];
    for (let m = 0; m < 10; m++) {
      const dir = path.join(root, `fake-member-${m}`);
      const rec = await joinHome(dir, home.url, createJoinCode(home.dataDir, `f${m}`).code, `f${m}`);
      const link = await openLink(dir, home.url, { auth: rec });
      links.push(link);
      for (let r = 0; r < 20; r++) {
        const id = `repo${r}-${(m * 100 + r).toString(16).padStart(8, '0')}`;
        const tasks = Array.from({ length: 50 }, (_, t) => ({
          repo: id, id: `T-${t}`, file: `T-${t}.md`, type: 'implementation', scope: '**', title: `Task ${t}`, state: 'inbox', owner: null, blockedBy: [],
          lastNote: null, lastEventTs: null, verdict: null, annotations: { total: 0, unconsumed: 0 }, pendingApproval: null, result: null,
        }));
        link.ws.send(JSON.stringify({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id, name: `repo${r}`, path: `/src/repo${r}`, demo: false }, tasks, cursor: { offset: 0, epoch: '1:1' } } }));
      }
    }
    // The home has no per-frame answer to wait on: give it a moment to take the 200 snapshots in.
    await new Promise((r) => setTimeout(r, 500));
    const rss = process.memoryUsage().rss;
    for (const l of links) l.ws.close();
    const table = [
      ['member bus event -> home device, p50 (50 events)', `${median(lat).toFixed(1)} ms`, '<= 10 ms'],
      ['member bus event -> home device, p90', `${[...lat].sort((a, b) => a - b)[Math.floor(lat.length * 0.9)]!.toFixed(1)} ms`, ''],
      ['approve a member task from a home device (ack), p50 (30)', `${median(approve).toFixed(1)} ms`, '<= 20 ms'],
      ['the same approve by a device paired with the member, p50 (30)', `${median(direct).toFixed(1)} ms`, '(git processes: the rest)'],
      ['process RSS: home + 1 member relay + 10 linked members x 20 repos', `${(rss / 1048576).toFixed(0)} MB (was ${(before / 1048576).toFixed(0)} MB before the 10 links)`, '< 200 MB'],
    ];
    process.stdout.write('\n');
    for (const [a, b, c] of table) process.stdout.write(`${a!.padEnd(68)}  ${b!.padEnd(40)}  ${c}\n`);
  } finally {
    for (const r of relays) await r.close();
  }
}

void main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
