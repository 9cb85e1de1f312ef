// Signature and freshness checks shared by the socket and `POST /api/action`
// (AUTH-n, DEDUPE-n): ECDSA P-256/SHA-256 in IEEE-P1363 form, base64url.
import * as crypto from 'node:crypto';
import { CommandrError } from '../../protocol/wire/errors';
import { ACTION_WINDOW_MS, type ActionFrame } from '../../protocol/wire/frames';
import { actionMessage } from '../../protocol/wire/signing';
import type { DeviceRecord, DeviceStore } from '../devices/store';

export function signatureValid(key: crypto.KeyObject, message: string, sig: string): boolean {
  const bytes = Buffer.from(sig, 'base64url');
  if (bytes.length !== 64) return false;
  try {
    return crypto.verify('sha256', Buffer.from(message), { key, dsaEncoding: 'ieee-p1363' }, bytes);
  } catch {
    return false;
  }
}

/** The paired device whose key signed `message`, or E_UNAUTHORIZED (unknown, revoked or bad signature). */
export function verifyDevice(devices: DeviceStore, deviceId: string, message: string, sig: string): DeviceRecord {
  const key = devices.publicKey(deviceId);
  const record = devices.get(deviceId);
  if (!key || !record || !signatureValid(key, message, sig)) {
    throw new CommandrError('E_UNAUTHORIZED', 'unknown device or bad signature');
  }
  return record;
}

/** AUTH-5: an action is signed by the device it claims to come from. */
export function verifyActionSignature(devices: DeviceStore, deviceId: string, frame: ActionFrame): DeviceRecord {
  return verifyDevice(devices, deviceId, actionMessage(deviceId, frame as unknown as Record<string, unknown>), frame.sig);
}

/** DEDUPE-2: a new action's `ts` is within ±30 s of the relay's clock. */
export function checkFresh(frame: ActionFrame, now = Date.now()): void {
  if (Math.abs(now - frame.ts) > ACTION_WINDOW_MS) {
    throw new CommandrError('E_REPLAY', `action timestamp is more than ${ACTION_WINDOW_MS / 1000} s from the relay's clock; check the phone's time`);
  }
}
