// `npx tsx bench/relay.ts`: the relay's figures — event fan-out latency to 100
// clients, snapshot and resume sizes, approve round trip, RSS while watching 20 repos.
import { execFileSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { appendEvent, serializeEvent } from '../bus/event-log';
import { initRepo } from '../bus/init';
import { RepoHub } from '../relay/watch/hub';
import { snapshotFrames } from '../relay/watch/frames';
import { repoIdOf } from '../relay/watch/repo-id';
import { silentLogger } from '../relay/options';
import { type DeviceClient, type TestDevice, openSocket, pairDevice } from '../test/helpers/device';
import { buildRelayInstall, type ChildRelay, startChildRelay } from '../test/relay-e2e/child-relay';

const work = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bench-relay-')));
const env: NodeJS.ProcessEnv = {
  ...process.env, HOME: path.join(work, 'home'), GIT_AUTHOR_NAME: 'b', GIT_AUTHOR_EMAIL: 'b@b', GIT_COMMITTER_NAME: 'b', GIT_COMMITTER_EMAIL: 'b@b',
};
fs.mkdirSync(env.HOME!);
const rows: Array<[string, string, string]> = [];
const ms = (n: number): string => `${n.toFixed(1)} ms`;
const pct = (xs: number[], p: number): number => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A bus-ready repo with `tasks` packets spread over the three states and `events` log lines. */
function makeRepo(name: string, tasks: number, events: number): { repo: string; bus: string } {
  const repo = path.join(work, name);
  fs.mkdirSync(repo);
  git(repo, 'init', '-q', '-b', 'main');
  fs.writeFileSync(path.join(repo, 'README.md'), 'bench\n');
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  const { bus } = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(work, 'registry') });
  const states = ['inbox', 'claimed', 'done'] as const;
  for (let i = 0; i < tasks; i++) {
    const id = `T-${String(i).padStart(5, '0')}`;
    const state = states[i % 3]!;
    const file = state === 'inbox' ? `${id}.md` : `bench-host_${1000 + i}_${id}.md`;
    fs.writeFileSync(path.join(bus, state, file), `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# Task ${i}\n\n## Context\nx\n`);
  }
  const lines: string[] = [];
  for (let n = 0; n < events; n++) lines.push(serializeEvent({ event: 'task_progress', task: `T-${String(n % Math.max(1, tasks)).padStart(5, '0')}`, note: `progress note number ${n}` }));
  fs.writeFileSync(path.join(bus, 'events.jsonl'), lines.join(''));
  return { repo, bus };
}

/** A socket with its own frame listener, resolving waits on bus events by note. */
class Listener {
  private waits = new Map<string, (t: number) => void>();
  cursor: { offset: number; epoch: string } | undefined;
  count = 0;
  /** When the first snapshot frame (the Inbox's first page) and its last page arrived, and the bytes received. */
  firstPageAt = 0;
  lastPageAt = 0;
  pagesLeft = -1;
  snapshotBytes = 0;
  largestFrame = 0;
  constructor(readonly socket: DeviceClient) {
    socket.ws.on('message', (data) => {
      const t = performance.now();
      const frame = JSON.parse(data.toString()) as { type: string; events?: Array<{ cursor: { offset: number; epoch: string }; event: { note?: string } }>; cursor?: { offset: number; epoch: string } };
      const size = (data as Buffer).length;
      if (frame.type === 'repo.snapshot' || frame.type === 'repo.tasks') {
        this.snapshotBytes += size;
        this.largestFrame = Math.max(this.largestFrame, size);
        if (frame.type === 'repo.snapshot') { this.firstPageAt = t; this.pagesLeft = (frame as { pages?: number }).pages ?? 0; }
        else this.pagesLeft--;
        if (this.pagesLeft === 0) this.lastPageAt = t;
      }
      if (frame.type === 'repo.snapshot') this.cursor = frame.cursor;
      if (frame.type !== 'bus.events') return;
      for (const e of frame.events!) {
        this.count++;
        this.cursor = e.cursor;
        const w = this.waits.get(e.event.note ?? '');
        if (w) { this.waits.delete(e.event.note!); w(t); }
      }
    });
  }
  arrival(note: string): Promise<number> {
    return new Promise((resolve) => this.waits.set(note, resolve));
  }
}

