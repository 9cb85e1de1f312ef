// Resume across the fleet link, event-exact (FLEETR-n): a burst of bus events on a
// member while the member is SIGKILLed (a real `commandr serve` child process) or
// its link is cut (a TCP proxy between member and home whose sockets are destroyed);
// the device on the home must see every event exactly once and in order, and a
// device that resumes from its own cursor gets exactly the events it missed.
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appendProgress } from '../../bus/progress';
import type { MachineState } from '../../protocol/wire/machines';
import type { Relay } from '../../relay/server';
import { labelRepo } from '../../relay/fleet/home';
import { createJoinCode } from '../../relay/fleet/machines';
import { joinHome } from '../../relay/fleet/member';
import { type DeviceClient, openSocket } from '../helpers/device';
import { makeRepo, packetText, TempDirs, writePacket } from '../council/fixtures';
import { BusRecorder, repoIdFor, startRelay, subscribedClient } from '../relay-watch/fixture';
import { buildRelayInstall, type ChildRelay, startChildRelay } from '../relay-e2e/child-relay';

const dirs = new TempDirs();
let install: string;
let home: Relay;
const children: ChildRelay[] = [];
const sockets: DeviceClient[] = [];
const relays: Relay[] = [];

beforeAll(async () => {
  install = await buildRelayInstall();
  home = await startRelay([], { dataDir: dirs.make('fleetr-home-') });
});

afterAll(async () => {
  for (const s of sockets) await s.close().catch(() => undefined);
  for (const c of children) if (c.child.exitCode === null && c.child.signalCode === null) c.child.kill('SIGKILL');
  for (const r of relays) await r.close().catch(() => undefined);
  await home?.close();
  if (install) fs.rmSync(install, { recursive: true, force: true });
  dirs.cleanup();
});

const online = (client: DeviceClient, machine: string, up: boolean) =>
  client.waitFor((f) => f.type === 'machine.state' && (f as unknown as { machine: MachineState }).machine.id === machine
    && (f as unknown as { machine: MachineState }).machine.online === up, `${machine} ${up ? 'online' : 'offline'}`, 20_000);

/** The burst's notes the recorder saw for `label`, in the order received. */
const notesOf = (bus: BusRecorder, label: string) =>
  bus.events.filter((e) => e.repo === label && e.event.event === 'task_progress').map((e) => e.event.note as string);

/** Appends `b <from>` … `b <to-1>` to the member's log, yielding to the event loop every 10 lines (pacing, not synchronisation). */
async function burst(bus: string, from: number, to: number): Promise<void> {
  for (let i = from; i < to; i++) {
    appendProgress(bus, 'R-1', `b ${i}`);
    if (i % 10 === 9) await new Promise((r) => setImmediate(r));
  }
}

const expected = (n: number) => Array.from({ length: n }, (_, i) => `b ${i}`);

function expectExactlyOnceInOrder(bus: BusRecorder, label: string, n: number): void {
  expect(notesOf(bus, label)).toEqual(expected(n));
  const offsets = bus.events.filter((e) => e.repo === label).map((e) => e.cursor.offset);
  expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  expect(new Set(offsets).size).toBe(offsets.length);
}

