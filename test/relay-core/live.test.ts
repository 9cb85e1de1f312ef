import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { LiveEvent } from '../../protocol/live-events';
import { LiveStore } from '../../relay/live/store';
import { connectDevice } from '../helpers/device';
import { cleanup, startRelay } from './setup';

afterEach(cleanup);

const event = (over: Partial<LiveEvent> = {}): LiveEvent => ({ v: 1, session: 's-1', kind: 'edit', summary: 'edited a.ts', file: 'a.ts', ...over });

function post(url: string, body: unknown, token?: string) {
  return fetch(`${url}/api/events`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

describe('live events', () => {
  it('LIVE-1: the hook credential is a 0600 file in the data dir, kept across restarts', async () => {
    const relay = await startRelay();
    const file = path.join(relay.dataDir, 'hook-token');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    const token = fs.readFileSync(file, 'utf8');
    const again = await relay.restart();
    expect(fs.readFileSync(path.join(again.dataDir, 'hook-token'), 'utf8')).toBe(token);
  });

  it('LIVE-2: POST /api/events without or with a wrong credential is 401 E_UNAUTHORIZED and not broadcast', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay);
    for (const token of [undefined, 'wrong-token', `${fs.readFileSync(path.join(relay.dataDir, 'hook-token'), 'utf8').trim()}x`]) {
      const res = await post(relay.url, event(), token);
      expect(res.status).toBe(401);
      expect(((await res.json()) as { error: { code: string } }).error.code).toBe('E_UNAUTHORIZED');
    }
    await phone.request({ type: 'device.list' });
    expect(phone.received.some((f) => f.type === 'live.event')).toBe(false);
    expect(relay.services.live.sessionIds()).toEqual([]);
  });

  it('LIVE-3: a valid event is stored and broadcast as an ephemeral live.event to every client', async () => {
    const relay = await startRelay();
    const a = await connectDevice(relay);
    const b = await connectDevice(relay);
    const token = fs.readFileSync(path.join(relay.dataDir, 'hook-token'), 'utf8').trim();
    const res = await post(relay.url, event({ running: true, cmd: 'npm test' }), token);
    expect(res.status).toBe(202);
    for (const client of [a, b]) {
      const frame = await client.next('live.event');
      expect(frame.event).toEqual(event({ running: true, cmd: 'npm test' }));
      expect(Date.parse(frame.at)).not.toBeNaN();
    }
    expect(relay.services.live.recent('s-1')).toHaveLength(1);
  });

  it('LIVE-4: an invalid event is E_BAD_FRAME naming the field; an oversized body E_TOO_LARGE', async () => {
    const relay = await startRelay();
    const token = fs.readFileSync(path.join(relay.dataDir, 'hook-token'), 'utf8').trim();
    const bad = await post(relay.url, { ...event(), kind: 'hack' }, token);
    expect(bad.status).toBe(400);
    expect(((await bad.json()) as { error: { message: string } }).error.message).toMatch(/kind/);
    expect((await post(relay.url, '{oops', token)).status).toBe(400);
    const big = await post(relay.url, event({ detail: 'x'.repeat(100_000) }), token);
    expect(big.status).toBe(413);
  });

  it('LIVE-5: the store keeps at most 500 events per session and 200 sessions, dropping the oldest', () => {
    const store = new LiveStore();
    for (let i = 0; i < 600; i++) store.record(event({ summary: `e${i}` }));
    expect(store.recent('s-1')).toHaveLength(500);
    expect(store.recent('s-1')[0]!.event.summary).toBe('e100');
    for (let i = 0; i < 250; i++) store.record(event({ session: `other-${i}` }));
    expect(store.sessionIds()).toHaveLength(200);
    expect(store.recent('s-1')).toEqual([]);
    expect(store.sessionIds()).toContain('other-249');
  });

  it('LIVE-6: a client that stops reading loses ephemeral frames and is told with relay.lagged', async () => {
    const relay = await startRelay();
    const slow = await connectDevice(relay);
    const raw = (slow.ws as unknown as { _socket: { pause(): void; resume(): void } })._socket;
    raw.pause();
    const total = 600;
    const detail = 'x'.repeat(16_000);
    for (let i = 0; i < total; i++) {
      relay.services.broadcast({ type: 'live.event', at: new Date().toISOString(), event: event({ summary: `e${i}`, detail }) }, undefined, { ephemeral: true });
    }
    raw.resume();
    const lagged = await slow.next('relay.lagged', undefined, 20_000);
    expect(lagged.dropped).toBeGreaterThan(0);
    const delivered = slow.received.filter((f) => f.type === 'live.event').length;
    expect(delivered + lagged.dropped).toBe(total);
    await slow.request({ type: 'device.list' });
  });
});