async function connect(relay: ChildRelay, device: TestDevice, cursors?: Record<string, { offset: number; epoch: string }>): Promise<Listener> {
  const socket = await openSocket(relay, device);
  const listener = new Listener(socket);
  await socket.request({ type: 'subscribe', ...(cursors ? { cursors } : {}) });
  return listener;
}

const rssOf = (pid: number): number => Number(/VmRSS:\s+(\d+)/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;

const pause = (msDelay: number): Promise<void> => new Promise((r) => setTimeout(r, msDelay));

async function fanOut(install: string): Promise<void> {
  const { repo, bus } = makeRepo('fanout', 10, 0);
  const relay = await startChildRelay(install, path.join(work, 'data-fanout'), ['--repo', repo, '--no-demo'], env);
  const device = await pairDevice(relay, 'bench');
  const listeners: Listener[] = [];
  for (let i = 0; i < 100; i++) listeners.push(await connect(relay, device));
  const samples: number[] = [];
  for (let i = 0; i < 200; i++) {
    const note = `fan ${i}`;
    const arrivals = listeners.map((l) => l.arrival(note));
    const t0 = performance.now();
    appendEvent(bus, { event: 'task_progress', task: 'T-00001', note });
    for (const t of await Promise.all(arrivals)) samples.push(t - t0);
    await pause(5);
  }
  rows.push(['append → arrival at each of 100 clients, p50', ms(pct(samples, 50)), '≤ 5 ms']);
  rows.push(['append → arrival at each of 100 clients, p99', ms(pct(samples, 99)), '≤ 25 ms']);
  for (const l of listeners) await l.socket.close();
  relay.child.kill('SIGTERM');
  await relay.exited;
}

async function bigRepo(install: string): Promise<void> {
  const { repo, bus } = makeRepo('big', 10_000, 100_000);
  let t0 = performance.now();
  const cpu0 = process.cpuUsage();
  const hub = new RepoHub({ dataDir: work, repos: [repo], registryFile: path.join(work, 'none'), demo: false, log: silentLogger });
  await hub.start();
  const cold = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  t0 = performance.now();
  const frames = snapshotFrames(hub.model(repoIdOf(repo))!);
  const bytes = frames.reduce((n, f) => n + JSON.stringify(f).length, 0);
  const warm = performance.now() - t0;
  hub.close();
  rows.push(['cold load of 10,000 tasks + 100,000 events (relay start)', ms(cold), '≤ 500 ms']);
  rows.push(['  the same, CPU time of the relay process', ms((cpu.user + cpu.system) / 1000), '(load-independent)']);
  rows.push([`paged snapshot built + serialised (${frames.length} frames, ${(bytes / 1e6).toFixed(1)} MB; 3,333 done tasks stay on the relay)`, ms(warm), '≤ 500 ms']);

  const relay = await startChildRelay(install, path.join(work, 'data-big'), ['--repo', repo, '--no-demo'], env);
  const device = await pairDevice(relay, 'bench');
  t0 = performance.now();
  const first = await connect(relay, device);
  await first.socket.request({ type: 'client.visibility', visible: true }); // every page arrived before this answer
  rows.push(['subscribe → first snapshot page received (Inbox usable), 10,000 tasks', ms(first.firstPageAt - t0), '≤ 1000 ms']);
  rows.push(['subscribe → every active task received', ms(first.lastPageAt - t0), '≤ 1000 ms']);
  rows.push(['  largest snapshot frame / all snapshot frames', `${(first.largestFrame / 1024).toFixed(0)} KiB`, `≤ 300 KiB / ${(first.snapshotBytes / 1e6).toFixed(1)} MB`]);
  const cursor = first.cursor!;
  await first.socket.close();
  for (let n = 0; n < 10_000; n++) appendEvent(bus, { event: 'task_progress', task: 'T-00002', note: `missed ${n}` });
  await pause(300); // let the relay read them too, as it would have long before a phone comes back
  t0 = performance.now();
  const second = await connect(relay, device, { [repoIdOf(repo)]: cursor });
  const resume = performance.now() - t0;
  if (second.count !== 10_000) throw new Error(`resume delivered ${second.count} events, not 10,000`);
  rows.push(['resume after 10,000 missed events (subscribe → all received)', ms(resume), '≤ 1000 ms']);
  await second.socket.close();
  relay.child.kill('SIGTERM');
  await relay.exited;
}

async function approve(install: string): Promise<void> {
  const { repo, bus } = makeRepo('approve', 1, 0);
  const wt = path.join(work, 'approve-wt');
  git(repo, 'worktree', 'add', '-q', '-b', 'agent/T-00000', wt);
  fs.writeFileSync(path.join(wt, 'README.md'), 'change\n');
  git(wt, 'add', 'README.md');
  const { runGate } = await import('../bus/gate');
  await runGate(wt, { ...env, AGENTS_TASK_ID: '' });
  const digest = (await import('../bus/digest')).stagedDigest;
  const current = (await digest(wt)).digest;
  const relay = await startChildRelay(install, path.join(work, 'data-approve'), ['--repo', repo, '--no-demo'], env);
  const device = await pairDevice(relay, 'bench');
  const listener = await connect(relay, device);
  const token = path.join(bus, 'approvals', 'T-00000.approved');
  const samples: number[] = [];
  for (let i = 0; i < 60; i++) {
    const t0 = performance.now();
    await listener.socket.request({ type: 'task.approve', repo: repoIdOf(repo), task: 'T-00000', digest: current });
    samples.push(performance.now() - t0);
    if (!fs.existsSync(token)) throw new Error('approve acked without a token on disk');
    fs.rmSync(token);
  }
  rows.push(['approve frame → token on disk → ack, p50', ms(pct(samples.slice(10), 50)), '≤ 10 ms']);
  await listener.socket.close();
  relay.child.kill('SIGTERM');
  await relay.exited;
}

async function memory(install: string): Promise<void> {
  const repos: string[] = [];
  for (let r = 0; r < 20; r++) repos.push(makeRepo(`mem-${r}`, 100, 5000).repo);
  const relay = await startChildRelay(install, path.join(work, 'data-mem'), [...repos.flatMap((r) => ['--repo', r]), '--no-demo'], env);
  const device = await pairDevice(relay, 'bench');
  const listeners: Listener[] = [];
  for (let i = 0; i < 100; i++) listeners.push(await connect(relay, device));
  await pause(1500);
  rows.push(['RSS watching 20 repos × 5,000 events, 100 clients', `${rssOf(relay.child.pid!).toFixed(0)} MB`, '≤ 150 MB']);
  for (const l of listeners) await l.socket.close();
  relay.child.kill('SIGTERM');
  await relay.exited;
}

async function main(): Promise<void> {
  const install = await buildRelayInstall();
  try {
    const only = process.argv.slice(2);
    const parts: Array<[string, (i: string) => Promise<void>]> = [['fanout', fanOut], ['big', bigRepo], ['approve', approve], ['memory', memory]];
    for (const [name, run] of parts) if (only.length === 0 || only.includes(name)) await run(install);
  } finally {
    fs.rmSync(install, { recursive: true, force: true });
    fs.rmSync(work, { recursive: true, force: true });
  }
  console.log(`load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')} on ${os.cpus().length} cores`);
  const width = Math.max(...rows.map((r) => r[0].length));
  console.log(`${'figure'.padEnd(width)} | measured   | target`);
  console.log(`${'-'.repeat(width)}-|------------|---------`);
  for (const [label, value, target] of rows) console.log(`${label.padEnd(width)} | ${value.padEnd(10)} | ${target}`);
}

void main().then(() => process.exit(0), (error: unknown) => {
  console.error(error);
  process.exit(1);
});
