// The relay's approval key pair (APPROVAL-4): Ed25519, private key mode 0600 in
// `<dataDir>/approval/private.pem`, public key beside it in `public.pem` (0644) so
// a gate or verifier can read it without the private key. Created once, reused.
import { createHash, createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { BusError, errnoOf, ioError } from '../errors';
import { createFileExclusive, writeFileAtomic } from '../fs-atomic';

export interface SigningKey { privateKey: KeyObject; publicKey: KeyObject; keyId: string }
export interface VerifyingKey { publicKey: KeyObject; keyId: string; file?: string }

export const keyDir = (dataDir: string): string => path.join(dataDir, 'approval');
export const publicKeyFile = (dataDir: string): string => path.join(keyDir(dataDir), 'public.pem');

/** `$COMMANDR_HOME`, else `~/.commandr`: where the relay keeps its data by default. */
export function defaultDataDir(env: NodeJS.ProcessEnv = process.env): string {
  const home = env.COMMANDR_HOME?.trim();
  return home ? path.resolve(home) : path.join(env.HOME || os.homedir(), '.commandr');
}

export function keyIdOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  return 'ed25519:' + createHash('sha256').update(der).digest('hex').slice(0, 16);
}

/** Keys already loaded, by private key file; reused while the file's inode and mtime stay the same. */
const loaded = new Map<string, { stamp: string; key: SigningKey }>();

/** Loads the relay's key pair, creating it (exclusively, so two relays agree) on first use. */
export function loadOrCreateSigningKey(dataDir: string): SigningKey {
  const dir = keyDir(dataDir);
  const file = path.join(dir, 'private.pem');
  const stat = fs.statSync(file, { throwIfNoEntry: false });
  const stamp = stat ? `${stat.ino}:${stat.mtimeMs}` : '';
  const cached = loaded.get(file);
  if (cached && stamp !== '' && cached.stamp === stamp && fs.existsSync(publicKeyFile(dataDir))) return cached.key;
  const key = loadKeyFile(dataDir, dir, file);
  const after = fs.statSync(file);
  loaded.set(file, { stamp: `${after.ino}:${after.mtimeMs}`, key });
  return key;
}

function loadKeyFile(dataDir: string, dir: string, file: string): SigningKey {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
  if (!fs.existsSync(file)) {
    const { privateKey } = generateKeyPairSync('ed25519');
    try {
      createFileExclusive(file, privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, 0o600);
    } catch (error) {
      if (!(error instanceof BusError && error.code === 'E_EXISTS')) throw error;
    }
  }
  let privateKey: KeyObject;
  try {
    privateKey = createPrivateKey(fs.readFileSync(file));
  } catch (error) {
    throw ioError('read the approval key', file, error);
  }
  if (privateKey.asymmetricKeyType !== 'ed25519') throw new BusError('E_BAD_TOKEN', `${file} is not an Ed25519 private key`);
  const publicKey = createPublicKey(privateKey);
  const pem = publicKey.export({ type: 'spki', format: 'pem' }) as string;
  const pub = publicKeyFile(dataDir);
  if (readText(pub) !== pem) writeFileAtomic(pub, pem, 0o644);
  return { privateKey, publicKey, keyId: keyIdOf(publicKey) };
}

/** Reads a public key (PEM) a gate or verifier trusts; E_BAD_TOKEN names the file when it is unusable. */
export function readVerifyingKey(file: string): VerifyingKey {
  const text = readText(file);
  if (text === undefined) throw new BusError('E_NOT_FOUND', `no approval public key at ${file} (start the relay once, or point git config commandr.approvalKey at the relay's public.pem)`);
  try {
    const publicKey = createPublicKey(text);
    if (publicKey.asymmetricKeyType !== 'ed25519') throw new Error('not Ed25519');
    return { publicKey, keyId: keyIdOf(publicKey), file };
  } catch (error) {
    throw new BusError('E_BAD_TOKEN', `${file} is not an Ed25519 public key: ${(error as Error).message}`);
  }
}

function readText(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw ioError('read', file, error);
  }
}
