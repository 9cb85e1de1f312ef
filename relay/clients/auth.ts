// Socket authentication (AUTH-n): the relay sends a fresh 256-bit nonce; the
// device answers with its signature over authMessage(nonce). One answer per
// socket — a wrong one closes it — so a captured answer never works twice.
import * as crypto from 'node:crypto';
import { CommandrError } from '../../protocol/wire/errors';
import { AuthResponse } from '../../protocol/wire/frames';
import { authMessage } from '../../protocol/wire/signing';
import type { DeviceRecord, DeviceStore } from '../devices/store';
import { verifyDevice } from './verify';

export function newNonce(): string {
  return crypto.randomBytes(32).toString('base64url');
}

/** The device that answered `nonce` correctly, or E_UNAUTHORIZED. */
export function authenticate(devices: DeviceStore, nonce: string, value: unknown): DeviceRecord {
  const parsed = AuthResponse.safeParse(value);
  if (!parsed.success) throw new CommandrError('E_UNAUTHORIZED', 'authenticate first: answer auth.challenge with auth.response');
  return verifyDevice(devices, parsed.data.device, authMessage(nonce), parsed.data.sig);
}
