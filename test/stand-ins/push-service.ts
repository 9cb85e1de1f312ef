// A local Web Push service on loopback that behaves like a browser vendor's
// (RFC 8030): HTTPS with a test certificate, VAPID JWT checked (RFC 8292:
// aud, exp, ES256 signature, sub), body decrypted per RFC 8291 aes128gcm with
// the subscription's own keys. Tests assert on what it received.
import { createECDH, createHmac, createDecipheriv, createPublicKey, randomBytes, verify } from 'node:crypto';
import { createServer, type Server } from 'node:https';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { makeTestCertificate } from '../helpers/certificate';

export interface TestSubscription {
  /** What the browser would hand the app: `PushSubscription.toJSON()`. */
  json: { endpoint: string; expirationTime: null; keys: { p256dh: string; auth: string } };
  id: string;
}

export interface ReceivedPush {
  subscription: string;
  payload: unknown;
  text: string;
  ttl: number;
  urgency: string | null;
  topic: string | null;
  vapidSubject: string;
  at: number;
}

interface SubState {
  ecdh: ReturnType<typeof createECDH>;
  auth: Buffer;
  /** Status codes to answer with before accepting (e.g. [500, 500] then 201). */
  failures: number[];
  gone: boolean;
}

const b64u = (b: Buffer) => b.toString('base64url');

export { makeTestCertificate };

function hmac(key: Buffer, data: Buffer): Buffer {
  return createHmac('sha256', key).update(data).digest();
}
/** HKDF-Expand for one block (≤ 32 bytes), as RFC 8291 uses it. */
function expand(prk: Buffer, info: Buffer, length: number): Buffer {
  return hmac(prk, Buffer.concat([info, Buffer.from([1])])).subarray(0, length);
}

/** RFC 8291 §3–4 + RFC 8188: decrypt an aes128gcm body with the UA's keys. */
export function decryptAes128gcm(body: Buffer, ecdh: ReturnType<typeof createECDH>, auth: Buffer): Buffer {
  if (body.length < 21) throw new Error('aes128gcm body shorter than its header');
  const salt = body.subarray(0, 16);
  const rs = body.readUInt32BE(16);
  const idlen = body[20];
  const asPublic = body.subarray(21, 21 + idlen);
  if (idlen !== 65) throw new Error(`keyid must be the 65-byte sender public key, got ${idlen} bytes`);
  const ecdhSecret = ecdh.computeSecret(asPublic);
  const uaPublic = ecdh.getPublicKey();
  const prkKey = hmac(auth, ecdhSecret);
  const keyInfo = Buffer.concat([Buffer.from('WebPush: info\0'), uaPublic, asPublic]);
  const ikm = expand(prkKey, keyInfo, 32);
  const prk = hmac(salt, ikm);
  const cek = expand(prk, Buffer.from('Content-Encoding: aes128gcm\0'), 16);
  const nonce = expand(prk, Buffer.from('Content-Encoding: nonce\0'), 12);
  const records = body.subarray(21 + idlen);
  const out: Buffer[] = [];
  for (let i = 0, seq = 0; i < records.length; i += rs, seq++) {
    const rec = records.subarray(i, Math.min(i + rs, records.length));
    const iv = Buffer.from(nonce);
    // The record sequence number is XORed into the nonce's low bytes (seq < 2^32 here).
    iv.writeUInt32BE((iv.readUInt32BE(8) ^ seq) >>> 0, 8);
    const d = createDecipheriv('aes-128-gcm', cek, iv);
    d.setAuthTag(rec.subarray(rec.length - 16));
    const plain = Buffer.concat([d.update(rec.subarray(0, rec.length - 16)), d.final()]);
    let end = plain.length - 1;
    while (end >= 0 && plain[end] === 0) end--;
    const last = i + rs >= records.length;
    if (plain[end] !== (last ? 2 : 1)) throw new Error('bad record padding delimiter');
    out.push(plain.subarray(0, end));
  }
  return Buffer.concat(out);
}

/** RFC 8292: `vapid t=<jwt>, k=<key>`; checks signature, aud, exp and sub. */
export function checkVapid(header: string | undefined, audience: string, now = Date.now()): { subject: string } {
  const m = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(header ?? '');
  if (!m) throw new Error('Authorization is not "vapid t=…, k=…"');
  const [h, p, s] = m[1].split('.');
  const key = createPublicKey({
    key: { kty: 'EC', crv: 'P-256', x: b64u(Buffer.from(m[2], 'base64url').subarray(1, 33)), y: b64u(Buffer.from(m[2], 'base64url').subarray(33, 65)) },
    format: 'jwk',
  });
  const ok = verify('sha256', Buffer.from(`${h}.${p}`), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(s, 'base64url'));
  if (!ok) throw new Error('VAPID signature does not verify');
  const jose = JSON.parse(Buffer.from(h, "base64url").toString());
  if (jose.alg !== "ES256") throw new Error(`VAPID alg is ${jose.alg}, not ES256`);
  const claims = JSON.parse(Buffer.from(p, 'base64url').toString());
  if (claims.aud !== audience) throw new Error(`VAPID aud ${claims.aud} is not ${audience}`);
  const exp = Number(claims.exp) * 1000;
  if (!(exp > now) || exp > now + 24 * 3600_000 + 60_000) throw new Error('VAPID exp is not within the next 24 hours');
  if (typeof claims.sub !== 'string' || !/^(mailto:|https:)/.test(claims.sub)) throw new Error('VAPID sub must be mailto: or https:');
  return { subject: claims.sub };
}

