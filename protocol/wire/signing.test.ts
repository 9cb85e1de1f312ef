// What a device signs (AUTH-1, AUTH-5): byte-stable messages both sides build alike.
import * as crypto from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { actionMessage, authMessage, canonicalJson } from './signing';

describe('signing messages', () => {
  it('AUTH-1: the auth message binds the nonce and a version tag', () => {
    expect(authMessage('abc')).toBe('commandr-auth:v1:abc');
  });

  it('AUTH-5: an action message ignores key order and sig, and binds the device', () => {
    const a = { type: 'device.rename', id: 'abcdefgh', ts: 1, name: 'p', device: 'd-1', sig: 'x' };
    const b = { device: 'd-1', name: 'p', ts: 1, id: 'abcdefgh', type: 'device.rename', sig: 'other' };
    expect(actionMessage('d-1', a)).toBe(actionMessage('d-1', b));
    expect(actionMessage('d-1', a)).not.toBe(actionMessage('d-2', a));
    expect(actionMessage('d-1', a)).toBe('commandr-action:v1:d-1:{"device":"d-1","id":"abcdefgh","name":"p","ts":1,"type":"device.rename"}');
    expect(canonicalJson({ b: { d: 1, c: [{ f: 1, e: 2 }] }, a: 0 })).toBe('{"a":0,"b":{"c":[{"e":2,"f":1}],"d":1}}');
  });

  it('AUTH-5: a WebCrypto-style P1363 signature over the message verifies with the JWK', () => {
    const { privateKey, publicKey } = crypto.generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const msg = actionMessage('d-1', { type: 'push.unsubscribe', id: 'abcdefgh', ts: 5 });
    const sig = crypto.sign('sha256', Buffer.from(msg), { key: privateKey, dsaEncoding: 'ieee-p1363' });
    expect(sig).toHaveLength(64);
    const jwk = publicKey.export({ format: 'jwk' });
    expect(crypto.verify('sha256', Buffer.from(msg), { key: crypto.createPublicKey({ key: jwk, format: 'jwk' }), dsaEncoding: 'ieee-p1363' }, sig)).toBe(true);
    expect(crypto.verify('sha256', Buffer.from(`${msg} `), { key: publicKey, dsaEncoding: 'ieee-p1363' }, sig)).toBe(false);
  });
});
