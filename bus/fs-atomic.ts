// Whole-file writes that a concurrent reader never sees half done: temp file +
// rename (replace) or temp file + link (exclusive create). Temps never outlive a call.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BusError, errnoOf, ioError } from './errors';

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
