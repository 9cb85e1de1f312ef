import * as fs from 'node:fs';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createPairingCode, pairingUrl, redeemPairingCode } from '../../relay/devices/pairing';
import { newKeyPair } from '../helpers/device';
import { cleanup, startRelay, tempDir } from './setup';

afterEach(cleanup);

async function postPair(url: string, body: unknown, headers: Record<string, string> = {}) {
  const res = await fetch(`${url}/api/pair`, { method: 'POST', headers: { 'content-type': 'application/json', ...headers }, body: JSON.stringify(body) });
  return { status: res.status, body: (await res.json()) as { device?: { id: string }; error?: { code: string; message: string } } };
}

describe('pairing', () => {
  it('PAIR-1: a code is 256 random bits in base64url, and the URL carries it in the fragment', () => {
    const dir = tempDir();
    const { code, expiresAt } = createPairingCode(dir);
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(expiresAt - Date.now()).toBeGreaterThan(9 * 60_000);
    expect(pairingUrl('https://relay.example/', code)).toBe(`https://relay.example/pair#code=${code}`);
  });

  it('PAIR-2: codes are stored hashed, never in clear, and files are private', () => {
    const dir = tempDir();
    const { code } = createPairingCode(dir);
    const files = fs.readdirSync(path.join(dir, 'pairing'));
    expect(files).toHaveLength(1);
    const content = fs.readFileSync(path.join(dir, 'pairing', files[0]!), 'utf8');
    expect(files[0]).not.toContain(code);
    expect(content).not.toContain(code);
    expect(fs.statSync(path.join(dir, 'pairing', files[0]!)).mode & 0o077).toBe(0);
  });

  it('PAIR-3: a code created by another process is redeemable once; reuse is E_PAIRING_CODE', async () => {
    const relay = await startRelay();
    const { code } = createPairingCode(relay.dataDir); // as `commandr pair` would, on disk
    const keys = newKeyPair();
    const first = await postPair(relay.url, { code, name: 'phone', publicKey: keys.publicJwk });
    expect(first.status).toBe(201);
    expect(first.body.device?.id).toMatch(/^d-[0-9a-f]{16}$/);
    const again = await postPair(relay.url, { code, name: 'thief', publicKey: newKeyPair().publicJwk });
    expect(again.status).toBe(403);
    expect(again.body.error?.code).toBe('E_PAIRING_CODE');
    expect(relay.services.devices.list().map((d) => d.name)).toEqual(['phone']);
  });

  it('PAIR-3: an expired code is E_PAIRING_CODE', async () => {
    const relay = await startRelay();
    const { code } = createPairingCode(relay.dataDir, 10, Date.now() - 60_000);
    const res = await postPair(relay.url, { code, name: 'late', publicKey: newKeyPair().publicJwk });
    expect(res.body.error?.code).toBe('E_PAIRING_CODE');
    expect(res.body.error?.message).toMatch(/expired/);
    expect(() => redeemPairingCode(relay.dataDir, code)).toThrow(/unknown or was already used/);
  });

  it('PAIR-3: racing redeemers of one code: exactly one wins', async () => {
    const relay = await startRelay();
    const { code } = createPairingCode(relay.dataDir);
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => postPair(relay.url, { code, name: `p${i}`, publicKey: newKeyPair().publicJwk })),
    );
    expect(results.filter((r) => r.status === 201)).toHaveLength(1);
    expect(relay.services.devices.list()).toHaveLength(1);
  });

  it('PAIR-4: after 10 failed attempts a minute a bad code is E_RATE_LIMITED, yet a live code still pairs', async () => {
    const relay = await startRelay();
    for (let i = 0; i < 10; i++) {
      const res = await postPair(relay.url, { code: `wrong-code-${i}-aaaaaaaaaaaa`, name: 'x', publicKey: newKeyPair().publicJwk });
      expect(res.body.error?.code).toBe('E_PAIRING_CODE');
    }
    const limited = await postPair(relay.url, { code: 'wrong-code-10-aaaaaaaaaaaa', name: 'x', publicKey: newKeyPair().publicJwk });
    expect(limited.status).toBe(429);
    expect(limited.body.error?.code).toBe('E_RATE_LIMITED');
    expect(relay.services.devices.list()).toHaveLength(0);
    const { code } = createPairingCode(relay.dataDir);
    expect((await postPair(relay.url, { code, name: 'x', publicKey: newKeyPair().publicJwk })).status).toBe(201);
  });

  it('PAIR-5: a malformed request or key is E_BAD_FRAME and registers nothing', async () => {
    const relay = await startRelay();
    const { code } = createPairingCode(relay.dataDir);
    const notJson = await fetch(`${relay.url}/api/pair`, { method: 'POST', body: '{nope' });
    expect(((await notJson.json()) as { error: { code: string } }).error.code).toBe('E_BAD_FRAME');
    const badKey = await postPair(relay.url, { code, name: 'x', publicKey: { kty: 'EC', crv: 'P-256', x: 'AAAA', y: 'AAAA' } });
    expect(badKey.body.error?.code).toBe('E_BAD_FRAME');
    const noName = await postPair(relay.url, { code, publicKey: newKeyPair().publicJwk });
    expect(noName.body.error?.message).toMatch(/name/);
    expect(relay.services.devices.list()).toHaveLength(0);
  });

  it('ORIGIN-4: a pairing request from another origin is refused', async () => {
    const relay = await startRelay();
    const { code } = createPairingCode(relay.dataDir);
    const res = await postPair(relay.url, { code, name: 'x', publicKey: newKeyPair().publicJwk }, { origin: 'https://evil.example' });
    expect(res.status).toBe(403);
    expect(res.body.error?.code).toBe('E_FORBIDDEN_ORIGIN');
  });
});

describe('device store', () => {
  it('DEV-2: devices.json is private (0600) and a corrupt one is reported by name, not used', async () => {
    const { DeviceStore } = await import('../../relay/devices/store');
    const dir = tempDir();
    const store = new DeviceStore(dir);
    store.add('phone', newKeyPair().publicJwk);
    expect(fs.statSync(path.join(dir, 'devices.json')).mode & 0o777).toBe(0o600);
    fs.writeFileSync(path.join(dir, 'devices.json'), '{"version":1,"devices":[{"id":"../x"}]}');
    expect(() => new DeviceStore(dir)).toThrow(/devices\.json is not a valid devices file: devices\.0\.id/);
    fs.writeFileSync(path.join(dir, 'devices.json'), '{');
    expect(() => new DeviceStore(dir)).toThrow(/devices\.json is not JSON/);
  });
});
