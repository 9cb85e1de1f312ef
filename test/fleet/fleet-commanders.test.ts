// Commanders on a member from a device paired with the home (FLEETX-1, FLEETX-5,
// FLEETX-6): the member relay runs the fake agent adapter for real in ITS data dir;
// the home's devices see the commander labelled with the machine, stream its
// output, talk to it, catch up, and delete it; the waiting push comes from the home.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CommanderView } from '../../protocol/wire/views';
import { removeMachine } from '../../relay/fleet/machines';
import { MAX_FORWARDED_REPLAY_CHARS } from '../../protocol/wire/fleet';
import { connectDevice, type DeviceClient, WireFrameError } from '../helpers/device';
import { type FleetPair, handLink, offline, startFleetPair } from './member-fixture';

let pair: FleetPair;

beforeAll(async () => {
  pair = await startFleetPair({ 'T-ok': 'all fine' });
});

afterAll(async () => {
  await pair?.cleanup();
});

const stateOf = (client: DeviceClient, id: string, check: (c: CommanderView) => boolean) =>
  client.next('commander.state', (f) => f.commander.id === id && check(f.commander), 15_000);
const errorOf = (p: Promise<unknown>) => p.then(() => undefined, (e: unknown) => e as WireFrameError);

describe('fleet: commanders on a member', () => {
  it('FLEETX-1, FLEETX-5: a home device starts a commander on the member, streams it, messages it, catches up, adds a reference and deletes it', async () => {
    const { phone, watcher, prefix, machine, member } = pair;
    const ack = await phone.client.request({ type: 'commander.create', name: 'Voice memos', referencePath: path.join(member.root, 'memos'), machine });
    const created = (ack.result as { commander: CommanderView }).commander;
    expect(created.id).toMatch(new RegExp(`^${prefix}\\.c-[a-z0-9]{12}$`));
    expect(created).toMatchObject({ name: 'laptop/Voice memos', status: 'starting' });
    const own = created.id.slice(prefix.length + 1);
    // Its directory is the member's; the home made none (a labelled id never names a directory).
    expect(fs.existsSync(path.join(member.dataDir, 'commanders', own, 'commander.json'))).toBe(true);
    expect(fs.existsSync(path.join(pair.home.dataDir, 'commanders', own))).toBe(false);
    expect(fs.readdirSync(path.join(pair.home.dataDir, 'commanders')).filter((d) => d.includes('.'))).toEqual([]);
    // Every home device sees it labelled, with its live output.
    const idle = await stateOf(watcher, created.id, (c) => c.status === 'idle');
    expect(idle.commander.name).toBe('laptop/Voice memos');
    const out = await watcher.next('commander.output', (f) => f.commander === created.id && f.chunk.includes('claude-md: present'), 15_000);
    expect(out.session).toBe(idle.commander.session);

    const queued = await phone.client.request({ type: 'commander.message', commander: created.id, text: 'FAKE:not-ready need the mailbox' });
    expect(queued.result).toMatchObject({ queued: expect.any(Number) });
    const waiting = await stateOf(phone.client, created.id, (c) => c.status === 'waiting');
    expect(waiting.commander.waitingFor).toBe('need the mailbox');
    // The waiting push is the home's, naming the labelled commander.
    const pushed = await pair.endpoint.waitFor((p) => p.subscription === phone.sub.id && (p.payload as { kind?: string }).kind === 'commander_waiting');
    expect(pushed.payload).toMatchObject({ title: 'laptop/Voice memos is waiting for you', data: { commander: created.id }, url: `/commander?id=${encodeURIComponent(created.id)}` });

    // A device that was away catches up with a read: the replay goes to it alone, labelled.
    const other = await connectDevice(pair.home, 'tablet');
    try {
      const before = watcher.received.length;
      const read = await other.request({ type: 'commander.output', commander: created.id });
      const text = other.received.filter((f) => f.type === 'commander.output' && f.commander === created.id).map((f) => f.chunk as string).join('');
      expect(text).toContain('echo: FAKE:not-ready need the mailbox');
      expect((read.result as { lastSeq: number }).lastSeq).toBeGreaterThan(0);
      expect(watcher.received.slice(before).filter((f) => f.type === 'commander.output')).toEqual([]);
    } finally {
      await other.close();
    }

    fs.mkdirSync(path.join(member.root, 'mail'));
    const added = await phone.client.request({ type: 'commander.addReference', commander: created.id, path: path.join(member.root, 'mail') });
    expect((added.result as { commander: CommanderView }).commander).toMatchObject({ id: created.id, referencePaths: [path.join(member.root, 'memos'), path.join(member.root, 'mail')] });
    // The member's allowed roots decide, not the home's.
    expect((await errorOf(phone.client.request({ type: 'commander.addReference', commander: created.id, path: '/etc' })))?.code).toBe('E_BAD_PATH');

    const replaced = await phone.client.request({ type: 'commander.replace', commander: created.id });
    expect((replaced.result as { commander: CommanderView }).commander.id).toBe(created.id);
    await stateOf(phone.client, created.id, (c) => c.status === 'idle');

    const deleted = await phone.client.request({ type: 'commander.delete', commander: created.id });
    expect(deleted.result).toEqual({ deleted: created.id });
    await watcher.next('commander.removed', (f) => f.commander === created.id);
    expect(fs.existsSync(path.join(member.dataDir, 'commanders', own))).toBe(false);
    const gone = await errorOf(phone.client.request({ type: 'commander.message', commander: created.id, text: 'hello?' }));
    expect(gone?.code).toBe('E_NOT_FOUND');
    // Recorded on the member: which home device did what.
    const audit = fs.readFileSync(path.join(member.dataDir, 'fleet', 'actions.jsonl'), 'utf8').trim().split('\n').map((l) => JSON.parse(l) as { type: string; name: string; commander?: string });
    expect(audit.filter((a) => a.type.startsWith('commander.')).map((a) => a.type)).toEqual(['commander.create', 'commander.message', 'commander.addReference', 'commander.addReference', 'commander.replace', 'commander.delete']);
  });

  it('FLEETX-5: a later subscriber gets member commanders after the home list; create names an unknown machine or a home commander never leaves the home', async () => {
    const { phone, machine, member } = pair;
    const { commander } = (await phone.client.request({ type: 'commander.create', name: 'Second', referencePath: path.join(member.root, 'memos'), machine })).result as { commander: CommanderView };
    const late = await connectDevice(pair.home, 'late');
    try {
      await late.request({ type: 'subscribe' });
      const list = await late.next('commander.list');
      expect(list.commanders.some((c) => c.id === commander.id)).toBe(false);
      await late.next('commander.state', (f) => f.commander.id === commander.id);
      const order = late.received.map((f) => f.type);
      expect(order.indexOf('commander.list')).toBeLessThan(order.lastIndexOf('commander.state'));
    } finally {
      await late.close();
    }
    expect((await errorOf(phone.client.request({ type: 'commander.create', name: 'x', referencePath: '/tmp', machine: 'm-0123456789abcdef' })))?.code).toBe('E_NOT_FOUND');
    // Without `machine` it is the home's own: checked against the home's roots, never sent to the member.
    expect((await errorOf(phone.client.request({ type: 'commander.create', name: 'x', referencePath: path.join(member.root, 'memos') })))?.code).toBe('E_BAD_PATH');
  });

  it('FLEETX-6: a hostile member cannot take over, stream into (or flood) or be sent another machine\'s commander; removal drops its commanders', async () => {
    const { phone, watcher, machine, member, prefix } = pair;
    const { commander } = (await phone.client.request({ type: 'commander.create', name: 'Laptop one', referencePath: path.join(member.root, 'memos'), machine })).result as { commander: CommanderView };
    await stateOf(watcher, commander.id, (c) => c.status === 'idle');
    const own = commander.id.slice(prefix.length + 1);
    const rogue = await handLink(pair, 'rogue', 'rogue-0000abcd');
    const view = (id: string, name: string) => ({ id, name, referencePaths: [], created: new Date().toISOString(), session: null, status: 'idle', waitingFor: null, adapter: 'fake' });
    rogue.send({ type: 'fleet.frame', frame: { type: 'commander.state', commander: view(commander.id, 'forged labelled') } });
    rogue.send({ type: 'fleet.frame', frame: { type: 'commander.output', commander: own, session: null, seq: 99, chunk: 'FORGED output' } });
    rogue.send({ type: 'fleet.frame', frame: { type: 'commander.removed', commander: own } });
    rogue.send({ type: 'fleet.frame', frame: { type: 'commander.state', commander: view(own, 'x'.repeat(80)) } });
    const shadow = await stateOf(watcher, `${rogue.prefix}.${own}`, () => true);
    expect(shadow.commander.name).toBe(`rogue/${'x'.repeat(74)}`);
    expect(watcher.received.some((f) => f.type === 'commander.output' && String(f.chunk).includes('FORGED'))).toBe(false);
    expect(watcher.received.some((f) => f.type === 'commander.removed' && f.commander === commander.id)).toBe(false);
    expect(watcher.received.some((f) => f.type === 'commander.state' && f.commander.name === 'forged labelled')).toBe(false);
    // A message to the laptop's commander goes to the laptop, never to the rogue.
    await phone.client.request({ type: 'commander.message', commander: commander.id, text: 'still yours' });
    expect(rogue.actions.filter((a) => a.type === 'fleet.action')).toEqual([]);
    // The rogue answering a replay request with another commander's output is ignored.
    const read = phone.client.request({ type: 'commander.output', commander: shadow.commander.id });
    await expect.poll(() => rogue.actions.filter((a) => a.type === 'fleet.action').length).toBe(1);
    const action = rogue.actions.find((a) => a.type === 'fleet.action')!;
    expect(action.frame).toMatchObject({ type: 'commander.output', commander: shadow.commander.id });
    rogue.send({ type: 'fleet.stream', rid: action.rid, frame: { type: 'commander.output', commander: 'c-someoneelse1', session: null, seq: 0, chunk: 'FORGED replay' } });
    rogue.send({ type: 'fleet.stream', rid: action.rid, frame: { type: 'commander.output', commander: own, session: null, seq: 0, chunk: 'rogue replay' } });
    // A replay larger than any relay keeps is cut at MAX_FORWARDED_REPLAY_CHARS.
    rogue.send({ type: 'fleet.stream', rid: action.rid, frame: { type: 'commander.output', commander: own, session: null, seq: 1, chunk: 'y'.repeat(MAX_FORWARDED_REPLAY_CHARS) } });
    rogue.send({ type: 'fleet.result', rid: action.rid, ok: true, result: { session: null, lastSeq: 0 } });
    await read;
    const replay = phone.client.received.filter((f) => f.type === 'commander.output' && f.commander === shadow.commander.id).map((f) => f.chunk);
    expect(replay).toEqual(['rogue replay']);
    // Offline: refused at once. Removed: its commanders leave every device.
    rogue.link.ws.close();
    await offline(watcher, rogue.machine);
    expect((await errorOf(phone.client.request({ type: 'commander.message', commander: shadow.commander.id, text: 'hi' })))?.code).toBe('E_UNAVAILABLE');
    expect((await errorOf(phone.client.request({ type: 'commander.create', name: 'x', referencePath: '/tmp', machine: rogue.machine })))?.code).toBe('E_UNAVAILABLE');
    removeMachine(pair.home.dataDir, rogue.machine);
    await watcher.next('commander.removed', (f) => f.commander === shadow.commander.id);
    expect((await errorOf(phone.client.request({ type: 'commander.message', commander: shadow.commander.id, text: 'hi' })))?.code).toBe('E_NOT_FOUND');
  });
});
