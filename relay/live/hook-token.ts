// The relay's two local credentials (LIVE-1, CRED-n), random tokens, mode 0600,
// created once at start: <dataDir>/hook-token lets an agent's hooks post live
// events and permission requests — nothing else; <dataDir>/admin-token lets the
// person's CLI use the local admin routes (commanders). Agents never need the
// second, and the shipped policy asks a person before anything reads either.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDir } from '../devices/files';

export function hookTokenFile(dataDir: string): string {
  return path.join(dataDir, 'hook-token');
}

export function adminTokenFile(dataDir: string): string {
  return path.join(dataDir, 'admin-token');
}

/** The hook credential, created the first time. */
export function ensureHookToken(dataDir: string): string {
  return ensureToken(dataDir, hookTokenFile(dataDir));
}

/** The admin credential (CRED-1), created the first time; never the same as the hook credential. */
export function ensureAdminToken(dataDir: string): string {
  return ensureToken(dataDir, adminTokenFile(dataDir));
}

/** Reads a token file, creating it (exclusively, 0600) the first time. */
function ensureToken(dataDir: string, file: string): string {
  ensurePrivateDir(dataDir);
  try {
    fs.writeFileSync(file, `${crypto.randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  fs.chmodSync(file, 0o600);
  const token = fs.readFileSync(file, 'utf8').trim();
  if (token.length < 32) throw new Error(`${file} holds no usable token; delete it and restart the relay`);
  return token;
}

/** Constant-time comparison of a presented token with the real one. */
export function tokenMatches(presented: string | undefined, token: string): boolean {
  if (presented === undefined) return false;
  const a = crypto.createHash('sha256').update(presented).digest();
  const b = crypto.createHash('sha256').update(token).digest();
  return crypto.timingSafeEqual(a, b);
}
