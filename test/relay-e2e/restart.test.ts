// CURSOR-3: the relay killed with SIGKILL in the middle of a burst and started
// again; clients resume with their cursors and see every event exactly once.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendEvent } from '../../bus/event-log';
import { initRepo } from '../../bus/init';
import { git } from '../council/fixtures';
import { packet } from '../conformance/harness';
import { type DeviceClient, type TestDevice, openSocket, pairDevice } from '../helpers/device';
import { BusRecorder, repoIdFor } from '../relay-watch/fixture';
import { buildRelayInstall, type ChildRelay, startChildRelay } from './child-relay';

const BURST = 5000;
let install: string;
let dir: string;
let repo: string;
let bus: string;
let env: NodeJS.ProcessEnv;
const sockets: DeviceClient[] = [];
const relays: ChildRelay[] = [];

beforeAll(async () => {
  install = await buildRelayInstall();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'relay-kill-')));
  repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  fs.mkdirSync(path.join(dir, 'home'));
  git(repo, 'init', '-q', '-b', 'main');
  bus = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(dir, 'registry') }).bus;
  for (const id of ['K-1', 'K-2']) fs.writeFileSync(path.join(bus, 'inbox', `${id}.md`), packet({ id }));
  env = { ...process.env, HOME: path.join(dir, 'home'), COMMANDR_HOME: path.join(dir, 'data') };
});

afterAll(async () => {
  for (const s of sockets) await s.close().catch(() => undefined);
  for (const r of relays) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
  fs.rmSync(dir, { recursive: true, force: true });
  fs.rmSync(install, { recursive: true, force: true });
});

async function connect(relay: ChildRelay, device: TestDevice, cursors?: Record<string, { offset: number; epoch: string }>): Promise<BusRecorder> {
  const socket = await openSocket(relay, device);
  sockets.push(socket);
  const recorder = new BusRecorder(socket.ws);
  await socket.request({ type: 'subscribe', ...(cursors ? { cursors } : {}) });
  return recorder;
}

/** Appends the burst in slices so the relay (another process) interleaves with it. */
async function burst(onProgress: (written: number) => Promise<void> | void): Promise<void> {
  for (let n = 1; n <= BURST; n++) {
    appendEvent(bus, { event: 'task_progress', task: n % 2 ? 'K-1' : 'K-2', note: `burst ${n}` });
    if (n % 50 === 0) {
      await onProgress(n);
      await new Promise((r) => setImmediate(r));
    }
  }
}

describe('relay restart', () => {
  it('CURSOR-3: SIGKILL during a burst of 5,000 events, restart, reconnect with cursors: every event received exactly once', async () => {
    const dataDir = path.join(dir, 'data');
    const first = await startChildRelay(install, dataDir, ['--repo', repo, '--no-demo'], env);
    relays.push(first);
    const repoId = repoIdFor(repo);
    const devices = [await pairDevice(first, 'phone A'), await pairDevice(first, 'phone B'), await pairDevice(first, 'phone C')];
    const before = await Promise.all(devices.map((d) => connect(first, d)));
    await Promise.all(before.map((r) => r.until(() => r.cursors[repoId], 'initial snapshot')));
    let killedAt = 0;
    await burst(async (written) => {
      if (killedAt === 0 && written >= 1500) {
        // Mid-delivery: the clients have some of the burst, the relay is still sending.
        await before[0]!.until(() => before[0]!.events.length > 0, 'first burst events');
        first.child.kill('SIGKILL');
        killedAt = written;
        await first.exited;
      }
    });
    expect(killedAt).toBeGreaterThan(0);
    const second = await startChildRelay(install, dataDir, ['--repo', repo, '--no-demo'], env);
    relays.push(second);
    const after = await Promise.all(devices.map((d, i) => connect(second, d, { [repoId]: before[i]!.cursors[repoId]! })));
    for (let i = 0; i < devices.length; i++) {
      const got = await after[i]!.until(() => before[i]!.events.length + after[i]!.events.length >= BURST || undefined, `all events on client ${i}`, 30_000);
      expect(got).toBe(true);
      expect(after[i]!.snapshots.map((snap) => [snap.resync, snap.afterEvents])).toEqual([[undefined, after[i]!.events.length]]); // RESUME-1: the state after the events
      const notes = [...before[i]!.events, ...after[i]!.events].map((e) => e.event.note);
      expect(notes).toEqual(Array.from({ length: BURST }, (_, k) => `burst ${k + 1}`));
      expect(before[i]!.events.length).toBeLessThan(BURST);
    }
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
