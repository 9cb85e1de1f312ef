// Signing with the device key: socket auth and action frames, over the exact bytes
// protocol/wire/signing.ts defines. WebCrypto's ECDSA output is already IEEE-P1363.
//
// API:
//   interface Signer { deviceId: string; privateKey: CryptoKey }
//   signText(key, text)                 → base64url signature
//   signAuth(key, nonce)                → signature over authMessage(nonce)
//   signAction(signer, unsigned, now?)  → the frame with a fresh `ts` and its `sig`
//   UnsignedAction                      = an ActionFrame without ts/sig
import { actionMessage, authMessage } from '../../protocol/wire/signing';
import type { ActionFrame } from '../../protocol/wire/frames';

export interface Signer {
  deviceId: string;
  privateKey: CryptoKey;
}

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type UnsignedAction = DistributiveOmit<ActionFrame, 'ts' | 'sig'>;

export function base64url(bytes: ArrayBuffer | Uint8Array): string {
  const view = bytes instanceof Uint8Array ? bytes : new Uint8Array(bytes);
  let binary = '';
  for (const b of view) binary += String.fromCharCode(b);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export async function signText(privateKey: CryptoKey, text: string): Promise<string> {
  const sig = await crypto.subtle.sign({ name: 'ECDSA', hash: 'SHA-256' }, privateKey, new TextEncoder().encode(text));
  return base64url(sig);
}

export function signAuth(privateKey: CryptoKey, nonce: string): Promise<string> {
  return signText(privateKey, authMessage(nonce));
}

/** Signs at send time: a queued action gets a fresh ts (the relay accepts ±30 s), same id. */
export async function signAction(signer: Signer, unsigned: UnsignedAction, now: number = Date.now()): Promise<ActionFrame> {
  const framed = { ...unsigned, ts: now } as Record<string, unknown>;
  const sig = await signText(signer.privateKey, actionMessage(signer.deviceId, framed));
  return { ...framed, sig } as ActionFrame;
}

/** A fresh action id: 16 random bytes, base64url (matches ActionId's pattern). */
export function newActionId(): string {
  return base64url(crypto.getRandomValues(new Uint8Array(16)));
}
