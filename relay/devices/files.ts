// Relay-private files under the data dir: whole-file JSON writes that a reader
// (another process, e.g. `commandr devices revoke`) never sees half done.
import * as fs from 'node:fs';
import * as path from 'node:path';

let counter = 0;

/**
 * The relay's data dir, made or checked (SERVE-3): made 0700 when missing; one that exists must
 * be a directory owned by the user the relay runs as (anyone who owns it can plant the hook
 * credential or relay.json the hooks trust), and any access it gives group or others is taken
 * away, saying so once. Throws a TypeError naming the directory otherwise, having changed nothing.
 */
export function claimDataDir(dir: string, warn: (message: string) => void): void {
  ensurePrivateDir(dir);
  const st = fs.statSync(dir);
  if (!st.isDirectory()) throw new TypeError(`data dir ${dir} is not a directory`);
  const uid = process.getuid?.();
  if (uid !== undefined && st.uid !== uid) {
    throw new TypeError(`data dir ${dir} belongs to uid ${st.uid}, not to the user the relay runs as (uid ${uid}): whoever owns it could plant the credentials hooks trust; set COMMANDR_HOME to a directory of your own`);
  }
  const loose = st.mode & 0o077;
  if (loose !== 0 && process.platform !== 'win32') {
    fs.chmodSync(dir, st.mode & 0o700);
    warn(`data dir ${dir} was mode ${(st.mode & 0o777).toString(8).padStart(4, '0')}; made ${(st.mode & 0o700).toString(8).padStart(4, '0')}, so no other user reads or changes the relay's credentials`);
  }
}

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

/**
 * Forgets the one-time codes in `dir` (pairing codes, fleet join codes: `{expiresAt}` files named by
 * the code's hash) whose time is up or that cannot be read, and the temp or claimed files a process
 * that died mid-call left there (a `.` in the name) once they are a minute old.
 */
export function pruneExpiredCodes(dir: string, now: number): void {
  ensurePrivateDir(dir);
  for (const name of fs.readdirSync(dir)) {
    const file = path.join(dir, name);
    try {
      if (name.includes('.')) {
        if (fs.statSync(file).mtimeMs < now - 60_000) fs.rmSync(file, { force: true });
        continue;
      }
      const record = readJsonFile(file) as { expiresAt?: unknown } | undefined;
      if (typeof record?.expiresAt !== 'number' || record.expiresAt < now) fs.rmSync(file, { force: true });
    } catch {
      /* vanished or unreadable: another process is handling it */
    }
  }
}

/** A lock older than this is left by a holder that died: no read and rewrite of a small file takes so long. */
const STALE_LOCK_MS = 10_000;
/** How long a writer waits for another process's lock before giving up with an error naming it. */
const LOCK_WAIT_MS = 5_000;
const pause = new Int32Array(new SharedArrayBuffer(4));

/**
 * Runs `fn` holding `<file>.lock` (exclusive create, this process's pid inside), so the
 * read-modify-writes of two processes sharing `file` (the relay and `commandr devices …`)
 * never interleave: without it, one's rewrite could bring back a device the other had just
 * revoked (DEV-2). A lock whose holder is gone, or older than STALE_LOCK_MS, is taken over.
 */
export function withFileLock<T>(file: string, fn: () => T): T {
  const lock = `${file}.lock`;
  ensurePrivateDir(path.dirname(file));
  const deadline = Date.now() + LOCK_WAIT_MS;
  for (;;) {
    try {
      const fd = fs.openSync(lock, 'wx', 0o600);
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      if (staleLock(lock)) {
        fs.rmSync(lock, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`${lock} is held by another process; remove it if no relay or commandr command is running`);
      Atomics.wait(pause, 0, 0, 2);
    }
  }
  try {
    return fn();
  } finally {
    fs.rmSync(lock, { force: true });
  }
}

function staleLock(lock: string): boolean {
  try {
    const age = Date.now() - fs.statSync(lock).mtimeMs;
    const pid = Number(fs.readFileSync(lock, 'utf8'));
    if (age > STALE_LOCK_MS) return true;
    if (!Number.isInteger(pid) || pid <= 0) return age > 1_000; // being written, or torn by a crash
    process.kill(pid, 0);
    return false;
  } catch (error) {
    // ESRCH: its holder is gone. ENOENT: released meanwhile (try again); EPERM: another user's live process.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}
