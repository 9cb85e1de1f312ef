// The bus's shape: its directories, file-name rules and safe path building
// (LAYOUT-n, ID-SAFE-n). Every other module builds bus paths through here.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { isTaskId } from '../protocol/bus/ids';
import { BusError, errnoOf, ioError } from './errors';

export const REQUIRED_DIRS = ['inbox', 'claimed', 'done', 'approvals'] as const;
export const OPTIONAL_DIRS = ['council', 'annotations'] as const;
export type PacketDir = 'inbox' | 'claimed' | 'done';

/** The lines `.gitignore` must carry, verbatim. */
export const GITIGNORE_LINES = [
  '.agents/claimed/',
  '.agents/approvals/',
  '.agents/events.jsonl',
  '.agents/council/',
  '.agents/annotations/',
] as const;

export const EVENTS_FILE = 'events.jsonl';

/** Throws E_BUS_MISSING_DIR naming the first required directory that is missing. */
export function assertBus(bus: string): void {
  for (const dir of REQUIRED_DIRS) {
    const full = path.join(bus, dir);
    let ok = false;
    try {
      ok = fs.statSync(full).isDirectory();
    } catch {
      ok = false;
    }
    if (!ok) throw new BusError('E_BUS_MISSING_DIR', `bus directory ${full} is missing (run \`commandr init\`)`);
  }
}

/** Throws E_BAD_ID unless `id` matches the task id pattern. */
export function assertTaskId(id: unknown, what = 'task id'): asserts id is string {
  if (!isTaskId(id)) {
    throw new BusError('E_BAD_ID', `${what} ${JSON.stringify(id)} is invalid: it must match ^[A-Za-z0-9][A-Za-z0-9._-]{0,127}$`);
  }
}

export const eventsPath = (bus: string): string => path.join(bus, EVENTS_FILE);
export const tokenPath = (bus: string, task: string): string => {
  assertTaskId(task);
  return path.join(bus, 'approvals', `${task}.approved`);
};
export const annotationsDir = (bus: string, task: string): string => {
  assertTaskId(task);
  return path.join(bus, 'annotations', task);
};
export const verdictPath = (bus: string, task: string): string => {
  assertTaskId(task);
  return path.join(bus, 'council', `${task}.json`);
};

/** Packet files of a directory in file-name order; a missing dir is empty. */
export function listPackets(bus: string, dir: PacketDir): string[] {
  let names: string[];
  try {
    names = fs.readdirSync(path.join(bus, dir));
  } catch {
    return [];
  }
  return names.filter((n) => n.endsWith('.md') && !n.startsWith('.')).sort();
}

/** Why a `*.md` entry is no packet file: it is not a regular file. */
export interface NotAFile { notFile: string }

/**
 * A packet file's text. Never blocks on a FIFO or device (opened with O_NONBLOCK,
 * read only when fstat says it is a regular file): `{ notFile }` names what it is
 * instead; undefined when it is gone (another claimer moved it).
 */
export function readPacketFile(file: string): string | undefined | NotAFile {
  const bytes = readPacketBytes(file);
  return Buffer.isBuffer(bytes) ? bytes.toString('utf8') : bytes;
}

/** readPacketFile's bytes, undecoded: what `claim` prints verbatim (CLAIM-4). */
export function readPacketBytes(file: string): Buffer | undefined | NotAFile {
  let fd: number;
  try {
    fd = fs.openSync(file, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK);
  } catch (error) {
    const code = errnoOf(error);
    if (code === 'ENOENT') return undefined;
    if (code === 'ENXIO') return { notFile: 'a socket' };
    if (code === 'EISDIR') return { notFile: 'a directory' };
    throw ioError('read', file, error);
  }
  try {
    const stat = fs.fstatSync(fd);
    if (!stat.isFile()) return { notFile: stat.isDirectory() ? 'a directory' : stat.isFIFO() ? 'a FIFO' : 'not a regular file' };
    return fs.readFileSync(fd);
  } catch (error) {
    throw ioError('read', file, error);
  } finally {
    fs.closeSync(fd);
  }
}

/** `{host}_{pid}_{file}` split at most twice from the left. */
export function parseClaimedName(name: string): { host: string; pid: string; file: string } | undefined {
  const first = name.indexOf('_');
  const second = first < 0 ? -1 : name.indexOf('_', first + 1);
  if (first <= 0 || second <= first + 1 || second === name.length - 1) return undefined;
  return { host: name.slice(0, first), pid: name.slice(first + 1, second), file: name.slice(second + 1) };
}

/** The host name as it appears in claimed file names: every `_` becomes `-`. */
export function claimHost(hostname: string): string {
  return hostname.replace(/_/g, '-');
}

/**
 * Resolves a client-supplied relative path inside `root`; rejects absolute
 * paths, `..` segments, NUL bytes and anything resolving outside `root`.
 */
export function safeJoin(root: string, relative: string): string {
  if (relative.length === 0 || relative.includes('\0') || path.isAbsolute(relative) || relative.split(/[\\/]/).includes('..')) {
    throw new BusError('E_BAD_PATH', `path ${JSON.stringify(relative)} is not a plain relative path inside ${root}`);
  }
  const full = path.resolve(root, relative);
  if (full !== root && !full.startsWith(root + path.sep)) {
    throw new BusError('E_BAD_PATH', `path ${JSON.stringify(relative)} escapes ${root}`);
  }
  return full;
}
