// AUTH-7: what a socket may do before it authenticates is bounded — how many wait at once and how
// much each may send — and a socket refused or timed out is cut if it does not finish closing.
// Raw TCP peers against a real relay: the hostile ones a WebSocket library would not let us be.
import * as crypto from 'node:crypto';
import * as net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PREAUTH_BYTES, PREAUTH_SOCKETS } from '../../relay/clients/socket';
import { connectDevice } from '../helpers/device';
import { cleanup, startRelay, type TestRelay } from './setup';

afterEach(cleanup);

interface Raw { socket: net.Socket; status: number; closed: Promise<void> }
const opened: net.Socket[] = [];
afterEach(() => {
  for (const s of opened.splice(0)) s.destroy();
});

/** Upgrades GET /ws over a plain TCP socket (no Origin: not a browser); resolves with the answer's status. */
function upgrade(relay: TestRelay): Promise<Raw> {
  const { port } = new URL(relay.url);
  const socket = net.connect(Number(port), '127.0.0.1');
  opened.push(socket);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  socket.on('error', () => {});
  socket.write(`GET /ws HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: ${crypto.randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`);
  return new Promise((resolve, reject) => {
    let head = '';
    const onData = (chunk: Buffer) => {
      head += chunk.toString('latin1');
      const status = /^HTTP\/1\.1 (\d{3})/.exec(head);
      if (status && head.includes('\r\n\r\n')) {
        socket.off('data', onData);
        resolve({ socket, status: Number(status[1]), closed });
      }
    };
    socket.on('data', onData);
    socket.once('close', () => reject(new Error(`closed before an answer: ${JSON.stringify(head.slice(0, 200))}`)));
  });
}

/** A masked text frame's header announcing `length` bytes (a client's frames are masked). */
function frameHeader(length: number): Buffer {
  const head = Buffer.alloc(14);
  head[0] = 0x81;
  head[1] = 0x80 | 127;
  head.writeBigUInt64BE(BigInt(length), 2);
  crypto.randomBytes(4).copy(head, 10);
  return head;
}

describe('before authentication', () => {
  it(`AUTH-7: a socket that sends more than ${PREAUTH_BYTES} bytes before it authenticates is cut at once, long before the auth timeout`, async () => {
    const relay = await startRelay({ authTimeoutMs: 60_000 });
    const raw = await upgrade(relay);
    expect(raw.status).toBe(101);
    raw.socket.write(frameHeader(4 * 1024 * 1024 - 16));
    // A start of a 4 MiB frame, which the relay would hold until its end came.
    for (let sent = 0; sent <= PREAUTH_BYTES && !raw.socket.destroyed; sent += 16 * 1024) raw.socket.write(Buffer.alloc(16 * 1024, 0x61));
    const started = Date.now();
    await raw.closed;
    expect(Date.now() - started).toBeLessThan(30_000); // not ws's own 30 s close timeout, nor the 60 s auth timeout
  });

  it(`AUTH-7: at most ${PREAUTH_SOCKETS} sockets wait to authenticate; the next upgrade is refused 429 until one goes, and a device still connects after`, async () => {
    const relay = await startRelay({ authTimeoutMs: 60_000 });
    const waiting: Raw[] = [];
    for (let k = 0; k < PREAUTH_SOCKETS; k++) waiting.push(await upgrade(relay));
    expect(waiting.every((w) => w.status === 101)).toBe(true);
    expect((await upgrade(relay)).status).toBe(429);
    waiting[0]!.socket.destroy();
    await waiting[0]!.closed;
    await expect.poll(async () => (await upgrade(relay)).status).toBe(101);
    for (const w of waiting) w.socket.destroy();
    await Promise.all(waiting.map((w) => w.closed));
    // Authenticated sockets are not counted, and once authenticated a socket may send a big frame.
    await expect.poll(async () => {
      const r = await upgrade(relay);
      r.socket.destroy();
      return r.status;
    }).toBe(101);
    const phone = await connectDevice(relay, 'phone');
    // 200 KiB: past what a socket may send before it authenticates; answered, and the socket stays.
    const big = await phone.request({ type: 'device.list', padding: 'x'.repeat(200 * 1024) }).then((a) => a.type, (e: { code?: string }) => e.code);
    expect(['ack', 'E_BAD_FRAME']).toContain(big);
    const ack = await phone.request({ type: 'device.list' });
    expect(ack.type).toBe('ack');
    await phone.close();
  });

  it('AUTH-7: a socket that times out and does not finish closing is cut within a second of its close', async () => {
    const relay = await startRelay({ authTimeoutMs: 200 });
    const raw = await upgrade(relay);
    expect(raw.status).toBe(101);
    raw.socket.resume(); // reads what comes, and answers nothing: no close frame back
    const started = Date.now();
    await raw.closed;
    expect(Date.now() - started).toBeLessThan(10_000); // ws alone would wait 30 s for the close
  });
});
