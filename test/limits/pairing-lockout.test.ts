// PAIR-4: strangers flooding POST /api/pair with bad codes — from one
// address (every client behind a local proxy shares it) or from many — are
// limited, but a code `commandr pair` issued always pairs. Real relay, real
// sockets from distinct loopback addresses.
import * as http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createPairingCode } from '../../relay/devices/pairing';
import { newKeyPair } from '../helpers/device';
import { cleanup, startRelay } from '../relay-core/setup';

afterEach(cleanup);

/** POSTs a pairing body from `from` (a loopback address: each is its own client address). */
function pair(url: string, code: string, from = '127.0.0.1', headers: Record<string, string> = {}): Promise<{ status: number; code?: string }> {
  const text = JSON.stringify({ code, name: 'phone', publicKey: newKeyPair().publicJwk });
  return new Promise((resolve, reject) => {
    const req = http.request(`${url}/api/pair`, {
      method: 'POST', localAddress: from, headers: { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers },
    }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => {
        const body = JSON.parse(Buffer.concat(chunks).toString()) as { error?: { code: string } };
        resolve({ status: res.statusCode ?? 0, code: body.error?.code });
      });
    });
    req.on('error', reject);
    req.end(text);
  });
}

const bad = (i: number): string => `guessed-code-${i}-${'a'.repeat(30)}`;

describe('pairing under a flood of bad codes', () => {
  it('PAIR-4: 10 failures a minute from one address limit that address; others are not limited by it', async () => {
    const relay = await startRelay();
    for (let i = 0; i < 10; i += 1) expect((await pair(relay.url, bad(i))).code).toBe('E_PAIRING_CODE');
    expect(await pair(relay.url, bad(10))).toEqual({ status: 429, code: 'E_RATE_LIMITED' });
    expect((await pair(relay.url, bad(11), '127.0.0.2')).code).toBe('E_PAIRING_CODE');
  });

  it('PAIR-4: X-Forwarded-For is not trusted: a stranger cannot pick a fresh address with a header', async () => {
    const relay = await startRelay();
    for (let i = 0; i < 10; i += 1) await pair(relay.url, bad(i), '127.0.0.1', { 'x-forwarded-for': `10.0.0.${i}` });
    expect((await pair(relay.url, bad(10), '127.0.0.1', { 'x-forwarded-for': '10.9.9.9' })).code).toBe('E_RATE_LIMITED');
  });

  it('PAIR-4: one code tried again and again from many addresses is limited per code (10 a minute)', async () => {
    const relay = await startRelay();
    const same = bad(0);
    for (let i = 0; i < 10; i += 1) expect((await pair(relay.url, same, `127.0.1.${i + 1}`)).code).toBe('E_PAIRING_CODE');
    expect((await pair(relay.url, same, '127.0.1.99')).code).toBe('E_RATE_LIMITED');
    expect((await pair(relay.url, bad(1), '127.0.1.99')).code).toBe('E_PAIRING_CODE');
  });

  it('PAIR-4: strangers behind the same proxy address, or from everywhere, cannot lock the owner out: an issued code always pairs', async () => {
    const relay = await startRelay();
    // 40 bad attempts through "the proxy" (one address) and 40 from many addresses: past every limit.
    for (let i = 0; i < 40; i += 1) await pair(relay.url, bad(i));
    for (let i = 0; i < 40; i += 1) await pair(relay.url, bad(100 + i), `127.0.2.${i + 1}`);
    expect((await pair(relay.url, bad(999), '127.0.3.1')).code).toBe('E_RATE_LIMITED');
    // The owner, behind the same proxy address, with a code `commandr pair` just issued.
    const { code } = createPairingCode(relay.dataDir);
    expect(await pair(relay.url, code)).toEqual({ status: 201, code: undefined });
    expect(relay.services.devices.list()).toHaveLength(1);
    // It works once: the spent code is a failure like any other (and limited).
    expect((await pair(relay.url, code)).status).toBe(429);
  });
});
