// Machines in the app (FLEETUI-n), the relay's side: what a home's devices are told
// about each machine (version, last seen, the home itself) and `machine.remove`,
// which only an owner device may send. Real relays on port 0: a home and a member.
import { describe, expect, it } from 'vitest';
import { version } from '../../package.json';
import { homeName } from '../../relay/fleet/device-frames';
import { listMachines } from '../../relay/fleet/machines';
import { openLink, readHome } from '../../relay/fleet/member';
import { fleetRelays } from './member-fixture';
import { connectDevice, WireFrameError } from '../helpers/device';
import { subscribedClient } from '../relay-watch/fixture';

const fleet = fleetRelays('fleetui-data-');

type MachineFrame = { type: 'machine.state'; machine: { id: string; name: string; online: boolean; version?: string | null; lastSeen?: string | null; repos: string[] } };

async function refusal(p: Promise<unknown>): Promise<WireFrameError> {
  const error = await p.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(WireFrameError);
  return error as WireFrameError;
}

describe('machines in the app: the relay side', () => {
  it('FLEETUI-4: machine.state carries the member’s version and when the home last heard from it; subscribe names the home too', async () => {
    const home = await fleet.relay([]);
    const { client, bus } = await subscribedClient(home);
    const before = new Date().toISOString();
    const m = await fleet.member(home, 'laptop');
    await bus.task(m.label, 'LAPTOP-1');
    const online = (await client.waitFor((f) => f.type === 'machine.state' && (f as MachineFrame).machine.online, 'online machine')) as MachineFrame;
    expect(online.machine).toMatchObject({ id: m.machine, name: 'laptop', online: true, version });
    expect(online.machine.lastSeen! >= before).toBe(true);
    // A device subscribing later hears about the home itself, then each machine with its repos.
    const late = await subscribedClient(home, undefined, 'late');
    const homeFrame = await late.client.next('machine.home' as never) as unknown as { home: { name: string; version: string } };
    expect(homeFrame.home).toEqual({ name: homeName(), version });
    const state = (await late.client.waitFor((f) => f.type === 'machine.state', 'machine state')) as MachineFrame;
    expect(state.machine).toMatchObject({ id: m.machine, online: true, version, repos: [m.label] });
    // The member stops: offline, and lastSeen stays when it was last heard from (not the moment it was noticed gone).
    const heard = state.machine.lastSeen!;
    client.clear(); // `commandr join`'s own short link already came and went
    await m.relay.close();
    fleet.relays.splice(fleet.relays.indexOf(m.relay), 1);
    const offline = (await client.waitFor((f) => f.type === 'machine.state' && !(f as MachineFrame).machine.online, 'offline machine')) as MachineFrame;
    expect(offline.machine.version).toBe(version);
    expect(offline.machine.lastSeen! >= heard).toBe(true);
    expect(offline.machine.lastSeen! <= new Date().toISOString()).toBe(true);
    await late.client.close();
    await client.close();
  });

  it('FLEETUI-5: an owner device removes a member — its link closes, devices are told, and it cannot authenticate again', async () => {
    const home = await fleet.relay([]);
    const { client: owner, bus } = await subscribedClient(home);
    const other = await connectDevice(home, 'second phone');
    await other.request({ type: 'subscribe' });
    const m = await fleet.member(home, 'desktop');
    await bus.task(m.label, 'DESKTOP-1');
    const record = readHome(m.relay.dataDir)!;
    expect(record.machine).toBe(m.machine);
    const ack = await owner.request({ type: 'machine.remove', machine: m.machine });
    expect(ack.result).toEqual({ removed: m.machine });
    expect(listMachines(home.dataDir)).toEqual([]);
    // Every device hears it at once (no waiting for the next sweep): the machine and its repos are gone.
    for (const c of [owner, other]) {
      await c.next('machine.removed' as never, ((f: { machine: string }) => f.machine === m.machine) as never);
      await c.next('repo.removed', (f) => f.repo === m.label);
    }
    // The member's key no longer opens a link: it needs a new code.
    await expect(openLink(m.relay.dataDir, home.url, { auth: record })).rejects.toThrow(/unknown or removed machine/);
    // Removing it again is a clear not-found.
    const again = await refusal(owner.request({ type: 'machine.remove', machine: m.machine }));
    expect(again.code).toBe('E_NOT_FOUND');
    expect(again.message).toMatch(new RegExp(`no machine ${m.machine}`));
    await other.close();
    await owner.close();
  });

  it('FLEETUI-5: a device that is not an owner gets E_FORBIDDEN and the machine stays; unknown and malformed ids are refused', async () => {
    const home = await fleet.relay([]);
    const { client: owner } = await subscribedClient(home);
    const thief = await connectDevice(home, 'not the owner');
    const m = await fleet.member(home, 'server');
    const forbidden = await refusal(thief.request({ type: 'machine.remove', machine: m.machine }));
    expect(forbidden.code).toBe('E_FORBIDDEN');
    expect(forbidden.message).toMatch(/only an owner device may remove a machine/);
    expect(listMachines(home.dataDir).map((x) => x.id)).toEqual([m.machine]);
    // Not even whether a machine exists leaks to a non-owner.
    expect((await refusal(thief.request({ type: 'machine.remove', machine: 'm-0000000000000000' }))).code).toBe('E_FORBIDDEN');
    const unknown = await refusal(owner.request({ type: 'machine.remove', machine: 'm-0000000000000000' }));
    expect(unknown.code).toBe('E_NOT_FOUND');
    const malformed = await refusal(owner.request({ type: 'machine.remove', machine: '../machines.json' }));
    expect(malformed.code).toBe('E_BAD_ID');
    expect(malformed.message).toMatch(/machine: machine id must be m-<16 hex>/);
    expect(listMachines(home.dataDir).map((x) => x.id)).toEqual([m.machine]);
    await thief.close();
    await owner.close();
  });
});
