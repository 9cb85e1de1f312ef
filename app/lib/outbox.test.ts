// The outbox over real IndexedDB semantics (fake-indexeddb), a real socket and a
// stand-in relay that applies each (device, id) once.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { IDBFactory } from 'fake-indexeddb';
import 'fake-indexeddb/auto';
import { WebSocket as NodeWebSocket } from 'ws';
import { resetDbForTests } from './db';
import { createDeviceKey } from './device-key';
import { Outbox, type OutboxItem } from './outbox';
import { newActionId, type Signer } from './sign';
import { RelayConnection } from './socket';
import { startStandInRelay, type StandInRelay } from './testing/stand-in-relay';

let relay: StandInRelay;
let signer: Signer;
let conn: RelayConnection;

async function until(check: () => boolean, what: string, ms = 20_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 10));
  }
}

const annotate = (body: string) => ({
  type: 'task.annotate' as const, id: newActionId(), repo: 'demo-0123abcd', task: 'T-1', turn: 0, anchor: 'general', body,
});

function makeOutbox(changes: OutboxItem[][] = []) {
  return new Outbox({ signer: async () => signer, send: (frame) => conn.request(frame), onChange: (items) => changes.push(items) });
}

beforeEach(async () => {
  globalThis.indexedDB = new IDBFactory();
  resetDbForTests();
  relay = await startStandInRelay();
  const key = await createDeviceKey();
  signer = { deviceId: 'dev-1', privateKey: key.privateKey };
  relay.addDevice('dev-1', key.publicJwk);
  conn = new RelayConnection({
    url: relay.url, signer: async () => signer, cursors: () => ({}), onFrame: () => undefined, onState: () => undefined,
    WebSocketImpl: NodeWebSocket as never, backoff: { baseMs: 20, maxMs: 100 },
  });
});
afterEach(async () => {
  conn.stop();
  await relay.close();
});

describe('Outbox', () => {
  it('APP-4: actions taken offline are stored, shown as queued, and applied exactly once in order when back', async () => {
    const changes: OutboxItem[][] = [];
    const outbox = makeOutbox(changes);
    const first = await outbox.sendNow(annotate('one'));
    const second = await outbox.sendNow(annotate('two'));
    expect(first).toMatchObject({ status: 'queued', error: { code: 'E_OFFLINE' } });
    expect(second.status).toBe('queued');
    expect((await outbox.list()).map((i) => i.action)).toMatchObject([{ body: 'one' }, { body: 'two' }]);

    // A new Outbox over the same database (a reload) still has them.
    const reloaded = makeOutbox();
    conn.start();
    await until(() => conn.state === 'live', 'live');
    await Promise.all([reloaded.flush(), reloaded.flush(), outbox.flush()]);
    expect(relay.applied.map((a) => (a.type === 'task.annotate' ? a.body : ''))).toEqual(['one', 'two']);
    expect(await reloaded.list()).toEqual([]);
    expect(changes.at(-1)).toEqual([]);
  });

  it('APP-4: when the answer is lost the retry reuses the id with a fresh signature, and the relay applies it once', async () => {
    const outbox = makeOutbox();
    conn.start();
    await until(() => conn.state === 'live', 'live');
    let drops = 1;
    relay.handle = () => {
      if (drops-- > 0) relay.dropAll(); // applied, but the socket dies before the ack is written
      return { seq: 1 };
    };
    const action = annotate('lost answer');
    const outcome = await outbox.sendNow(action);
    expect(outcome.status).toBe('queued');
    await until(() => conn.state === 'live', 'live again');
    await outbox.flush();
    expect(await outbox.list()).toEqual([]);
    expect(relay.applied).toHaveLength(1);
    const sent = relay.received.filter((f) => f.type === 'task.annotate');
    expect(sent.length).toBeGreaterThanOrEqual(1);
    expect(new Set(sent.map((f) => f.id))).toEqual(new Set([action.id]));
  });

  it('APP-5: an approval refused as E_STALE_DIGEST while queued is kept and shown as refused, not dropped', async () => {
    const outbox = makeOutbox();
    const approve = {
      type: 'task.approve' as const, id: newActionId(), repo: 'demo-0123abcd', task: 'T-1', digest: `sha256:${'a'.repeat(64)}`,
    };
    expect((await outbox.sendNow(approve)).status).toBe('queued');
    relay.handle = () => {
      throw { code: 'E_STALE_DIGEST', message: 'digest changed' };
    };
    conn.start();
    await until(() => conn.state === 'live', 'live');
    await outbox.flush();
    const [item] = await outbox.list();
    expect(item).toMatchObject({ id: approve.id, status: 'refused', error: { code: 'E_STALE_DIGEST' } });
    await outbox.flush(); // a refused item is not re-sent by itself
    expect(relay.received.filter((f) => f.type === 'task.approve')).toHaveLength(1);
    await outbox.dismiss(approve.id);
    expect(await outbox.list()).toEqual([]);
  });

  it('UX-9: an action refused while the person waits on it is answered to them once and leaves the outbox (nothing to retry)', async () => {
    const outbox = makeOutbox();
    relay.handle = () => {
      throw { code: 'E_CONFLICT', message: 'task T-1 is still in the inbox' };
    };
    conn.start();
    await until(() => conn.state === 'live', 'live');
    const outcome = await outbox.sendNow({ type: 'task.council' as const, id: newActionId(), repo: 'demo-0123abcd', task: 'T-1' });
    expect(outcome).toMatchObject({ status: 'refused', error: { code: 'E_CONFLICT', message: 'task T-1 is still in the inbox' } });
    expect(await outbox.list()).toEqual([]);
  });

  it('APP-4: an action sent while live resolves with the relay result at once', async () => {
    const outbox = makeOutbox();
    relay.handle = () => ({ written: true });
    conn.start();
    await until(() => conn.state === 'live', 'live');
    await expect(outbox.sendNow(annotate('now'))).resolves.toEqual({ status: 'applied', result: { written: true } });
  });
});
