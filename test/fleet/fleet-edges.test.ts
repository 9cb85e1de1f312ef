// Fleet edges (FLEETE-n), with real relays on port 0 and a TCP proxy in front of the
// home (to hold a link down, and to count the member's link attempts): a member
// repo that had no events.jsonl when the home last heard of it delivers the events
// written meanwhile as events; a removed member stops linking, says so once, and
// links again after a new `commandr join`.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket, { WebSocketServer } from 'ws';
import { appendProgress } from '../../bus/progress';
import { FLEET_PATH, type HomeFrame, memberProof } from '../../protocol/wire/fleet';
import type { MachineState } from '../../protocol/wire/machines';
import type { Logger } from '../../relay/options';
import type { Relay } from '../../relay/server';
import { labelRepo } from '../../relay/fleet/home';
import { loadMachineKey, signWith } from '../../relay/fleet/keys';
import { createJoinCode, removeMachine } from '../../relay/fleet/machines';
import { fleetUrl, joinHome, MachineRemoved, openLink, readHome } from '../../relay/fleet/member';
import type { DeviceClient } from '../helpers/device';
import { makeRepo, packetText, TempDirs, writePacket } from '../council/fixtures';
import { type BusRecorder, repoIdFor, startRelay, subscribedClient } from '../relay-watch/fixture';

const dirs = new TempDirs();
const relays: Relay[] = [];
const sockets: DeviceClient[] = [];
const cleanups: Array<() => void> = [];

afterEach(async () => {
  for (const s of sockets.splice(0)) await s.close().catch(() => undefined);
  for (const r of relays.splice(0)) await r.close().catch(() => undefined);
  for (const c of cleanups.splice(0)) c();
  dirs.cleanup();
});

async function relay(repos: string[], dataDir: string, logger?: Logger): Promise<Relay> {
  const r = await startRelay(repos, { dataDir, logger });
  relays.push(r);
  return r;
}

async function closeRelay(r: Relay): Promise<void> {
  relays.splice(relays.indexOf(r), 1);
  await r.close();
}

const online = (client: DeviceClient, machine: string, up: boolean) =>
  client.waitFor((f) => f.type === 'machine.state' && (f as unknown as { machine: MachineState }).machine.id === machine
    && (f as unknown as { machine: MachineState }).machine.online === up, `${machine} ${up ? 'online' : 'offline'}`, 20_000);

const notesOf = (bus: BusRecorder, label: string) =>
  bus.events.filter((e) => e.repo === label && e.event.event === 'task_progress').map((e) => e.event.note as string);

const expected = (from: number, to: number) => Array.from({ length: to - from }, (_, i) => `b ${from + i}`);

function append(bus: string, from: number, to: number): void {
  for (let i = from; i < to; i++) appendProgress(bus, 'R-1', `b ${i}`);
}

/** Every progress note exactly once, in log order, as events; no resync snapshot of the repo. */
function expectExactlyOnceInOrder(bus: BusRecorder, label: string, n: number): void {
  expect(notesOf(bus, label)).toEqual(expected(0, n));
  const offsets = bus.events.filter((e) => e.repo === label).map((e) => e.cursor.offset);
  expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
  expect(new Set(offsets).size).toBe(offsets.length);
  expect(bus.snapshots.filter((s) => s.repo === label && s.resync)).toEqual([]);
}

