// A hostile member relay (a joined machine that was compromised, or a thief of its
// machine key) attacking the home: real home relay on port 0, the member's link
// driven by hand with the real key proof (FLEET-24).
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import type * as net from 'node:net';
import * as path from 'node:path';
import { fleetHomeOf, labelRepo } from '../../relay/fleet/home';
import { loadMachineKey } from '../../relay/fleet/keys';
import { MAX_LINK_UPS } from '../../relay/fleet/link-rate';
import { addMachine, createJoinCode } from '../../relay/fleet/machines';
import { joinHome, openLink } from '../../relay/fleet/member';
import { packetText, writePacket } from '../council/fixtures';
import { repoIdFor, subscribedClient } from '../relay-watch/fixture';
import { fleetRelays } from './member-fixture';

const fleet = fleetRelays('fleet-hostile-');

async function joined(name: string) {
  const home = await fleet.relay([]);
  const { client } = await subscribedClient(home);
  const dataDir = fleet.dirs.make('fleet-hostile-member-');
  const { code } = createJoinCode(home.dataDir, name);
  const record = await joinHome(dataDir, home.url, code, name);
  return { home, client, dataDir, record };
}

describe('a hostile member', () => {
  it('FLEET-24: a member linking in a loop is refused E_RATE_LIMITED past MAX_LINK_UPS a minute; its devices are not flooded and its last link stays up', async () => {
    const { home, client, dataDir, record } = await joined('looper');
    const stateOf = (f: { type: string }) => f.type === 'machine.state' && (f as unknown as { machine: { id: string } }).machine.id === record.machine;
    let last: Awaited<ReturnType<typeof openLink>> | undefined;
    let refused: unknown;
    let links = 0;
    for (let n = 0; n < MAX_LINK_UPS + 5 && refused === undefined; n++) {
      try {
        const link = await openLink(dataDir, home.url, { auth: record });
        // The previous link is replaced (closed by the home); wait for that so counts are exact.
        if (last) await new Promise((resolve) => (last!.ws.readyState === last!.ws.CLOSED ? resolve(undefined) : last!.ws.once('close', resolve)));
        last = link;
        links += 1;
      } catch (error) {
        refused = error;
      }
    }
    expect((refused as { code?: string } | undefined)?.code).toBe('E_RATE_LIMITED');
    expect(String((refused as Error).message)).toMatch(/linked 30 times within 60 s/);
    // `commandr join`'s own link was the first of the machine's link-ups.
    expect(links).toBe(MAX_LINK_UPS - 1);
    // The refused attempt did not take the machine offline: its latest link is still its link.
    expect(last!.ws.readyState).toBe(last!.ws.OPEN);
    expect(fleetHomeOf(home.services)!.online()).toEqual([record.machine]);
    // One machine.state per link-up, plus the join link's going down; none for the refused one.
    await client.waitFor((f) => stateOf(f) && (f as unknown as { machine: { online: boolean } }).machine.online, 'machine.state');
    expect(client.received.filter(stateOf).length).toBeLessThanOrEqual(MAX_LINK_UPS + 1);
    last!.ws.close();
    await client.close();
  });

  it('FLEET-24: a link replaced by a newer one of the same machine that ignores the close handshake is cut within a second, not left open', async () => {
    const { home, client, dataDir, record } = await joined('piler');
    const first = await openLink(dataDir, home.url, { auth: record });
    // A hostile member never reads what the home sends on its old link, so it never answers the close frame.
    const socket = (first.ws as unknown as { _socket: net.Socket })._socket;
    socket.removeAllListeners('data');
    socket.on('data', () => undefined);
    const started = Date.now();
    const cut = new Promise<number>((resolve) => socket.once('close', () => resolve(Date.now() - started)));
    const second = await openLink(dataDir, home.url, { auth: record });
    // ws itself would wait 30 s for the close handshake; the home cuts it after a second.
    const took = await Promise.race([cut, new Promise<number>((resolve) => setTimeout(() => resolve(Infinity), 10_000).unref())]);
    expect(took).toBeLessThan(10_000);
    expect(second.ws.readyState).toBe(second.ws.OPEN);
    second.ws.close();
    await client.close();
  }, 20_000);

  it('FLEET-26: a member repo whose label would be the id of a repo the home watches itself is not taken: the phone never sees the member\'s tasks as the home\'s', async () => {
    // A home repo whose folder name starts like a member's label (`<8 hex>.`), and a member holding that machine id.
    const machine = 'm-a1b2c3d4e5f60718';
    const repo = path.join(fleet.dirs.make('fleet-home-repos-'), 'a1b2c3d4.proj');
    fs.mkdirSync(repo);
    spawnSync('git', ['init', '-q', '-b', 'main'], { cwd: repo });
    const bus = path.join(repo, '.agents');
    for (const d of ['inbox', 'claimed', 'done', 'approvals']) fs.mkdirSync(path.join(bus, d), { recursive: true });
    writePacket(bus, 'inbox', 'HOME-1.md', packetText('HOME-1'));
    const home = await fleet.relay([repo]);
    const homeRepo = repoIdFor(repo);
    const own = homeRepo.slice('a1b2c3d4.'.length);
    expect(labelRepo(machine, own)).toBe(homeRepo);
    const dataDir = fleet.dirs.make('fleet-hostile-member-');
    addMachine(home.dataDir, { id: machine, name: 'rogue', key: loadMachineKey(dataDir).publicKey, joinedAt: new Date().toISOString() });
    const link = await openLink(dataDir, home.url, { auth: { url: home.url, fingerprint: loadMachineKey(home.dataDir).fingerprint, machine, name: 'rogue' } });
    const forged = (id: string) => ({
      repo: id, id: 'FORGED-1', file: 'FORGED-1.md', type: null, scope: null, title: 'forged by the member', state: 'inbox', owner: null, blockedBy: [],
      lastNote: null, lastEventTs: null, verdict: null, annotations: { total: 0, unconsumed: 0 }, pendingApproval: null, result: null,
    });
    const snapshot = (id: string) => ({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id, name: 'proj', path: '/x', demo: false }, tasks: [forged(id)], cursor: { offset: 0, epoch: 'e' } } });
    link.ws.send(JSON.stringify(snapshot(own)));
    // A later frame of its own repo: once it reached the device, the one before was judged (link frames are handled in order).
    link.ws.send(JSON.stringify(snapshot('other-0000abcd')));
    const { client } = await subscribedClient(home);
    await client.waitFor((f) => f.type === 'repo.snapshot' && (f as unknown as { repo: { id: string } }).repo.id === labelRepo(machine, 'other-0000abcd'), 'the member\'s own repo');
    const shown = client.received.filter((f) => f.type === 'repo.snapshot' && (f as unknown as { repo: { id: string } }).repo.id === homeRepo) as unknown as Array<{ repo: { name: string }; tasks: Array<{ id: string }> }>;
    expect(shown.map((f) => [f.repo.name, f.tasks.map((t) => t.id)])).toEqual([['a1b2c3d4.proj', ['HOME-1']]]);
    expect(fleetHomeOf(home.services)!.route(homeRepo)).toBeUndefined();
    link.ws.close();
    await client.close();
  });
});
