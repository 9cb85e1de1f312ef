// The guarded repo's own state (RVERIFY-1, RVERIFY-3): `<git dir>/commandr/` holds the
// trusted keys, the optional allowed signers and `verified`, the commits whose whole
// history has been checked (the install baseline, then every accepted push's tips).
// `verified` is append-only: each push adds its tips in one O_APPEND write, so two
// pushes at once never lose each other's lines and a reader never sees half a line it keeps.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BusError, errnoOf, ioError } from '../errors';

export const guardDir = (gitDir: string): string => path.join(gitDir, 'commandr');
export const verifiedFile = (gitDir: string): string => path.join(guardDir(gitDir), 'verified');
export const keysDir = (gitDir: string): string => path.join(guardDir(gitDir), 'keys');
export const signersFile = (gitDir: string): string => path.join(guardDir(gitDir), 'allowed_signers');

const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;

/** The verified commits, deduplicated; undefined when the repo was never installed (no file). */
export function readVerified(gitDir: string): string[] | undefined {
  let text: string;
  try {
    text = fs.readFileSync(verifiedFile(gitDir), 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw ioError('read the verified set', verifiedFile(gitDir), error);
  }
  // A line cut short by a crash mid-write is not an object id and is skipped: skipping only ever checks more.
  return [...new Set(text.split('\n').filter((l) => OID.test(l)))];
}

/** Adds commits to the verified set in one append (creating the file when `create`). */
export function appendVerified(gitDir: string, oids: readonly string[], create = false): void {
  const file = verifiedFile(gitDir);
  for (const oid of oids) if (!OID.test(oid)) throw new BusError('E_BAD_ARGS', `${JSON.stringify(oid)} is not a commit id`);
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_WRONLY | fs.constants.O_APPEND | (create ? fs.constants.O_CREAT : 0), 0o644);
  } catch (error) {
    throw ioError('open the verified set', file, error);
  }
  try {
    const data = Buffer.from(oids.map((o) => `${o}\n`).join(''));
    // One write call: O_APPEND places it whole at the end, whatever another push appends at the same time.
    const written = data.length === 0 ? 0 : fs.writeSync(fd, data);
    if (written !== data.length) throw new BusError('E_SHORT_WRITE', `wrote ${written} of ${data.length} bytes to ${file}`);
    fs.fsyncSync(fd);
  } finally {
    fs.closeSync(fd);
  }
}
