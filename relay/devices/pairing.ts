// One-time pairing codes (PAIR-n): 128+ random bits, valid 10 minutes, stored
// only as a sha256 under <dataDir>/pairing/ so any process (the CLI, a running
// relay) can create or redeem one; redeeming deletes the file, so a code works once.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandrError } from '../../protocol/wire/errors';
import { pruneExpiredCodes, readJsonFile, writePrivateFile } from './files';

export const PAIRING_TTL_MS = 10 * 60_000;

export interface PairingCode {
  code: string;
  expiresAt: number;
}

function pairingDir(dataDir: string): string {
  return path.join(dataDir, 'pairing');
}

function codeFile(dataDir: string, code: string): string {
  return path.join(pairingDir(dataDir), crypto.createHash('sha256').update(code).digest('hex'));
}

/** Creates a single-use code (32 random bytes, base64url) and forgets expired ones. */
export function createPairingCode(dataDir: string, ttlMs = PAIRING_TTL_MS, now = Date.now()): PairingCode {
  pruneExpiredCodes(pairingDir(dataDir), now);
  const code = crypto.randomBytes(32).toString('base64url');
  const expiresAt = now + ttlMs;
  writePrivateFile(codeFile(dataDir, code), JSON.stringify({ expiresAt }));
  return { code, expiresAt };
}

/** The URL a phone opens to pair; the code travels in the fragment so no server logs it. */
export function pairingUrl(origin: string, code: string): string {
  return `${origin.replace(/\/+$/, '')}/pair#code=${code}`;
}

/** The key a failed attempt with `code` is counted under (its hash: the code itself is never kept). */
export function codeKey(code: string): string {
  return `code:${crypto.createHash('sha256').update(code).digest('hex')}`;
}

/**
 * Whether `code` names a pairing code that can still be redeemed (PAIR-4): such a
 * code was issued by `commandr pair` and is never refused by the failure limits.
 */
export function pairingCodeIsLive(dataDir: string, code: string, now = Date.now()): boolean {
  try {
    const record = readJsonFile(codeFile(dataDir, code)) as { expiresAt?: unknown } | undefined;
    return typeof record?.expiresAt === 'number' && record.expiresAt >= now;
  } catch {
    return false;
  }
}

/**
 * Redeems `code`: succeeds once, within its lifetime. Claiming is a rename to
 * a private name, so two racing redeemers cannot both win.
 */
export function redeemPairingCode(dataDir: string, code: string, now = Date.now()): void {
  const file = codeFile(dataDir, code);
  const claimed = `${file}.redeemed.${process.pid}.${crypto.randomBytes(6).toString('hex')}`;
  try {
    fs.renameSync(file, claimed);
  } catch {
    throw new CommandrError('E_PAIRING_CODE', 'pairing code is unknown or was already used; run `commandr pair` for a new one');
  }
  try {
    const record = readJsonFile(claimed) as { expiresAt?: unknown } | undefined;
    const expiresAt = typeof record?.expiresAt === 'number' ? record.expiresAt : 0;
    if (expiresAt < now) throw new CommandrError('E_PAIRING_CODE', 'pairing code has expired; run `commandr pair` for a new one');
  } finally {
    fs.rmSync(claimed, { force: true });
  }
}
