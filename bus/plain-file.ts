// Reading a file an agent may have replaced (GITREAD-1, ANNOT-7, SANDBOX-18, CMDR-DIR-3): a
// worktree's `.git`, its git dir's `HEAD`, a note, a commander's CLAUDE.md. The relay reads them
// synchronously, outside any sandbox, and opening a FIFO for reading waits for a writer, so a FIFO
// in their place would stop the relay for good: each is read only when it is a regular file of
// bounded size, and opened without waiting; where a link must not be followed, it is not.
import * as fs from 'node:fs';

export interface PlainRead {
  /** Whether a symbolic link is followed (default) or makes the file unreadable (a link an agent left). */
  followLinks?: boolean;
}

/** The bytes of `file` when it is a regular file of at most `maxBytes`; else undefined. */
export function readPlainFile(file: string, maxBytes = 1024 * 1024, how: PlainRead = {}): Buffer | undefined {
  const follow = how.followLinks !== false;
  if (!isPlain(file, follow)) return undefined;
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK | (follow ? 0 : fs.constants.O_NOFOLLOW));
  } catch {
    return undefined;
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile() || stat.size > maxBytes) return undefined;
    // One byte more than it holds: a file that grew while read (or past the bound) is not taken.
    const buffer = Buffer.alloc(stat.size + 1);
    let length = 0;
    for (let n; length < buffer.length && (n = fs.readSync(fd, buffer, length, buffer.length - length, null)) > 0; ) length += n;
    return length === buffer.length ? undefined : buffer.subarray(0, length);
  } catch {
    return undefined;
  } finally {
    fs.closeSync(fd);
  }
}

/** readPlainFile as UTF-8 text. */
export function readPlainText(file: string, maxBytes?: number, how?: PlainRead): string | undefined {
  return readPlainFile(file, maxBytes, how)?.toString('utf8');
}

/**
 * Checked before the open (which then checks again, for a file swapped in between): a FIFO is not
 * even opened without waiting, since that open alone would let a writer blocked on it go on.
 */
function isPlain(file: string, follow = true): boolean {
  return (follow ? fs.statSync : fs.lstatSync)(file, { throwIfNoEntry: false })?.isFile() === true;
}

/** Whether nothing is at `file` (not even a dangling link): a missing file, as opposed to one that is not plain. */
export function isMissing(file: string): boolean {
  return fs.lstatSync(file, { throwIfNoEntry: false }) === undefined;
}

/** Copies `src` to the new file `dest` (mode 0600) only when it is a regular file, opened without waiting; whether it did. */
export function copyPlainFile(src: string, dest: string): boolean {
  if (!isPlain(src)) return false;
  let fd: number;
  try {
    fd = fs.openSync(src, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch {
    return false;
  }
  try {
    if (!fs.fstatSync(fd).isFile()) return false;
    const out = fs.openSync(dest, 'wx', 0o600);
    try {
      const chunk = Buffer.alloc(1024 * 1024);
      for (let n; (n = fs.readSync(fd, chunk, 0, chunk.length, null)) > 0; ) fs.writeSync(out, chunk, 0, n);
    } finally {
      fs.closeSync(out);
    }
    return true;
  } finally {
    fs.closeSync(fd);
  }
}
