// Relay-private files under the data dir: whole-file JSON writes that a reader
// (another process, e.g. `commandr devices revoke`) never sees half done.
import * as fs from 'node:fs';
import * as path from 'node:path';

let counter = 0;

/** Creates `dir` (and parents) private to the user. */
export function ensurePrivateDir(dir: string): void {
  fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/**
 * Replaces `file` atomically, mode 0600: temp file, fsync, rename (LIMIT-4), so a
 * crash leaves the old secret or the new one, never an empty or torn file.
 */
export function writePrivateFile(file: string, data: string): void {
  ensurePrivateDir(path.dirname(file));
  counter += 1;
  const temp = path.join(path.dirname(file), `.${path.basename(file)}.${process.pid}.${counter}.tmp`);
  try {
    const fd = fs.openSync(temp, 'wx', 0o600);
    try {
      fs.writeFileSync(fd, data);
      fs.fsyncSync(fd);
    } finally {
      fs.closeSync(fd);
    }
    fs.renameSync(temp, file);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}

/** Reads and parses a JSON file; `undefined` when it does not exist. */
export function readJsonFile(file: string): unknown {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw error;
  }
  return JSON.parse(text);
}
