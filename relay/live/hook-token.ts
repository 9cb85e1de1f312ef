// The hook credential (LIVE-1): a random token in <dataDir>/hook-token, mode
// 0600, created once at start. Local hooks run as the same user and read it;
// nothing else can post live events or permission requests.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { ensurePrivateDir } from '../devices/files';

export function hookTokenFile(dataDir: string): string {
  return path.join(dataDir, 'hook-token');
}

/** Reads the token, creating it (exclusively, 0600) the first time. */
export function ensureHookToken(dataDir: string): string {
  ensurePrivateDir(dataDir);
  const file = hookTokenFile(dataDir);
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
