// Claiming (CLAIM-n, BLOCKED-BY-n): take the first claimable inbox packet with one
// rename(2); racing claimers need no lock because only one rename can win.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errnoOf, ioError } from './errors';
import { appendEvent } from './event-log';
import { assertBus, claimHost, listPackets } from './layout';
import { parsePacket } from './packet';

export interface Claimed {
  /** Absolute path of the packet in `claimed/`. */
  path: string;
  task: string;
  content: string;
}

export interface ClaimOptions {
  host?: string;
  pid?: number;
  /** Receives one sentence per skipped packet or missing section. */
  warn?: (message: string) => void;
}

/** Claims the first claimable packet, or returns undefined when none is. */
export async function claimNext(bus: string, options: ClaimOptions = {}): Promise<Claimed | undefined> {
  assertBus(bus);
  const host = claimHost(options.host ?? os.hostname());
  const pid = options.pid ?? process.pid;
  const warn = options.warn ?? (() => {});
  const doneIds = lazyDoneIds(bus);
  for (const name of listPackets(bus, 'inbox')) {
    const source = path.join(bus, 'inbox', name);
    const content = readIfPresent(source);
    if (content === undefined) continue;
    const packet = await parsePacket(content);
    if (!packet.ok) {
      warn(`skipped invalid packet ${source}: ${packet.reason}`);
      continue;
    }
    const blockers = packet.front['blocked-by'];
    const done = blockers.length > 0 ? await doneIds() : undefined;
    const waiting = blockers.filter((id) => !done?.has(id));
    if (waiting.length > 0) {
      warn(`skipped ${source}: task ${packet.front.id} is blocked by ${waiting.join(', ')} (not in done/)`);
      continue;
    }
    const target = path.join(bus, 'claimed', `${host}_${pid}_${name}`);
    if (!renameIfPresent(source, target)) continue;
    if (packet.missingSections.length > 0) {
      warn(`warning: ${target} lacks the section(s) ${packet.missingSections.map((s) => `"${s}"`).join(', ')}`);
    }
    try {
      appendEvent(bus, { event: 'task_claimed', task: packet.front.id, agent: `${host}_${pid}`, machine: host });
    } catch (error) {
      // An unlogged claim would strand the packet: put it back where it was.
      renameIfPresent(target, source);
      throw error;
    }
    return { path: target, task: packet.front.id, content };
  }
  return undefined;
}

function readIfPresent(file: string): string | undefined {
  try {
    return fs.readFileSync(file, 'utf8');
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return undefined;
    throw ioError('read', file, error);
  }
}

/** The rename is the claim: ENOENT means another claimer won this packet. */
function renameIfPresent(source: string, target: string): boolean {
  try {
    fs.renameSync(source, target);
    return true;
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return false;
    throw ioError('claim', source, error);
  }
}

/** Ids of the packets in `done/`, read once and only if some packet is blocked. */
function lazyDoneIds(bus: string): () => Promise<Set<string>> {
  let ids: Promise<Set<string>> | undefined;
  return () => (ids ??= packetIds(bus, 'done'));
}

export async function packetIds(bus: string, dir: 'inbox' | 'claimed' | 'done'): Promise<Set<string>> {
  const ids = new Set<string>();
  for (const name of listPackets(bus, dir)) {
    const content = readIfPresent(path.join(bus, dir, name));
    if (content === undefined) continue;
    const packet = await parsePacket(content);
    if (packet.ok) ids.add(packet.front.id);
  }
  return ids;
}
