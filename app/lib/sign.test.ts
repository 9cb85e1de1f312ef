// Signatures made by the app verify with Node's crypto exactly as the relay checks them.
import { createPublicKey, verify } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import 'fake-indexeddb/auto';
import { actionMessage, authMessage } from '../../protocol/wire/signing';
import { ActionFrame } from '../../protocol/wire/frames';
import { createDeviceKey } from './device-key';
import { newActionId, signAction, signAuth } from './sign';

function verifies(jwk: object, text: string, sig: string): boolean {
  const key = createPublicKey({ key: jwk as never, format: 'jwk' });
  return verify('sha256', Buffer.from(text), { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
}

describe('sign', () => {
  it('APP-2: the auth signature verifies over authMessage(nonce) as IEEE-P1363 and the private key cannot be exported', async () => {
    const { privateKey, publicJwk } = await createDeviceKey();
    expect(privateKey.extractable).toBe(false);
    await expect(crypto.subtle.exportKey('jwk', privateKey)).rejects.toThrow();
    const sig = await signAuth(privateKey, 'nonce-123');
    expect(verifies(publicJwk, authMessage('nonce-123'), sig)).toBe(true);
    expect(verifies(publicJwk, authMessage('nonce-124'), sig)).toBe(false);
  });

  it('APP-3: an action is signed over actionMessage with the ts of the moment it is sent, and validates as an ActionFrame', async () => {
    const { privateKey, publicJwk } = await createDeviceKey();
    const id = newActionId();
    const unsigned = { type: 'device.rename' as const, id, device: 'dev-1', name: 'Phone' };
    const frame = await signAction({ deviceId: 'dev-1', privateKey }, unsigned, 1_700_000_000_000);
    expect(frame.ts).toBe(1_700_000_000_000);
    expect(ActionFrame.safeParse(frame).success).toBe(true);
    expect(verifies(publicJwk, actionMessage('dev-1', frame as never), frame.sig)).toBe(true);
    expect(verifies(publicJwk, actionMessage('dev-2', frame as never), frame.sig)).toBe(false);
    const later = await signAction({ deviceId: 'dev-1', privateKey }, unsigned, 1_700_000_005_000);
    expect(later.id).toBe(id);
    expect(later.sig).not.toBe(frame.sig);
  });
});
