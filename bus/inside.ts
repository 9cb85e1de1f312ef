// Bus writers never leave the bus (ID-SAFE-4). A repository can track a symbolic
// link as a bus directory (`.agents/council -> ../../victim`); a clone brings it
// along. So a directory a tool writes into is judged by its real path: it must
// resolve inside the real path of the bus, or nothing is written (no temp file
// either). Links that stay inside the bus are allowed: only the real path counts.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { BusError, errnoOf, ioError } from './errors';

function realBus(bus: string): string {
  try {
    return fs.realpathSync(bus);
  } catch (error) {
    throw ioError('resolve', bus, error);
  }
}

/** True when `real` is `root` or below it (both real, absolute paths). */
function within(root: string, real: string): boolean {
  const rel = path.relative(root, real);
  return rel === '' || (rel !== '..' && !rel.startsWith('..' + path.sep) && !path.isAbsolute(rel));
}

/** The real path of existing `dir`; E_BAD_PATH when it cannot be resolved or leads outside `root`. */
function checkInside(root: string, dir: string): string {
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch (error) {
    // A dangling or looping link (mkdir reported EEXIST, yet nothing resolves): never write through it.
    throw new BusError('E_BAD_PATH', `${dir} cannot be resolved (${errnoOf(error) ?? 'error'}); it may be a symbolic link, and the bus writes only inside ${root}`, { cause: error });
  }
  if (!within(root, real)) {
    throw new BusError('E_BAD_PATH', `${dir} leads outside the bus ${root} (it resolves to ${real}); refusing to write there: remove the symbolic link`);
  }
  return real;
}

/** Throws E_BAD_PATH unless the existing directory `dir` resolves inside the bus `bus`. */
export function assertInsideBus(bus: string, dir: string): void {
  checkInside(realBus(bus), dir);
}

/**
 * Creates `dir`, a directory below `bus`, one level at a time (a recursive mkdir
 * reports EROFS as ENOENT). Every level is resolved and checked before anything is
 * created in it, so a symlinked parent (`annotations -> /elsewhere`) cannot get even
 * an empty directory made outside the bus. mkdir(2) never follows a link in the last
 * component: an existing link only gives EEXIST, then the check refuses it.
 */
export function ensureBusDir(bus: string, dir: string): void {
  const root = realBus(bus);
  const base = path.resolve(bus);
  const rel = path.relative(base, path.resolve(dir));
  if (rel === '..' || rel.startsWith('..' + path.sep) || path.isAbsolute(rel)) {
    throw new BusError('E_BAD_PATH', `${dir} is not a directory of the bus ${base}`);
  }
  let current = base;
  for (const part of rel === '' ? [] : rel.split(path.sep)) {
    current = path.join(current, part);
    try {
      fs.mkdirSync(current);
    } catch (error) {
      if (errnoOf(error) !== 'EEXIST') throw ioError('create', current, error);
    }
    checkInside(root, current);
  }
}