/** A TCP proxy in front of the home, so a test can cut the member's link without touching either relay. */
async function proxyTo(target: string): Promise<{ url: string; cut(): void; close(): void }> {
  const { port } = new URL(target);
  const open = new Set<net.Socket>();
  const server = net.createServer((inbound) => {
    const outbound = net.connect(Number(port), '127.0.0.1');
    for (const s of [inbound, outbound]) {
      open.add(s);
      s.on('close', () => open.delete(s));
      s.on('error', () => s.destroy());
    }
    inbound.pipe(outbound);
    outbound.pipe(inbound);
    inbound.on('close', () => outbound.destroy());
    outbound.on('close', () => inbound.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${address.port}`,
    cut: () => { for (const s of open) s.destroy(); },
    close: () => { for (const s of open) s.destroy(); server.close(); },
  };
}

describe('fleet: resume across the link, event-exact', () => {
  it('FLEETR-1 FLEETR-2: SIGKILL of the member mid-burst, restarted: the home device sees every event once and in order, and a device resuming from its cursor gets exactly what it missed', async () => {
    const { repo, bus: memberBus } = makeRepo(dirs);
    writePacket(memberBus, 'inbox', 'R-1.md', packetText('R-1'));
    const memberData = path.join(dirs.make('fleetr-member-'), 'data');
    const { machine } = await joinHome(memberData, home.url, createJoinCode(home.dataDir, 'desktop').code, 'desktop');
    const label = labelRepo(machine, repoIdFor(repo));
    const env = { ...process.env, HOME: dirs.make('fleetr-home-dir-'), COMMANDR_HOME: memberData };
    const start = async () => {
      const child = await startChildRelay(install, memberData, ['--repo', repo, '--no-demo'], env);
      children.push(child);
      return child;
    };
    const { client, bus } = await subscribedClient(home, undefined, 'phone');
    sockets.push(client);
    const other = await subscribedClient(home, undefined, 'tablet');
    sockets.push(other.client);
    const first = await start();
    await bus.task(label, 'R-1');
    await other.bus.task(label, 'R-1');

    // First half of the burst; the tablet goes away once it has seen some of it, keeping its cursor.
    await burst(memberBus, 0, 100);
    await other.bus.until(() => notesOf(other.bus, label).length > 0, 'the tablet sees the burst');
    await other.client.close();
    const tabletCursor = other.bus.cursors[label]!;
    const tabletSaw = notesOf(other.bus, label);
    // The member dies while events are still on their way to the home.
    await bus.until(() => notesOf(bus, label).length > 0, 'the phone sees the burst');
    client.clear(); // machine states from here on only
    first.child.kill('SIGKILL');
    await first.exited;
    await online(client, machine, false);
    // The burst goes on while the member is dead, and while it starts again.
    await burst(memberBus, 100, 200);
    const restarting = start();
    await burst(memberBus, 200, 300);
    await restarting;
    await online(client, machine, true);
    await bus.until(() => notesOf(bus, label).includes('b 299'), 'the whole burst on the phone', 30_000);
    await burst(memberBus, 300, 320);
    await bus.until(() => notesOf(bus, label).includes('b 319'), 'live events after the resume');
    expectExactlyOnceInOrder(bus, label, 320);
    // The home had a cursor the member's log continues: no resync on the phone.
    expect(bus.snapshots.filter((s) => s.repo === label && s.resync)).toEqual([]);

    // The tablet comes back with its own cursor: exactly the events after it, from the home's tail, then the state (RESUME-1).
    const back = await openSocket(home, other.client.device);
    sockets.push(back);
    const again = new BusRecorder(back.ws);
    await back.request({ type: 'subscribe', cursors: { [label]: tabletCursor } });
    await again.until(() => again.snapshots.find((s) => s.repo === label), 'the tablet resumes');
    expect([...tabletSaw, ...notesOf(again, label)]).toEqual(expected(320));
    expect(again.snapshots.find((s) => s.repo === label)).toMatchObject({ resync: undefined, cursor: bus.cursors[label] });
    expect(again.snapshots.find((s) => s.repo === label)!.afterEvents).toBe(320 - tabletSaw.length);
  });

  it('FLEETR-1 FLEETR-3: a link cut mid-burst loses and duplicates nothing; a device cursor the home cannot continue gets a resync snapshot, not events', async () => {
    const { repo, bus: memberBus } = makeRepo(dirs);
    writePacket(memberBus, 'inbox', 'R-1.md', packetText('R-1'));
    const proxy = await proxyTo(home.url);
    try {
      const memberData = dirs.make('fleetr-linked-');
      const { machine } = await joinHome(memberData, proxy.url, createJoinCode(home.dataDir, 'laptop').code, 'laptop');
      const label = labelRepo(machine, repoIdFor(repo));
      const { client, bus } = await subscribedClient(home, undefined, 'phone');
      sockets.push(client);
      const member = await startRelay([repo], { dataDir: memberData });
      relays.push(member);
      await bus.task(label, 'R-1');
      await burst(memberBus, 0, 150);
      await bus.until(() => notesOf(bus, label).length > 0, 'the phone sees the burst');
      // The link drops with frames in flight; the member keeps reading its log meanwhile.
      client.clear(); // machine states from here on only
      proxy.cut();
      await burst(memberBus, 150, 250);
      await online(client, machine, false);
      await burst(memberBus, 250, 300);
      await online(client, machine, true);
      await burst(memberBus, 300, 320);
      await bus.until(() => notesOf(bus, label).includes('b 319'), 'the whole burst on the phone', 30_000);
      expectExactlyOnceInOrder(bus, label, 320);
      expect(bus.snapshots.filter((s) => s.repo === label && s.resync)).toEqual([]);

      // A cursor of another log (a stale epoch) is not answered with events.
      const stale = await subscribedClient(home, { [label]: { offset: bus.cursors[label]!.offset, epoch: '1:1' } }, 'old phone');
      sockets.push(stale.client);
      const snap = await stale.bus.until(() => stale.bus.snapshots.find((s) => s.repo === label), 'a resync snapshot');
      expect(snap.resync).toBe(true);
      expect(notesOf(stale.bus, label)).toEqual([]);
      expect(snap.tasks.find((t) => t.id === 'R-1')).toMatchObject({ lastNote: 'b 319' });
    } finally {
      proxy.close();
    }
  });
});
