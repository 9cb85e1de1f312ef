// The relay-e2e world: a private relay install, a bus repo with packets in its inbox,
// and relays started as child processes on one data dir (`<dir>/data`), so a test can
// kill one and start the next. Every socket and relay is ended after the file's tests.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { busRepo } from '../helpers/bus-repo';
import { type DeviceClient, type TestDevice, openSocket } from '../helpers/device';
import { BusRecorder } from '../relay-watch/fixture';
import { buildRelayInstall, type ChildRelay, startChildRelay } from './child-relay';

export interface ChildRelayWorld {
  dir: string;
  repo: string;
  bus: string;
  /** A relay on the world's data dir, watching its repo only (no demo). */
  start(): Promise<ChildRelay>;
  /** A socket of `device` on `relay`, subscribed (with `cursors` to resume), recording the bus. */
  connect(relay: ChildRelay, device: TestDevice, cursors?: Record<string, { offset: number; epoch: string }>): Promise<BusRecorder>;
}

/** Registers the world's beforeAll and afterAll; its fields are set once beforeAll has run. */
export function childRelayWorld(prefix: string, inbox: string[]): ChildRelayWorld {
  let install: string;
  let env: NodeJS.ProcessEnv;
  const sockets: DeviceClient[] = [];
  const relays: ChildRelay[] = [];
  const world: ChildRelayWorld = {
    dir: '', repo: '', bus: '',
    async start() {
      const relay = await startChildRelay(install, path.join(world.dir, 'data'), ['--repo', world.repo, '--no-demo'], env);
      relays.push(relay);
      return relay;
    },
    async connect(relay, device, cursors) {
      const socket = await openSocket(relay, device);
      sockets.push(socket);
      const recorder = new BusRecorder(socket.ws);
      await socket.request({ type: 'subscribe', ...(cursors ? { cursors } : {}) });
      return recorder;
    },
  };
  beforeAll(async () => {
    install = await buildRelayInstall();
    Object.assign(world, busRepo(prefix, { inbox }));
    fs.mkdirSync(path.join(world.dir, 'home'));
    env = { ...process.env, HOME: path.join(world.dir, 'home'), COMMANDR_HOME: path.join(world.dir, 'data') };
  });
  afterAll(async () => {
    for (const s of sockets) await s.close().catch(() => undefined);
    for (const r of relays) if (r.child.exitCode === null && r.child.signalCode === null) r.child.kill('SIGKILL');
    if (world.dir) fs.rmSync(world.dir, { recursive: true, force: true });
    if (install) fs.rmSync(install, { recursive: true, force: true });
  });
  return world;
}
