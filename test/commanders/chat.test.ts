// CHAT-7 and SANDBOX-WARN-1 against a real relay running the fake adapter: a tool event its
// commander's turn posts to POST /api/events becomes a tool line of the conversation; the
// commander's view says whether its turns run in the sandbox.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseConversation } from '../../protocol/commander-transcript';
import type { CommanderView } from '../../protocol/wire/views';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { FAKE_ADAPTER_DIR, startRelayFixture, type RelayFixture } from './relay-fixture';
import { createRelay } from '../../relay/server';

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

async function postLive(event: Record<string, unknown>): Promise<void> {
  const token = fs.readFileSync(path.join(fx.dataDir, 'hook-token'), 'utf8').trim();
  const res = await fetch(`${fx.relay.url}/api/events`, {
    method: 'POST', headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' }, body: JSON.stringify({ v: 1, ...event }),
  });
  expect(res.status).toBe(202);
}

const conversation = async (id: string) => {
  const other = await connectDevice(fx.relay, 'reader');
  try {
    await other.request({ type: 'commander.output', commander: id });
    return parseConversation(other.received.filter((f) => f.type === 'commander.output').map((f) => f.chunk as string).join(''));
  } finally {
    await other.close();
  }
};

describe('a commander\'s tool activity in its conversation', () => {
  it('CHAT-7: a completed tool event of the commander\'s running turn becomes one tool line; in flight, of another agent or between turns, none', async () => {
    const ack = await phone.request({ type: 'commander.create', name: 'Tools', referencePath: path.join(fx.root, 'memos') });
    const created = (ack.result as { commander: CommanderView }).commander;
    await phone.next('commander.state', (f) => f.commander.id === created.id && f.commander.status === 'idle', 15_000);
    const agent = `commander-${created.id}`;
    // Between turns: nothing is running that it could belong to.
    await postLive({ session: 's1', kind: 'read', summary: 'Read early.md', file: 'early.md', agent, ok: true });

    await phone.request({ type: 'commander.message', commander: created.id, text: 'Run the tests. FAKE:hang' });
    await phone.next('commander.output', (f) => f.commander === created.id && f.chunk.includes('echo: Run the tests.'), 15_000);
    await postLive({ session: 's1', kind: 'test', summary: 'npm test', cmd: 'npm test', agent, running: true });
    await postLive({ session: 's1', kind: 'test', summary: 'npm test', cmd: 'npm test', agent: 'commander-c-someoneelse', ok: true });
    await postLive({ session: 's1', kind: 'test', summary: 'npm test', cmd: 'npm test', detail: '12 passed, 0 failed', agent, ok: true });
    await phone.next('commander.output', (f) => f.commander === created.id && f.chunk.includes('Ran npm test'), 15_000);

    const tools = (await conversation(created.id)).filter((e) => e.kind === 'tool');
    expect(tools).toEqual([{ kind: 'tool', summary: 'Ran npm test', detail: '12 passed, 0 failed' }]);
  });

  it('CHAT-1: the first message given at Start is the person\'s first message in the conversation, before the answer to it', async () => {
    const ack = await phone.request({ type: 'commander.create', name: 'Greeter', referencePath: path.join(fx.root, 'memos'), message: 'Hello there' });
    const created = (ack.result as { commander: CommanderView }).commander;
    await phone.next('commander.state', (f) => f.commander.id === created.id && f.commander.status === 'idle', 15_000);
    const entries = await conversation(created.id);
    expect(entries[0]).toEqual({ kind: 'person', text: 'Hello there' });
    expect(entries[1]?.kind).toBe('commander');
  });

  it('SANDBOX-WARN-1: a relay that runs commander turns in the sandbox says so on every commander view (the phone shows no warning)', async () => {
    const ack = await phone.request({ type: 'commander.create', name: 'Boxed', referencePath: path.join(fx.root, 'memos') });
    expect((ack.result as { commander: CommanderView }).commander.sandbox).toBe('on');
    await phone.request({ type: 'subscribe' });
    const list = await phone.next('commander.list');
    expect(list.commanders.map((c) => c.sandbox)).toEqual(['on']);
  });

  it('SANDBOX-WARN-1: with --no-sandbox every commander view says its turns run unsandboxed', async () => {
    const dataDir = path.join(fx.tmp, 'off-data');
    fs.mkdirSync(path.join(dataDir, 'adapters'), { recursive: true });
    fs.symlinkSync(FAKE_ADAPTER_DIR, path.join(dataDir, 'adapters', 'fake'));
    const relay = await createRelay({ port: 0, host: '127.0.0.1', dataDir, repos: [], registryFile: path.join(fx.tmp, 'no-registry'), demo: false, allowRoots: [fx.root], appDir: path.join(fx.tmp, 'no-app'), sandbox: false });
    const device = await connectDevice(relay);
    try {
      const ack = await device.request({ type: 'commander.create', name: 'Loose', referencePath: path.join(fx.root, 'memos') });
      expect((ack.result as { commander: CommanderView }).commander.sandbox).toBe('off');
      const state = await device.next('commander.state', (f) => f.commander.status === 'idle', 15_000);
      expect(state.commander.sandbox).toBe('off');
    } finally {
      await device.close();
      await relay.close();
    }
  });
});
