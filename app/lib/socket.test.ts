// RelayConnection against a real `ws` server speaking the relay's auth and answer rules.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { WebSocket as NodeWebSocket } from 'ws';
import { createDeviceKey } from './device-key';
import { backoffDelay, RelayConnection, type ConnectionState } from './socket';
import { startStandInRelay, type StandInRelay } from './testing/stand-in-relay';
import type { Signer } from './sign';
import type { ServerFrame } from '../../protocol/wire/frames';

let relay: StandInRelay;
let signer: Signer;
let conn: RelayConnection | null = null;

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

function connect(overrides: { signer?: Signer | null } = {}) {
  const states: ConnectionState[] = [];
  const frames: ServerFrame[] = [];
  const cursors = { 'demo-0123abcd': { offset: 42, epoch: '1:2' } };
  conn = new RelayConnection({
    url: relay.url,
    signer: async () => ('signer' in overrides ? overrides.signer! : signer),
    cursors: () => cursors,
    onFrame: (f) => frames.push(f),
    onState: (s) => states.push(s),
    WebSocketImpl: NodeWebSocket as never,
    backoff: { baseMs: 20, maxMs: 100 },
  });
  conn.start();
  return { conn, states, frames, cursors };
}

beforeEach(async () => {
  relay = await startStandInRelay();
  const key = await createDeviceKey();
  signer = { deviceId: 'dev-1', privateKey: key.privateKey };
  relay.addDevice('dev-1', key.publicJwk);
});
afterEach(async () => {
  conn?.stop();
  conn = null;
  await relay.close();
});

describe('RelayConnection', () => {
  it('APP-2: answers the challenge with the device signature, goes live and subscribes with the stored cursors', async () => {
    const { conn, states, frames } = connect();
    await until(() => conn.state === 'live', 'live');
    // It starts as "connecting" (nothing known yet, like the store), so the first change is to live.
    expect(states).toEqual(['live']);
    expect(frames[0]?.type).toBe('auth.ok');
    await until(() => relay.received.some((f) => f.type === 'subscribe'), 'subscribe');
    expect(relay.received[0]).toMatchObject({ type: 'subscribe', cursors: { 'demo-0123abcd': { offset: 42, epoch: '1:2' } } });
  });

  it('APP-2: a device the relay does not know ends up unpaired and stops retrying', async () => {
    const stranger = await createDeviceKey();
    const { conn, states } = connect({ signer: { deviceId: 'dev-x', privateKey: stranger.privateKey } });
    await until(() => conn.state === 'unpaired', 'unpaired');
    const count = states.length;
    await new Promise((r) => setTimeout(r, 150)); // longer than the whole backoff cap: no reconnect may follow
    expect(states.length).toBe(count);
    expect(relay.sockets()).toHaveLength(0);
  });

  it('APP-7: after the socket drops it reconnects with backoff, re-authenticates and resubscribes from the newest cursors', async () => {
    const { conn, states, cursors } = connect();
    await until(() => conn.state === 'live', 'live');
    // Live comes with the auth answer; the first subscribe may still be in flight, and a drop
    // before the relay reads it would lose it: wait for it, so the one after the drop is the second.
    const subscribes = () => relay.received.filter((f) => f.type === 'subscribe').length;
    await until(() => subscribes() === 1, 'first subscribe');
    cursors['demo-0123abcd'] = { offset: 99, epoch: '1:2' };
    relay.dropAll();
    await until(() => states.includes('reconnecting'), 'reconnecting');
    await until(() => conn.state === 'live' && subscribes() >= 2, 'second subscribe');
    expect(relay.received.filter((f) => f.type === 'subscribe').at(-1)).toMatchObject({ cursors: { 'demo-0123abcd': { offset: 99 } } });
  });

  it('APP-7: backoff doubles, is capped, and is jittered between half and all of the step', () => {
    const b = { baseMs: 500, maxMs: 15_000 };
    expect(backoffDelay(1, b, 1)).toBe(500);
    expect(backoffDelay(3, b, 1)).toBe(2000);
    expect(backoffDelay(30, b, 1)).toBe(15_000);
    expect(backoffDelay(30, b, 0)).toBe(7_500);
  });

  it('APP-8: going offline closes the socket at once and fails requests with E_OFFLINE; online reconnects', async () => {
    const { conn } = connect();
    await until(() => conn.state === 'live', 'live');
    conn.setNetwork(false);
    expect(conn.state).toBe('offline');
    await expect(conn.request({ type: 'device.list', id: conn.readId() })).rejects.toMatchObject({ code: 'E_OFFLINE' });
    conn.setNetwork(true);
    await until(() => conn.state === 'live', 'live again');
    await expect(conn.request({ type: 'device.list', id: conn.readId() })).resolves.toBeNull();
  });

  it('APP-8: while the browser says it is offline the connection keeps retrying, so a relay on localhost or the LAN still goes live', async () => {
    const { conn, states } = connect();
    await until(() => conn.state === 'live', 'live');
    conn.setNetwork(false);
    expect(conn.state).toBe('offline');
    // navigator.onLine is still false, yet the relay answers: the socket, not the hint, decides.
    await until(() => conn.state === 'live', 'live while the browser reports offline');
    expect(states.slice(states.lastIndexOf('offline'))).toEqual(['offline', 'live']);
  });

  it('APP-6: junk and unknown frames from the relay are ignored and never break the connection', async () => {
    const { conn, frames } = connect();
    await until(() => conn.state === 'live', 'live');
    for (const ws of relay.sockets()) {
      ws.send('not json');
      ws.send(JSON.stringify({ type: 'from.the.future', x: 1 }));
      ws.send(JSON.stringify({ type: 'repo.snapshot', nonsense: true }));
    }
    await until(() => conn.ignoredFrames === 3, 'three ignored frames');
    expect(frames.map((f) => f.type)).toEqual(['auth.ok']);
    await expect(conn.request({ type: 'device.list', id: conn.readId() })).resolves.toBeNull();
  });
});