export class PushService {
  readonly received: ReceivedPush[] = [];
  readonly rejected: { subscription: string; status: number; reason: string }[] = [];
  readonly certificate: { cert: string; key: string };
  private subs = new Map<string, SubState>();
  private server: Server;
  private waiters: { pred: (p: ReceivedPush) => boolean; resolve: (p: ReceivedPush) => void }[] = [];
  origin = '';

  constructor() {
    this.certificate = makeTestCertificate();
    this.server = createServer({ ...this.certificate }, (req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const { status, reason } = this.handle(req.method ?? '', req.url ?? '', req.headers, Buffer.concat(chunks));
        res.writeHead(status, { 'content-type': 'text/plain' }).end(reason);
      });
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((r) => this.server.listen(0, '127.0.0.1', r));
    this.origin = `https://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  close(): Promise<void> {
    return new Promise((r) => this.server.close(() => r()));
  }

  /** A fresh subscription, as a browser would create for one device. */
  subscribe(): TestSubscription {
    const id = randomBytes(8).toString('hex');
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    const auth = randomBytes(16);
    this.subs.set(id, { ecdh, auth, failures: [], gone: false });
    return { id, json: { endpoint: `${this.origin}/push/${id}`, expirationTime: null, keys: { p256dh: b64u(ecdh.getPublicKey()), auth: b64u(auth) } } };
  }

  /** Answer the next deliveries to this subscription with these statuses. */
  failNext(id: string, ...statuses: number[]): void {
    this.subs.get(id)!.failures.push(...statuses);
  }

  /** The subscription expired: every later delivery gets 410 Gone. */
  expire(id: string): void {
    this.subs.get(id)!.gone = true;
  }

  for(id: string): ReceivedPush[] {
    return this.received.filter((p) => p.subscription === id);
  }

  /** Resolves with the first push (already received or future) matching `pred`. */
  waitFor(pred: (p: ReceivedPush) => boolean, timeoutMs = 30_000): Promise<ReceivedPush> {
    const hit = this.received.find(pred);
    if (hit) return Promise.resolve(hit);
    return new Promise((resolve, reject) => {
      const w = { pred, resolve: (p: ReceivedPush) => { clearTimeout(t); resolve(p); } };
      const t = setTimeout(() => {
        this.waiters = this.waiters.filter((x) => x !== w);
        reject(new Error(`no matching push within ${timeoutMs} ms; received ${this.received.length}`));
      }, timeoutMs);
      this.waiters.push(w);
    });
  }

  private handle(method: string, url: string, headers: NodeJS.Dict<string | string[]>, body: Buffer): { status: number; reason: string } {
    const m = /^\/push\/([0-9a-f]{16})$/.exec(url);
    const sub = m ? this.subs.get(m[1]) : undefined;
    if (method !== 'POST' || !m || !sub) return { status: 404, reason: 'no such subscription' };
    const reject = (status: number, reason: string) => {
      this.rejected.push({ subscription: m[1], status, reason });
      return { status, reason };
    };
    if (sub.gone) return reject(410, 'subscription expired');
    if (sub.failures.length) return reject(sub.failures.shift()!, 'scripted failure');
    let subject: string;
    try {
      subject = checkVapid(headers.authorization as string | undefined, this.origin).subject;
    } catch (e) {
      return reject(403, (e as Error).message);
    }
    if (headers['content-encoding'] !== 'aes128gcm') return reject(400, 'Content-Encoding must be aes128gcm');
    if (headers.ttl === undefined || !/^\d+$/.test(String(headers.ttl))) return reject(400, 'TTL header required');
    let text: string;
    try {
      text = decryptAes128gcm(body, sub.ecdh, sub.auth).toString('utf8');
    } catch (e) {
      return reject(400, `cannot decrypt: ${(e as Error).message}`);
    }
    let payload: unknown = text;
    try { payload = JSON.parse(text); } catch { /* a text payload stays text */ }
    const push: ReceivedPush = {
      subscription: m[1], payload, text, ttl: Number(headers.ttl),
      urgency: (headers.urgency as string) ?? null, topic: (headers.topic as string) ?? null, vapidSubject: subject, at: Date.now(),
    };
    this.received.push(push);
    for (const w of [...this.waiters]) if (w.pred(push)) { this.waiters = this.waiters.filter((x) => x !== w); w.resolve(push); }
    return { status: 201, reason: 'created' };
  }
}
