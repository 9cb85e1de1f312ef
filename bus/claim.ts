// Claiming (CLAIM-n, BLOCKED-BY-n): take the first claimable inbox packet with one
// rename(2); racing claimers need no lock because only one rename can win.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { errnoOf, ioError } from './errors';
import { appendEvent } from './event-log';
import { assertBus, claimHost, listPackets, readPacketBytes, readPacketFile } from './layout';
import { parsePacket } from './packet';

export interface Claimed {
  /** Absolute path of the packet in `claimed/`. */
  path: string;
  task: string;
  content: string;
  /** The packet's bytes as claimed (`content` is their UTF-8 reading): printed verbatim (CLAIM-4). */
  bytes: Buffer;
}

export interface ClaimOptions {
  host?: string;
  pid?: number;
  /** Receives one sentence per skipped packet or missing section. */
  warn?: (message: string) => void;
}

/** Claims the first claimable packet, or returns undefined when none is. */
export async function claimNext(bus: string, options: ClaimOptions = {}): Promise<Claimed | undefined> {
  return createClaimer(bus, options).next();
}

export interface Claimer {
  /** Claims the next claimable packet; undefined once a fresh listing has nothing claimable. */
  next(): Promise<Claimed | undefined>;
}

/**
 * A claimer for a process that claims many packets: it walks one sorted listing
 * of inbox/ and lists again only when that is used up, instead of once per claim.
 * Each skipped packet is reported once per claimer.
 */
export function createClaimer(bus: string, options: ClaimOptions = {}): Claimer {
  const who = { host: claimHost(options.host ?? os.hostname()), pid: options.pid ?? process.pid };
  const reported = new Set<string>();
  const warn = (name: string, message: string): void => {
    if (reported.has(name)) return;
    reported.add(name);
    options.warn?.(message);
  };
  let queue: string[] = [];
  let at = 0;
  let doneIds = lazyDoneIds(bus);
  return {
    async next() {
      let listed = false;
      for (;;) {
        if (at >= queue.length) {
          if (listed) return undefined;
          assertBus(bus);
          queue = listPackets(bus, 'inbox');
          at = 0;
          doneIds = lazyDoneIds(bus);
          listed = true;
          continue;
        }
        const claimed = await tryClaim(bus, queue[at++]!, who, doneIds, warn);
        if (claimed) return claimed;
      }
    },
  };
}

/** One packet: read, validate, check blockers, rename, log. Undefined = not claimed by us. */
async function tryClaim(
  bus: string,
  name: string,
  who: { host: string; pid: number },
  doneIds: () => Promise<Set<string>>,
  warn: (name: string, message: string) => void,
): Promise<Claimed | undefined> {
  const source = path.join(bus, 'inbox', name);
  if (/[\x00-\x1f\x7f]/.test(name)) {
    // PACKET-2: a line break in the name would end claim's `claimed:<path>` line early and put the rest
    // of the name where an agent reads the packet; the name is reported quoted, never printed raw.
    warn(name, `skipped invalid packet ${JSON.stringify(source)}: its file name holds a control character`);
    return undefined;
  }
  const bytes = readPacketBytes(source);
  if (bytes === undefined) return undefined;
  if (!Buffer.isBuffer(bytes)) {
    // PACKET-2: reported, left in place, and the claim goes on (a FIFO is never opened for reading).
    warn(name, `skipped invalid packet ${source}: ${bytes.notFile}, not a regular file`);
    return undefined;
  }
  const content = bytes.toString('utf8');
  const packet = await parsePacket(content);
  if (!packet.ok) {
    warn(name, `skipped invalid packet ${source}: ${packet.reason}`);
    return undefined;
  }
  const blockers = packet.front['blocked-by'];
  const done = blockers.length > 0 ? await doneIds() : undefined;
  const waiting = blockers.filter((id) => !done?.has(id));
  if (waiting.length > 0) {
    warn(name, `skipped ${source}: task ${packet.front.id} is blocked by ${waiting.join(', ')} (not in done/)`);
    return undefined;
  }
  const target = path.join(bus, 'claimed', `${who.host}_${who.pid}_${name}`);
  if (!renameIfPresent(source, target)) return undefined;
  if (packet.missingSections.length > 0) {
    warn(target, `warning: ${target} lacks the section(s) ${packet.missingSections.map((s) => `"${s}"`).join(', ')}`);
  }
  try {
    appendEvent(bus, { event: 'task_claimed', task: packet.front.id, agent: `${who.host}_${who.pid}`, machine: who.host });
  } catch (error) {
    // An unlogged claim would strand the packet: put it back where it was.
    renameIfPresent(target, source);
    throw error;
  }
  return { path: target, task: packet.front.id, content, bytes };
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
    const content = readPacketFile(path.join(bus, dir, name));
    if (typeof content !== 'string') continue;
    const packet = await parsePacket(content);
    if (packet.ok) ids.add(packet.front.id);
  }
  return ids;
}
