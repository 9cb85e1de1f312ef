// A home relay and a member relay that runs the fake agent adapter over a real
// bus-ready git repo (FLEETX-4, FLEETX-5), joined with a real one-time code; the
// home's phone subscribes to push through the local Web Push stand-in; hand-driven
// members for the hostile cases; and plain relays with joined members (fleetRelays).
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach } from 'vitest';
import type { HomeFrame } from '../../protocol/wire/fleet';
import { repoIdOf } from '../../relay/watch/repo-id';
import type { Relay } from '../../relay/server';
import { labelRepo } from '../../relay/fleet/home';
import { createJoinCode } from '../../relay/fleet/machines';
import { joinHome, openLink, type Welcomed } from '../../relay/fleet/member';
import { makeRepo, packetText, TempDirs, writePacket } from '../council/fixtures';
import { busRepoIn } from '../helpers/bus-repo';
import type { DeviceClient } from '../helpers/device';
import { startRelayFixture, type RelayFixture } from '../commanders/relay-fixture';
import { repoIdFor, startRelay, subscribedClient } from '../relay-watch/fixture';
import { PushService } from '../stand-ins/push-service';
import { type PushDevice, pushDevice } from '../push/fixture';

export function taskPacket(id: string, body: string): string {
  return `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${id}\n\n## Context\n${body}\n`;
}

export interface FleetPair {
  base: string;
  repo: string;
  bus: string;
  repoId: string;
  /** The member's repo as the home's devices see it. */
  label: string;
  machine: string;
  prefix: string;
  member: RelayFixture;
  home: Relay;
  endpoint: PushService;
  phone: PushDevice;
  watcher: DeviceClient;
  cleanup(): Promise<void>;
}

export async function startFleetPair(tasks: Record<string, string>): Promise<FleetPair> {
  const base = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'fleetx-')));
  const inbox = Object.fromEntries(Object.entries(tasks).map(([id, body]) => [id, taskPacket(id, body)]));
  const { repo, bus } = busRepoIn(base, { commit: true, inbox });
  const endpoint = await new PushService().start();
  const caFile = path.join(base, 'push-ca.pem');
  fs.writeFileSync(caFile, endpoint.certificate.cert);
  process.env.COMMANDR_PUSH_CA = caFile;
  const member = await startRelayFixture({ repos: [repo] });
  const home = await startRelay([], { dataDir: path.join(base, 'home') });
  const { code } = createJoinCode(home.dataDir, 'laptop');
  const machine = (await joinHome(member.dataDir, home.url, code, 'laptop')).machine;
  const repoId = repoIdOf(repo);
  const label = labelRepo(machine, repoId);
  const phone = await pushDevice(home, endpoint, 'Pixel on the home', false);
  const sub = await subscribedClient(home, undefined, 'watcher');
  await sub.bus.task(label, Object.keys(tasks)[0]!);
  const pair: FleetPair = {
    base, repo, bus, repoId, label, machine, prefix: machine.slice(2, 10), member, home, endpoint, phone, watcher: sub.client,
    async cleanup() {
      await phone.client.close();
      await sub.client.close();
      await home.close();
      await member.cleanup();
      await endpoint.close();
      delete process.env.COMMANDR_PUSH_CA;
      fs.rmSync(base, { recursive: true, force: true });
    },
  };
  return pair;
}

export interface HandLink {
  link: Welcomed;
  machine: string;
  prefix: string;
  repo: string;
  actions: Array<Extract<HomeFrame, { type: 'fleet.action' }>>;
  send(frame: unknown): void;
}

/** A machine joined to the home whose link the test drives by hand (a hostile member). */
export async function handLink(pair: FleetPair, name: string, ownRepo: string): Promise<HandLink> {
  const dataDir = fs.mkdtempSync(path.join(pair.base, 'hand-'));
  const { code } = createJoinCode(pair.home.dataDir, name);
  const record = await joinHome(dataDir, pair.home.url, code, name);
  const link = await openLink(dataDir, pair.home.url, { auth: record });
  const actions: HandLink['actions'] = [];
  link.ws.on('message', (d) => actions.push(JSON.parse(String(d))));
  const send = (frame: unknown) => link.ws.send(JSON.stringify(frame));
  send({ type: 'fleet.bus', frame: { type: 'repo.snapshot', repo: { id: ownRepo, name: 'hand', path: '/nowhere', demo: false }, tasks: [], cursor: { offset: 0, epoch: 'e' } } });
  const repo = labelRepo(record.machine, ownRepo);
  await pair.watcher.waitFor((f) => f.type === 'repo.snapshot' && (f as { repo: { id: string } }).repo.id === repo, `${name} snapshot`);
  return { link, machine: record.machine, prefix: record.machine.slice(2, 10), repo, actions, send };
}

/** Waits until the home tells `client` that `machine` went offline. */
export function offline(client: DeviceClient, machine: string): Promise<unknown> {
  return client.waitFor((f) => {
    const m = (f as unknown as { machine?: { id: string; online: boolean } }).machine;
    return f.type === 'machine.state' && m?.id === machine && !m.online;
  }, `${machine} offline`);
}

export interface FleetRelays {
  dirs: TempDirs;
  /** Every relay started and not yet closed (closed after each test; a test that closes one itself takes it out). */
  relays: Relay[];
  /** A relay on port 0 over `repos`, in a fresh data dir. */
  relay(repos: string[]): Promise<Relay>;
  /** A member machine: a repo with one inbox packet (`<NAME>-1`), its relay, joined to `home` as `name`. */
  member(home: Relay, name: string): Promise<{ relay: Relay; repo: string; bus: string; machine: string; label: string }>;
}

/** Relays for the file's tests, closed with their temp dirs after each test; `dataPrefix` names their data dirs. */
export function fleetRelays(dataPrefix: string): FleetRelays {
  const fleet: FleetRelays = {
    dirs: new TempDirs(),
    relays: [],
    async relay(repos) {
      const r = await startRelay(repos, { dataDir: fleet.dirs.make(dataPrefix) });
      fleet.relays.push(r);
      return r;
    },
    async member(home, name) {
      const { repo, bus } = makeRepo(fleet.dirs);
      writePacket(bus, 'inbox', `${name}-1.md`, packetText(`${name.toUpperCase()}-1`));
      const r = await fleet.relay([repo]);
      const { code } = createJoinCode(home.dataDir, name);
      const joined = await joinHome(r.dataDir, home.url, code, name);
      return { relay: r, repo, bus, machine: joined.machine, label: labelRepo(joined.machine, repoIdFor(repo)) };
    },
  };
  afterEach(async () => {
    for (const r of fleet.relays.splice(0)) await r.close();
    fleet.dirs.cleanup();
  });
  return fleet;
}