/** A TCP proxy in front of the home: counts the connections made through it, can cut them and refuse new ones for a while. */
async function proxyTo(target: string): Promise<{ url: string; connections(): number; cut(): void; hold(on: boolean): void }> {
  const { port } = new URL(target);
  const open = new Set<net.Socket>();
  let count = 0;
  let held = false;
  const server = net.createServer((inbound) => {
    count += 1;
    if (held) return inbound.destroy();
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
  cleanups.push(() => { for (const s of open) s.destroy(); server.close(); });
  return {
    url: `http://127.0.0.1:${(server.address() as net.AddressInfo).port}`,
    connections: () => count,
    cut: () => { for (const s of open) s.destroy(); },
    hold: (on) => { held = on; },
  };
}

/** A logger that keeps its warnings and lets a test wait for one. */
function waitingLogger(): Logger & { warnings: string[]; until(match: RegExp, what: string): Promise<void> } {
  const warnings: string[] = [];
  const waiters: Array<() => void> = [];
  const note = (m: string) => {
    warnings.push(m);
    for (const w of waiters.splice(0)) w();
  };
  return {
    warnings,
    info: () => undefined,
    warn: note,
    error: (e) => note(String(e)),
    async until(match, what) {
      const deadline = Date.now() + 20_000;
      while (!warnings.some((w) => match.test(w))) {
        if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}; warnings: ${JSON.stringify(warnings)}`);
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.max(0, deadline - Date.now()) + 1);
          waiters.push(() => { clearTimeout(timer); resolve(); });
        });
      }
    },
  };
}

/** A member repo with one inbox packet and no events.jsonl yet, its machine joined to the home through `homeUrl`. */
async function logLessMember(home: Relay, homeUrl: string, name: string) {
  const { repo, bus } = makeRepo(dirs);
  writePacket(bus, 'inbox', 'R-1.md', packetText('R-1'));
  const dataDir = dirs.make(`fleete-${name}-`);
  const { machine } = await joinHome(dataDir, homeUrl, createJoinCode(home.dataDir, name).code, name);
  return { repo, bus, dataDir, machine, label: labelRepo(machine, repoIdFor(repo)), log: path.join(bus, 'events.jsonl') };
}

describe('fleet edges', () => {
  it('FLEETE-1: a member whose repo had no events.jsonl when it went down (relay stopped) delivers the events written meanwhile as events, once and in order, then its state', async () => {
    const home = await relay([], dirs.make('fleete-home-'));
    const m = await logLessMember(home, home.url, 'desk');
    const { client, bus } = await subscribedClient(home, undefined, 'phone');
    sockets.push(client);
    const first = await relay([m.repo], m.dataDir);
    await bus.task(m.label, 'R-1');
    expect(fs.existsSync(m.log)).toBe(false);
    expect(bus.cursors[m.label]).toEqual({ offset: 0, epoch: '' });

    await closeRelay(first);
    await online(client, m.machine, false);
    append(m.bus, 0, 20); // the log appears while the member is down
    const before = bus.snapshots.length;
    await relay([m.repo], m.dataDir);
    await online(client, m.machine, true);
    const back = await bus.until(() => bus.snapshots.slice(before).find((s) => s.repo === m.label), 'the repo state after the return');
    // The events came before the state, as events.
    expect(notesOf(bus, m.label)).toEqual(expected(0, 20));
    expect(back.afterEvents).toBe(bus.events.length);
    expect(back.cursor).toEqual(bus.events.at(-1)!.cursor);
    append(m.bus, 20, 25);
    await bus.until(() => notesOf(bus, m.label).includes('b 24'), 'live events after the return');
    expectExactlyOnceInOrder(bus, m.label, 25);
  });

  it('FLEETE-1: the same when the link was down (member relay running) while its repo\'s first events.jsonl appeared', async () => {
    const home = await relay([], dirs.make('fleete-home-'));
    const proxy = await proxyTo(home.url);
    const m = await logLessMember(home, proxy.url, 'lap');
    const { client, bus } = await subscribedClient(home, undefined, 'phone');
    sockets.push(client);
    const member = await relay([m.repo], m.dataDir);
    await bus.task(m.label, 'R-1');
    expect(bus.cursors[m.label]).toEqual({ offset: 0, epoch: '' });

    proxy.hold(true);
    proxy.cut();
    await online(client, m.machine, false);
    // The member reads the new log while its link is down (a device on the member itself shows it).
    const local = await subscribedClient(member, undefined, 'member phone');
    sockets.push(local.client);
    await local.bus.task(repoIdFor(m.repo), 'R-1');
    append(m.bus, 0, 20);
    await local.bus.until(() => notesOf(local.bus, repoIdFor(m.repo)).includes('b 19'), 'the member read its new log');
    const before = bus.snapshots.length;
    proxy.hold(false);
    await online(client, m.machine, true);
    await bus.until(() => bus.snapshots.slice(before).find((s) => s.repo === m.label), 'the repo state after the return');
    expect(notesOf(bus, m.label)).toEqual(expected(0, 20));
    append(m.bus, 20, 25);
    await bus.until(() => notesOf(bus, m.label).includes('b 24'), 'live events after the return');
    expectExactlyOnceInOrder(bus, m.label, 25);
  });

  it('FLEETE-2: a removed member stops trying to link, says once that it was removed and how to join again, and links again after a new join', async () => {
    const home = await relay([], dirs.make('fleete-home-'));
    const proxy = await proxyTo(home.url);
    const m = await logLessMember(home, proxy.url, 'gone');
    const { client } = await subscribedClient(home, undefined, 'phone');
    sockets.push(client);
    const logger = waitingLogger();
    await relay([m.repo], m.dataDir, logger);
    await online(client, m.machine, true);

    expect(removeMachine(home.dataDir, m.machine)).toBe(true);
    await logger.until(/removed/, 'the removal warning');
    const attempts = proxy.connections();
    // No more link attempts: watched over several of the member's retry intervals (its backoff starts at 250 ms and
    // doubles, so a member that kept trying would connect at least three more times in this window).
    const windowMs = 4000;
    await new Promise((resolve) => setTimeout(resolve, windowMs));
    expect(proxy.connections()).toBe(attempts);
    const said = logger.warnings.filter((w) => w.startsWith('fleet:'));
    expect(said).toHaveLength(1);
    expect(said[0]).toContain(`this machine (${m.machine})`);
    expect(said[0]).toContain('removed');
    expect(said[0]).toContain('`commandr machines add` on the home');
    expect(said[0]).toContain(`\`commandr join ${proxy.url} <code>\``);

    // The way back it names works while the relay runs: a new code, a new join, a new link.
    const again = await joinHome(m.dataDir, proxy.url, createJoinCode(home.dataDir, 'back').code, 'back');
    expect(readHome(m.dataDir)?.machine).toBe(again.machine);
    await online(client, again.machine, true);
    expect(logger.warnings.filter((w) => w.startsWith('fleet:'))).toHaveLength(1);
  });

  it('FLEETE-2: only a refusal the pinned home signed for this attempt counts as removed; a forged one is an ordinary failure (retried)', async () => {
    const home = await relay([], dirs.make('fleete-home-'));
    const m = await logLessMember(home, home.url, 'kept');
    const record = readHome(m.dataDir)!;
    // The real home's refusal of a removed machine is signed and verifies.
    expect(removeMachine(home.dataDir, m.machine)).toBe(true);
    await expect(openLink(m.dataDir, home.url, { auth: record })).rejects.toBeInstanceOf(MachineRemoved);

    // A stand-in that shows the real home's public key (anyone can) but cannot sign with it.
    const homeKey = loadMachineKey(home.dataDir).publicKey;
    const wss = new WebSocketServer({ port: 0, host: '127.0.0.1', path: FLEET_PATH });
    cleanups.push(() => wss.close());
    await new Promise<void>((resolve) => wss.once('listening', resolve));
    const fakeUrl = `http://127.0.0.1:${(wss.address() as net.AddressInfo).port}`;
    const stolen: { sig?: string } = {};
    wss.on('connection', (ws) => {
      ws.send(JSON.stringify({ type: 'fleet.hello', nonce: crypto.randomBytes(32).toString('base64url'), home: { key: homeKey, version: 'x' } } satisfies HomeFrame));
      ws.on('message', () => {
        const sig = stolen.sig ?? crypto.randomBytes(64).toString('base64url');
        ws.send(JSON.stringify({ type: 'fleet.error', error: { code: 'E_UNAUTHORIZED', message: 'removed' }, removed: { machine: record.machine, sig } } satisfies HomeFrame));
      });
    });
    const forged = await openLink(m.dataDir, fakeUrl, { auth: record }).catch((e: unknown) => e);
    expect(forged).not.toBeInstanceOf(MachineRemoved);
    expect(forged).toMatchObject({ code: 'E_UNAUTHORIZED' });

    // A real signature from another attempt (replayed) does not verify for this one.
    stolen.sig = await captureRefusal(m.dataDir, home.url, record);
    const replayed = await openLink(m.dataDir, fakeUrl, { auth: record }).catch((e: unknown) => e);
    expect(replayed).not.toBeInstanceOf(MachineRemoved);
  });
});

/** The home's signed refusal of `record`'s machine, as a raw client saw it on the wire. */
async function captureRefusal(dataDir: string, homeUrl: string, record: NonNullable<ReturnType<typeof readHome>>): Promise<string> {
  const key = loadMachineKey(dataDir);
  const ws = new WebSocket(fleetUrl(homeUrl));
  return new Promise<string>((resolve, reject) => {
    ws.on('error', reject);
    ws.on('message', (data) => {
      const frame = JSON.parse(String(data)) as HomeFrame;
      if (frame.type === 'fleet.hello') {
        const nonce = crypto.randomBytes(32).toString('base64url');
        ws.send(JSON.stringify({ type: 'fleet.auth', machine: record.machine, nonce, sig: signWith(key, memberProof(frame.nonce, nonce, record.fingerprint)) }));
      } else if (frame.type === 'fleet.error' && frame.removed) {
        ws.close();
        resolve(frame.removed.sig);
      } else reject(new Error(`unexpected ${frame.type}`));
    });
  });
}
