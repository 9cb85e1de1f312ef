// RESUME-1/2 across a relay restart: the phone leaves with its cursors, the relay
// stops, packets arrive (atomic rename, and a slow write still half-done when the
// relay comes back), and the resumed phone sees them all. Real child relay, real files.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { initRepo } from '../../bus/init';
import { git } from '../council/fixtures';
import { packet } from '../conformance/harness';
import { type DeviceClient, type TestDevice, openSocket, pairDevice } from '../helpers/device';
import { BusRecorder, repoIdFor } from '../relay-watch/fixture';
import { buildRelayInstall, type ChildRelay, startChildRelay } from './child-relay';

let install: string;
let dir: string;
let repo: string;
let bus: string;
let env: NodeJS.ProcessEnv;
const sockets: DeviceClient[] = [];
const relays: ChildRelay[] = [];

beforeAll(async () => {
  install = await buildRelayInstall();
  dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'relay-resume-restart-')));
  repo = path.join(dir, 'repo');
  fs.mkdirSync(repo);
  fs.mkdirSync(path.join(dir, 'home'));
  git(repo, 'init', '-q', '-b', 'main');
  bus = initRepo(repo, { gateBin: '/bin/false', registryFile: path.join(dir, 'registry') }).bus;
  fs.writeFileSync(path.join(bus, 'inbox', 'R-1.md'), packet({ id: 'R-1' }));
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

describe('resume across a relay restart', () => {
  it('RESUME-1: packets added while relay and phone were away (atomic rename; a slow write finished after the restart) show on resume', async () => {
    const dataDir = path.join(dir, 'data');
    const first = await startChildRelay(install, dataDir, ['--repo', repo, '--no-demo'], env);
    relays.push(first);
    const repoId = repoIdFor(repo);
    const phone = await pairDevice(first, 'phone');
    const before = await connect(first, phone);
    const cursor = await before.until(() => before.cursors[repoId], 'first snapshot');
    expect(before.tasks.has(`${repoId}/R-2`)).toBe(false);
    first.child.kill('SIGTERM');
    await first.exited;

    const tmp = path.join(bus, '.R-2.md.tmp');
    fs.writeFileSync(tmp, packet({ id: 'R-2' }));
    fs.renameSync(tmp, path.join(bus, 'inbox', 'R-2.md'));
    const slow = fs.openSync(path.join(bus, 'inbox', 'R-3.md'), 'w');
    const whole = packet({ id: 'R-3' });
    fs.writeSync(slow, whole.slice(0, 25));

    const second = await startChildRelay(install, dataDir, ['--repo', repo, '--no-demo'], env);
    relays.push(second);
    const after = await connect(second, phone, { [repoId]: cursor });
    const snap = await after.until(() => after.snapshots[0], 'the reconciling snapshot');
    expect(snap.resync).toBeUndefined();
    expect(after.events).toEqual([]);
    expect(snap.tasks.map((t) => t.id).sort()).toEqual(['R-1', 'R-2']); // R-3 is not whole yet
    fs.writeSync(slow, whole.slice(25));
    fs.closeSync(slow);
    expect(await after.task(repoId, 'R-3')).toMatchObject({ state: 'inbox', type: 'implementation' });
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
