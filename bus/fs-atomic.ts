// Whole-file writes that a concurrent reader never sees half done: temp file +
// rename (replace) or temp file + link (exclusive create). Temps never outlive a call,
// except when the writer is killed mid-call: those are swept (LIMIT-4) by the next
// write into the same directory and by the relay at start.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BusError, errnoOf, ioError } from './errors';

/** `.<name>.<pid>.<n>.tmp`, the temp names this module and relay/devices/files.ts make. */
const TEMP_NAME = /^\..+\.(\d+)\.\d+\.tmp$/;

function processIsAlive(pid: number): boolean {
  if (pid === process.pid) return true;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return errnoOf(error) === 'EPERM'; // alive, owned by someone else
  }
}

/**
 * Removes temp files of processes that no longer exist from `dir` (and, with
 * `recursive`, its subdirectories, skipping `skip` names); returns how many.
 * A temp whose pid is alive is left alone: its writer may still rename it.
 */
export function sweepStaleTemps(dir: string, options: { recursive?: boolean; skip?: ReadonlySet<string> } = {}): number {
  let entries: fs.Dirent[];
  try {
    entries = fs.readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0; // missing or unreadable: nothing of ours to sweep
  }
  let removed = 0;
  for (const entry of entries) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (options.recursive && !options.skip?.has(entry.name)) removed += sweepStaleTemps(full, options);
      continue;
    }
    const pid = TEMP_NAME.exec(entry.name)?.[1];
    if (!entry.isFile() || pid === undefined || processIsAlive(Number(pid))) continue;
    try {
      fs.rmSync(full);
      removed += 1;
    } catch {
      // another sweeper got there first
    }
  }
  return removed;
}

/** Directories a start-up sweep never walks into (checkouts, not our files). */
export const SWEEP_SKIP: ReadonlySet<string> = new Set(['.git', 'node_modules', 'worktrees']);

const swept = new Set<string>();
/** Sweeps a directory the first time this process writes into it (cheap: one readdir). */
function sweepOnce(dir: string): void {
  if (swept.has(dir)) return;
  swept.add(dir);
  sweepStaleTemps(dir);
}

let counter = 0;
function tempBeside(target: string): string {
  counter += 1;
  return path.join(path.dirname(target), `.${path.basename(target)}.${process.pid}.${counter}.tmp`);
}

function writeTemp(temp: string, data: string | Buffer, mode: number, durable: boolean): void {
  const fd = fs.openSync(temp, 'wx', mode);
  try {
    fs.writeFileSync(fd, data);
    if (durable) fs.fsyncSync(fd);
  } catch (error) {
    fs.closeSync(fd);
    fs.rmSync(temp, { force: true });
    throw error;
  }
  fs.closeSync(fd);
}

/**
 * Replaces `target` atomically with `data`. `durable: false` skips the fsync, for
 * derived caches that are rebuilt anyway (a crash may leave the old content).
 */
export function writeFileAtomic(target: string, data: string | Buffer, mode = 0o644, durable = true): void {
  withTemp(target, data, mode, 'write', (temp) => fs.renameSync(temp, target), durable);
}

/**
 * Creates `target` with `data` only if it does not exist yet; the name appears
 * with its full content or not at all. Throws E_EXISTS when the name is taken.
 */
export function createFileExclusive(target: string, data: string | Buffer, mode = 0o644): void {
  withTemp(target, data, mode, 'create', (temp) => {
    try {
      fs.linkSync(temp, target);
    } catch (error) {
      if (errnoOf(error) === 'EEXIST') throw new BusError('E_EXISTS', `${target} already exists`, { cause: error });
      throw error;
    }
  });
}

function withTemp(target: string, data: string | Buffer, mode: number, what: string, publish: (temp: string) => void, durable = true): void {
  sweepOnce(path.dirname(target));
  const temp = tempBeside(target);
  try {
    writeTemp(temp, data, mode, durable);
  } catch (error) {
    throw ioError(what, target, error);
  }
  try {
    publish(temp);
  } catch (error) {
    if (error instanceof BusError) throw error;
    throw ioError(what, target, error);
  } finally {
    fs.rmSync(temp, { force: true });
  }
}
