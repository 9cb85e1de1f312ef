// A member that dies and comes back (FLEET-22): the home in-process, the member a
// real `commandr serve` child process killed with SIGKILL and started again on the
// same data dir; a device paired with the home watches it go offline and return.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { MachineState } from '../../protocol/wire/machines';
import type { Relay } from '../../relay/server';
import { labelRepo } from '../../relay/fleet/home';
import { createJoinCode } from '../../relay/fleet/machines';
import { joinHome, openLink } from '../../relay/fleet/member';
import { createRelay } from '../../relay/server';
import { type DeviceClient, WireFrameError } from '../helpers/device';
import { makeRepo, packetText, TempDirs, writePacket } from '../council/fixtures';
import { type BusRecorder, registryOf, repoIdFor, startRelay, subscribedClient } from '../relay-watch/fixture';
import { buildRelayInstall, type ChildRelay, startChildRelay } from '../relay-e2e/child-relay';

const dirs = new TempDirs();
let install: string;
let home: Relay;
const children: ChildRelay[] = [];
const sockets: DeviceClient[] = [];

beforeAll(async () => {
  install = await buildRelayInstall();
  home = await startRelay([], { dataDir: dirs.make('fleet-home-') });
});

afterAll(async () => {
  for (const s of sockets) await s.close().catch(() => undefined);
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  await home?.close();
  if (install) fs.rmSync(install, { recursive: true, force: true });
  dirs.cleanup();
});

function machineStates(client: DeviceClient): MachineState[] {
  return client.received.filter((f) => f.type === 'machine.state').map((f) => (f as unknown as { machine: MachineState }).machine);
}
async function subscribed(name: string): Promise<{ client: DeviceClient; bus: BusRecorder }> {
  const s = await subscribedClient(home, undefined, name);
  sockets.push(s.client);
  return s;
}

describe('fleet: a member goes offline and comes back', () => {
  it('FLEET-22: SIGKILL of the member marks its repos offline on the home device (last state kept, actions refused); on restart it is online with a fresh snapshot', async () => {
    const { repo, bus: memberBus } = makeRepo(dirs);
    writePacket(memberBus, 'inbox', 'R-1.md', packetText('R-1'));
    const memberData = path.join(dirs.make('fleet-member-'), 'data');
    const { code } = createJoinCode(home.dataDir, 'desktop');
    const { machine } = await joinHome(memberData, home.url, code, 'desktop');
    const label = labelRepo(machine, repoIdFor(repo));
    const env = { ...process.env, HOME: dirs.make('fleet-home-dir-'), COMMANDR_HOME: memberData };
    const start = async () => {
      const child = await startChildRelay(install, memberData, ['--repo', repo, '--no-demo'], env);
      children.push(child);
      return child;
    };
    const { client, bus } = await subscribed('phone');
    const first = await start();
    await bus.task(label, 'R-1');
    await client.waitFor((f) => f.type === 'machine.state' && (f as unknown as { machine: MachineState }).machine.online, 'desktop online');
    expect(machineStates(client).at(-1)).toMatchObject({ id: machine, name: 'desktop', online: true });
    // The member dies without a word.
    client.clear();
    first.child.kill('SIGKILL');
    await first.exited;
    const down = await client.waitFor((f) => f.type === 'machine.state' && !(f as unknown as { machine: MachineState }).machine.online, 'desktop offline');
    expect((down as unknown as { machine: MachineState }).machine).toMatchObject({ id: machine, online: false, repos: [label], since: expect.any(String) });
    const refused = await client.request({ type: 'task.detail', repo: label, task: 'R-1' }).catch((e: WireFrameError) => e);
    expect(refused).toBeInstanceOf(WireFrameError);
    expect((refused as WireFrameError).code).toBe('E_UNAVAILABLE');
    expect((refused as WireFrameError).message).toMatch(/desktop is offline/);
    // A device that arrives now still sees the last known state, marked offline; its member cursor is not taken for a removed repo.
    const late = await subscribedClient(home, { [label]: bus.cursors[label]! }, 'late phone');
    sockets.push(late.client);
    const kept = await late.bus.task(label, 'R-1');
    expect(kept.state).toBe('inbox');
    await late.client.waitFor((f) => f.type === 'machine.state', 'machine state for a late device');
    expect(machineStates(late.client)).toEqual([expect.objectContaining({ id: machine, online: false, repos: [label] })]);
    expect(late.client.received.filter((f) => f.type === 'repo.removed')).toEqual([]);
    // Work arrives while the member is down; on restart the home's devices get it in a fresh snapshot.
    writePacket(memberBus, 'inbox', 'R-2.md', packetText('R-2'));
    const before = bus.snapshots.length;
    await start();
    await client.waitFor((f) => f.type === 'machine.state' && (f as unknown as { machine: MachineState }).machine.online && machineStates(client).filter((m) => m.online).length === 2, 'desktop online again');
    const fresh = await bus.until(() => bus.snapshots.slice(before).find((s) => s.repo === label && s.tasks.some((t) => t.id === 'R-2')), 'a fresh snapshot with R-2');
    expect(fresh.tasks.map((t) => t.id).sort()).toEqual(['R-1', 'R-2']);
    await late.bus.task(label, 'R-2');
    const detail = await client.request({ type: 'task.detail', repo: label, task: 'R-2' });
    expect(detail.result).toMatchObject({ summary: { repo: label, id: 'R-2' } });
  });

  it('FLEET-22: a link that goes silent (no pong) is ended by the home, which marks the machine offline', async () => {
    const dataDir = dirs.make('fleet-home-beat-');
    const beating = await createRelay({ port: 0, host: '127.0.0.1', dataDir, repos: [], registryFile: registryOf(dataDir), demo: false, heartbeatMs: 100 });
    try {
      const memberData = dirs.make('fleet-silent-');
      const { code } = createJoinCode(dataDir, 'silent');
      const record = await joinHome(memberData, beating.url, code, 'silent');
      const { client } = await subscribedClient(beating, undefined, 'phone');
      sockets.push(client);
      const link = await openLink(memberData, beating.url, { auth: record });
      await client.waitFor((f) => f.type === 'machine.state' && (f as unknown as { machine: MachineState }).machine.online, 'silent online');
      // The member stops reading: no pong ever comes back, as with a machine that lost power.
      client.clear();
      (link.ws as unknown as { _socket: { pause(): void } })._socket.pause();
      const down = await client.waitFor((f) => f.type === 'machine.state' && !(f as unknown as { machine: MachineState }).machine.online, 'silent offline');
      expect((down as unknown as { machine: MachineState }).machine).toMatchObject({ id: record.machine, online: false });
      link.ws.terminate();
    } finally {
      await beating.close();
    }
  });
});
