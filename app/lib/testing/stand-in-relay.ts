// A small stand-in for the relay's socket edge, for the client core's unit tests:
// real `ws` server on port 0, the real challenge/verify and per-(device,id) dedupe
// rules from protocol/wire. The e2e suite runs against the real relay instead.
import { createPublicKey, randomBytes, verify, type KeyObject } from 'node:crypto';
import { WebSocketServer, type WebSocket } from 'ws';
import { ActionFrame, ClientFrame } from '../../../protocol/wire/frames';
import { actionMessage, authMessage } from '../../../protocol/wire/signing';

export interface StandInRelay {
  url: string;
  /** Actions applied (once each), in order. */
  applied: ActionFrame[];
  /** Every client frame received after auth. */
  received: ClientFrame[];
  /** Answer for an action type: a result, or throw {code,message}. */
  handle: (frame: ActionFrame) => unknown;
  addDevice(id: string, jwk: object): void;
  /** Drop every open socket (the server keeps listening). */
  dropAll(): void;
  sockets(): WebSocket[];
  close(): Promise<void>;
}

export async function startStandInRelay(): Promise<StandInRelay> {
  const wss = new WebSocketServer({ port: 0, host: '127.0.0.1' });
  await new Promise<void>((resolve) => wss.once('listening', () => resolve()));
  const keys = new Map<string, KeyObject>();
  const answers = new Map<string, object>();
  const relay: StandInRelay = {
    url: `ws://127.0.0.1:${(wss.address() as { port: number }).port}/ws`,
    applied: [],
    received: [],
    handle: () => ({ ok: true }),
    addDevice: (id, jwk) => keys.set(id, createPublicKey({ key: jwk as never, format: 'jwk' })),
    dropAll: () => wss.clients.forEach((ws) => ws.terminate()),
    sockets: () => [...wss.clients],
    close: () => new Promise((resolve) => { wss.clients.forEach((ws) => ws.terminate()); wss.close(() => resolve()); }),
  };
  const ok = (key: KeyObject, text: string, sig: string) =>
    verify('sha256', Buffer.from(text), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));

  wss.on('connection', (ws) => {
    const nonce = randomBytes(16).toString('base64url');
    let device: string | null = null;
    ws.send(JSON.stringify({ type: 'auth.challenge', nonce, relay: { version: 'stand-in' } }));
    ws.on('message', (data) => {
      const parsed = ClientFrame.safeParse(JSON.parse(String(data)));
      if (!parsed.success) return ws.send(JSON.stringify({ type: 'error', error: { code: 'E_BAD_FRAME', message: 'bad frame' } }));
      const frame = parsed.data;
      if (!device) {
        const key = frame.type === 'auth.response' ? keys.get(frame.device) : undefined;
        if (frame.type !== 'auth.response' || !key || !ok(key, authMessage(nonce), frame.sig)) {
          ws.send(JSON.stringify({ type: 'error', error: { code: 'E_UNAUTHORIZED', message: 'unknown device' } }));
          return ws.close();
        }
        device = frame.device;
        const view = { id: device, name: 'Phone', createdAt: 't', lastSeenAt: null, current: true, push: false };
        return ws.send(JSON.stringify({ type: 'auth.ok', device: view }));
      }
      relay.received.push(frame);
      if (frame.type === 'auth.response') return;
      const action = ActionFrame.safeParse(frame);
      if (!action.success) return ws.send(JSON.stringify({ type: 'ack', id: frame.id, result: null }));
      const key = keys.get(device)!;
      if (!ok(key, actionMessage(device, action.data as never), action.data.sig)) {
        return ws.send(JSON.stringify({ type: 'error', id: frame.id, error: { code: 'E_UNAUTHORIZED', message: 'bad signature' } }));
      }
      const dedupeKey = `${device}:${frame.id}`;
      let answer = answers.get(dedupeKey);
      if (!answer) {
        try {
          answer = { type: 'ack', id: frame.id, result: relay.handle(action.data) };
          relay.applied.push(action.data);
        } catch (error) {
          answer = { type: 'error', id: frame.id, error };
        }
        answers.set(dedupeKey, answer);
      }
      ws.send(JSON.stringify(answer));
    });
  });
  return relay;
}
