import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { authMessage } from '../../protocol/wire/signing';
import { connectDevice, newKeyPair, openSocket, pairDevice, sign, wsUrl } from '../helpers/device';
import { cleanup, startRelay } from './setup';

afterEach(cleanup);

describe('socket authentication', () => {
  it('AUTH-1 PAIR-1: a paired device authenticates and lists devices', async () => {
    const relay = await startRelay();
    const phone = await connectDevice(relay, 'phone');
    const ack = await phone.request({ type: 'device.list' });
    const { devices } = ack.result as { devices: { id: string; name: string; current: boolean }[] };
    expect(devices).toEqual([expect.objectContaining({ id: phone.device!.id, name: 'phone', current: true })]);
    await phone.close();
  });

  it('AUTH-2: a frame other than auth.response before auth.ok is refused and the socket closed', async () => {
    const relay = await startRelay();
    const client = await openSocket(relay, undefined);
    await client.next('auth.challenge');
    client.send({ type: 'device.list', id: 'abcdefgh1' });
    const error = await client.next('error');
    expect(error.error.code).toBe('E_UNAUTHORIZED');
    expect((await client.closed).code).toBe(1008);
    expect(client.received.map((f) => f.type)).toEqual(['auth.challenge', 'error']);
  });

  it('AUTH-3: a bad signature is refused', async () => {
    const relay = await startRelay();
    const device = await pairDevice(relay);
    const other = newKeyPair();
    const client = await openSocket(relay, undefined);
    const { nonce } = await client.next('auth.challenge');
    client.send({ type: 'auth.response', device: device.id, sig: sign(other.privateKey, authMessage(nonce)) });
    expect((await client.next('error')).error.code).toBe('E_UNAUTHORIZED');
    expect((await client.closed).code).toBe(1008);
  });

  it('AUTH-3: an unknown device id is refused', async () => {
    const relay = await startRelay();
    const keys = newKeyPair();
    const client = await openSocket(relay, undefined);
    const { nonce } = await client.next('auth.challenge');
    client.send({ type: 'auth.response', device: 'd-0000000000000000', sig: sign(keys.privateKey, authMessage(nonce)) });
    expect((await client.next('error')).error.code).toBe('E_UNAUTHORIZED');
  });

  it('AUTH-4: a replayed challenge answer is refused on a new socket', async () => {
    const relay = await startRelay();
    const device = await pairDevice(relay);
    const first = await openSocket(relay, undefined);
    const { nonce } = await first.next('auth.challenge');
    const answer = { type: 'auth.response', device: device.id, sig: sign(device.privateKey, authMessage(nonce)) };
    first.send(answer);
    await first.next('auth.ok');
    const second = await openSocket(relay, undefined);
    await second.next('auth.challenge');
    second.send(answer);
    expect((await second.next('error')).error.code).toBe('E_UNAUTHORIZED');
    expect((await second.closed).code).toBe(1008);
    // and the first socket cannot authenticate twice
    first.send(answer);
    expect((await first.next('error')).error.code).toBe('E_BAD_FRAME');
    await first.close();
  });

  it('ORIGIN-1: a socket from another origin is refused at upgrade', async () => {
    const relay = await startRelay();
    await expect(openSocket(relay, undefined, { origin: 'https://evil.example' })).rejects.toThrow(/upgrade refused: 403/);
    await expect(openSocket(relay, undefined, { origin: 'http://127.0.0.1:1' })).rejects.toThrow(/upgrade refused: 403/);
  });

  it('ORIGIN-2: the relay origin, its Host as an IP literal, and --public-origin are accepted', async () => {
    const relay = await startRelay({ publicOrigin: 'https://relay.example' });
    const device = await pairDevice(relay);
    for (const origin of [relay.url, 'https://relay.example']) {
      const c = await openSocket(relay, device, { origin });
      await c.close();
    }
    await expect(openSocket(relay, device, { origin: 'http://relay.example' })).rejects.toThrow(/403/);
  });

  it('ORIGIN-3: a client with no Origin (not a browser) may connect but must still authenticate', async () => {
    const relay = await startRelay();
    const device = await pairDevice(relay);
    const c = await openSocket(relay, device, { origin: null });
    await c.request({ type: 'device.list' });
    await c.close();
  });

  it('AUTH-6: a socket that never answers the challenge is closed', async () => {
    const relay = await startRelay({ authTimeoutMs: 300 });
    const ws = new WebSocket(wsUrl(relay));
    const closed = new Promise<number>((resolve) => ws.once('close', (code) => resolve(code)));
    expect(await closed).toBe(1008);
  });
});

describe('liveness and paths', () => {
  it('AUTH-6: a socket that stops answering pings is terminated', async () => {
    const relay = await startRelay({ heartbeatMs: 100 });
    const phone = await connectDevice(relay);
    (phone.ws as unknown as { _socket: { pause(): void } })._socket.pause();
    const deadline = Date.now() + 5000;
    while (relay.services.clients().length > 0 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
    expect(relay.services.clients()).toHaveLength(0);
  });

  it('WIRE-7: the socket is at /ws; an upgrade elsewhere is refused with 404', async () => {
    const relay = await startRelay();
    const ws = new WebSocket(`${relay.url.replace('http', 'ws')}/socket`);
    ws.on('error', () => undefined);
    const status = await new Promise<number>((resolve) =>
      ws.once('unexpected-response', (req, res) => {
        resolve(res.statusCode ?? 0);
        req.destroy();
      }),
    );
    expect(status).toBe(404);
  });
});
