// This machine's Ed25519 key pair for the fleet link (FLEET-2): created once under
// <dataDir>/fleet/machine-key.pem (0600); others know it by its fingerprint.
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import * as fs from 'node:fs';
import { ensurePrivateDir } from '../devices/files';

export interface MachineKeyPair {
  privateKey: crypto.KeyObject;
  /** Raw 32-byte public key, base64url. */
  publicKey: string;
  fingerprint: string;
}

/** sha256 of the raw public key, base64url. */
export function fingerprintOf(publicKey: string): string {
  return crypto.createHash('sha256').update(Buffer.from(publicKey, 'base64url')).digest('base64url');
}

export function loadMachineKey(dataDir: string): MachineKeyPair {
  const dir = path.join(dataDir, 'fleet');
  ensurePrivateDir(dir);
  const file = path.join(dir, 'machine-key.pem');
  let pem: string;
  try {
    pem = fs.readFileSync(file, 'utf8');
  } catch {
    const fresh = crypto.generateKeyPairSync('ed25519').privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    try {
      fs.writeFileSync(file, fresh, { mode: 0o600, flag: 'wx' });
    } catch {
      // another process created it first: use theirs
    }
    pem = fs.readFileSync(file, 'utf8');
  }
  const privateKey = crypto.createPrivateKey(pem);
  const publicKey = (crypto.createPublicKey(privateKey).export({ format: 'jwk' }) as { x: string }).x;
  return { privateKey, publicKey, fingerprint: fingerprintOf(publicKey) };
}

export function signWith(key: MachineKeyPair, message: string): string {
  return crypto.sign(null, Buffer.from(message), key.privateKey).toString('base64url');
}

export function verifyWith(publicKey: string, message: string, sig: string): boolean {
  try {
    const key = crypto.createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey }, format: 'jwk' });
    return crypto.verify(null, Buffer.from(message), key, Buffer.from(sig, 'base64url'));
  } catch {
    return false;
  }
}
