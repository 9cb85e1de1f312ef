// The relay's VAPID identity (PUSH-1): generated on first start, kept in the
// data dir with mode 0600, reused across restarts so subscriptions stay valid.
import * as fs from 'node:fs';
import * as path from 'node:path';
import webpush from 'web-push';
import { writeFileAtomic } from '../../bus/fs-atomic';

export interface VapidKeys {
  publicKey: string;
  privateKey: string;
  subject: string;
}

export const DEFAULT_VAPID_SUBJECT = 'mailto:commandr@localhost.invalid';

export function loadOrCreateVapid(dataDir: string, subject = process.env.COMMANDR_VAPID_SUBJECT || DEFAULT_VAPID_SUBJECT): VapidKeys {
  if (!/^(mailto:|https:)/.test(subject)) throw new TypeError(`VAPID subject must start with mailto: or https:, got ${JSON.stringify(subject)}`);
  const file = path.join(dataDir, 'push', 'vapid.json');
  try {
    const saved = JSON.parse(fs.readFileSync(file, 'utf8')) as Partial<VapidKeys>;
    if (typeof saved.publicKey === 'string' && typeof saved.privateKey === 'string') {
      return { publicKey: saved.publicKey, privateKey: saved.privateKey, subject };
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new Error(`cannot read VAPID keys at ${file}: ${(error as Error).message}`);
  }
  const keys = webpush.generateVAPIDKeys();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  writeFileAtomic(file, JSON.stringify({ publicKey: keys.publicKey, privateKey: keys.privateKey }) + '\n', 0o600);
  return { ...keys, subject };
}
