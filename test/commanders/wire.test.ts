// Commanders over the real socket: a paired device starts, talks to, catches up
// with and deletes a commander; the relay runs the fake adapter for real.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { CommanderView } from '../../protocol/wire/views';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { startRelayFixture, type RelayFixture } from './relay-fixture';

let fx: RelayFixture;
let phone: DeviceClient;
beforeEach(async () => {
  fx = await startRelayFixture();
  phone = await connectDevice(fx.relay);
});
afterEach(async () => {
  await phone.close();
  await fx.cleanup();
});

const stateOf = (id: string, check: (c: CommanderView) => boolean) =>
  phone.next('commander.state', (f) => f.commander.id === id && check(f.commander), 15_000);

describe('commanders over the socket (fake adapter)', () => {
  it('CMDR-LIST-1: subscribe is followed by commander.list carrying the allowed roots', async () => {
    await phone.request({ type: 'subscribe' });
    const list = await phone.next('commander.list');
    expect(list.allowedRoots).toEqual([fx.root]);
    expect(list.commanders).toEqual([]);
  });

  it('CMDR-WIRE-1: create, stream, message, catch up, add a reference, delete — each answered with an ack', async () => {
    const ack = await phone.request({ type: 'commander.create', name: 'Voice memos', referencePath: path.join(fx.root, 'memos') });
    const created = (ack.result as { commander: CommanderView }).commander;
    expect(created.status).toBe('starting');
    const idle = await stateOf(created.id, (c) => c.status === 'idle');
    expect(idle.commander.session).toMatch(/^[0-9a-f-]{36}$/);
    const out = await phone.next('commander.output', (f) => f.commander === created.id && f.chunk.includes('claude-md: present'));
    expect(out.session).toBe(idle.commander.session);

    await phone.request({ type: 'commander.message', commander: created.id, text: 'FAKE:not-ready need the mailbox' });
    const waiting = await stateOf(created.id, (c) => c.status === 'waiting');
    expect(waiting.commander.waitingFor).toBe('need the mailbox');

    // A second phone that was away catches up with a read.
    const other = await connectDevice(fx.relay, 'tablet');
    try {
      const read = await other.request({ type: 'commander.output', commander: created.id });
      const text = other.received.filter((f) => f.type === 'commander.output').map((f) => f.chunk as string).join('');
      expect(text).toContain('echo: FAKE:not-ready need the mailbox');
      expect((read.result as { lastSeq: number }).lastSeq).toBeGreaterThan(0);
    } finally {
      await other.close();
    }

    fs.mkdirSync(path.join(fx.root, 'mail'));
    const added = await phone.request({ type: 'commander.addReference', commander: created.id, path: path.join(fx.root, 'mail') });
    expect((added.result as { commander: CommanderView }).commander.referencePaths).toHaveLength(2);

    await phone.request({ type: 'commander.delete', commander: created.id });
    await phone.next('commander.removed', (f) => f.commander === created.id);
    expect(fs.existsSync(path.join(fx.dataDir, 'commanders', created.id))).toBe(false);
  });

  it('CMDR-REF-1: hostile reference paths over the wire are refused with E_BAD_PATH and create nothing', async () => {
    fs.symlinkSync('/', path.join(fx.root, 'slash'));
    for (const referencePath of [`${fx.root}/../..`, path.join(fx.root, 'slash'), '/etc', 'relative/dir']) {
      await expect(phone.request({ type: 'commander.create', name: 'x', referencePath })).rejects.toMatchObject({ code: 'E_BAD_PATH' });
    }
    expect(fs.readdirSync(path.join(fx.dataDir, 'commanders'))).toEqual([]);
    await expect(phone.request({ type: 'commander.message', commander: 'c-doesnotexist', text: 'hi' })).rejects.toMatchObject({ code: 'E_NOT_FOUND' });
    await expect(phone.request({ type: 'commander.delete', commander: '../../etc' })).rejects.toMatchObject({ code: 'E_BAD_ID' });
  });

  it('CMDR-DEAD-1: a killed turn shows dead on the phone; replace brings a new session in the same directory', async () => {
    const ack = await phone.request({ type: 'commander.create', name: 'hang', referencePath: path.join(fx.root, 'memos') });
    const { id } = (ack.result as { commander: CommanderView }).commander;
    const first = await stateOf(id, (c) => c.status === 'idle');
    await phone.request({ type: 'commander.message', commander: id, text: 'FAKE:hang' });
    await phone.next('commander.output', (f) => f.commander === id && f.chunk.includes('hanging'));
    process.kill(Number(fs.readFileSync(path.join(fx.dataDir, 'commander-logs', `${id}.pid`), 'utf8')), 'SIGKILL');
    await stateOf(id, (c) => c.status === 'dead');
    await expect(phone.request({ type: 'commander.message', commander: id, text: 'hi' })).rejects.toMatchObject({ code: 'E_CONFLICT' });
    await phone.request({ type: 'commander.replace', commander: id });
    const next = await stateOf(id, (c) => c.status === 'idle' && c.session !== null);
    expect(next.commander.session).not.toBe(first.commander.session);
  });

  it('CMDR-RELOAD-1: after a relay restart the commander is listed again from its directory', async () => {
    const ack = await phone.request({ type: 'commander.create', name: 'kept', referencePath: path.join(fx.root, 'memos') });
    const { id } = (ack.result as { commander: CommanderView }).commander;
    const idle = await stateOf(id, (c) => c.status === 'idle');
    await phone.close();
    await fx.restart();
    phone = await connectDevice(fx.relay);
    await phone.request({ type: 'subscribe' });
    const list = await phone.next('commander.list');
    expect(list.commanders).toEqual([expect.objectContaining({ id, name: 'kept', status: 'idle', session: idle.commander.session })]);
  });
  it('CMDR-RELOAD-1: a relay stopped mid-turn comes back with that commander idle on its recorded session, not dead', async () => {
    const ack = await phone.request({ type: 'commander.create', name: 'busy', referencePath: path.join(fx.root, 'memos') });
    const { id } = (ack.result as { commander: CommanderView }).commander;
    const idle = await stateOf(id, (c) => c.status === 'idle');
    await phone.request({ type: 'commander.message', commander: id, text: 'FAKE:hang' });
    await phone.next('commander.output', (f) => f.commander === id && f.chunk.includes('hanging'));
    await phone.close();
    await fx.restart();
    expect(fs.readdirSync(path.join(fx.dataDir, 'commander-logs')).filter((f) => f.endsWith('.pid'))).toEqual([]);
    phone = await connectDevice(fx.relay);
    await phone.request({ type: 'subscribe' });
    const list = await phone.next('commander.list');
    expect(list.commanders).toEqual([expect.objectContaining({ id, status: 'idle', session: idle.commander.session })]);
    await phone.request({ type: 'commander.message', commander: id, text: 'after the restart' });
    await phone.next('commander.output', (f) => f.commander === id && f.chunk.includes('echo: after the restart'));
  });
});
