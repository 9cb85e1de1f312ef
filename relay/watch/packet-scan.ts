// The packets of a bus's inbox/claimed/done as the relay sees them, re-read only
// when a file is new or changed (keyed by inode, mtime and size: a rename is free).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { listPackets, parseClaimedName, readPacketFile, type PacketDir } from '../../bus/layout';
import { parsePacket } from '../../bus/packet';
import type { PacketFrontMatter, PacketType } from '../../protocol/bus/packet';

export const PACKET_DIRS: readonly PacketDir[] = ['inbox', 'claimed', 'done'];

export interface PacketEntry {
  state: PacketDir;
  file: string;
  id: string;
  type: PacketType;
  scope: string;
  title: string | null;
  blockedBy: string[];
  owner: string | null;
  /** The file's mtime (ISO); a rename between state dirs keeps it. */
  since: string;
}

interface Parsed { id: string; type: PacketType; scope: string; title: string | null; blockedBy: string[] }
type CacheValue = Parsed | { invalid: string };

export class PacketScan {
  private readonly cache = new Map<string, CacheValue>();
  private readonly keysByDir = new Map<PacketDir, Set<string>>();
  /** Current packets by state dir, by file name. */
  readonly dirs = new Map<PacketDir, Map<string, PacketEntry>>(PACKET_DIRS.map((d) => [d, new Map()]));
  /** The same packets by state dir, by task id (the last file name wins for a duplicated id). */
  private readonly ids = new Map<PacketDir, Map<string, PacketEntry>>(PACKET_DIRS.map((d) => [d, new Map()]));
  /** Files present but not (yet) valid, by state dir: maybe caught half-written, re-stat'ed on every poll (RESUME-2). */
  readonly invalid = new Map<PacketDir, Set<string>>(PACKET_DIRS.map((d) => [d, new Set()]));

  constructor(private readonly bus: string, private readonly warn: (message: string) => void) {}

  /**
   * Re-lists `dir` and returns the task ids whose packet appeared, changed or left it.
   * With `changed` names (from fs.watch), only new or named files are stat'ed; 'all' re-stats every one.
   */
  async rescan(dir: PacketDir, changed: Set<string> | 'all' = 'all'): Promise<Set<string>> {
    const before = this.dirs.get(dir)!;
    const next = new Map<string, PacketEntry>();
    const keys = changed === 'all' ? new Set<string>() : this.keysByDir.get(dir) ?? new Set<string>();
    const invalid = this.invalid.get(dir)!;
    // Synchronous stats and reads: for small files they cost a fifth of fs.promises' CPU.
    for (const file of listPackets(this.bus, dir)) {
      const known = before.get(file);
      const fresh = !(known && changed !== 'all' && !changed.has(file));
      if (!fresh) {
        next.set(file, known!);
        continue;
      }
      if (changed === 'all' || changed.has(file)) invalid.delete(file);
      const entry = await this.entry(dir, file, keys);
      if (entry === 'invalid') invalid.add(file);
      else if (entry) next.set(file, entry);
    }
    for (const file of invalid) if (!fs.existsSync(path.join(this.bus, dir, file))) invalid.delete(file);
    this.keysByDir.set(dir, keys);
    this.pruneCache();
    const touched = new Set<string>();
    for (const [file, entry] of next) if (!sameEntry(before.get(file), entry)) touched.add(entry.id);
    for (const [file, entry] of before) if (!next.has(file)) touched.add(entry.id);
    this.dirs.set(dir, next);
    this.ids.set(dir, new Map([...next.values()].map((e) => [e.id, e])));
    return touched;
  }

  /** The packet of `task`: done wins over claimed over inbox (a move in flight shows its newest place). */
  find(task: string): PacketEntry | undefined {
    return this.ids.get('done')!.get(task) ?? this.ids.get('claimed')!.get(task) ?? this.ids.get('inbox')!.get(task);
  }

  all(): PacketEntry[] {
    const byId = new Map<string, PacketEntry>();
    for (const dir of ['inbox', 'claimed', 'done'] as const) for (const entry of this.ids.get(dir)!.values()) byId.set(entry.id, entry);
    return [...byId.values()];
  }

  /** Forgets parsed packets no state dir holds any more, once they outnumber the live ones. */
  private pruneCache(): void {
    const live = new Set<string>();
    for (const keys of this.keysByDir.values()) for (const key of keys) live.add(key);
    if (this.cache.size <= 2 * live.size + 100) return;
    for (const key of [...this.cache.keys()]) if (!live.has(key)) this.cache.delete(key);
  }

  private async entry(dir: PacketDir, file: string, seenKeys: Set<string>): Promise<PacketEntry | 'invalid' | undefined> {
    const full = path.join(this.bus, dir, file);
    let stat: fs.Stats;
    try {
      stat = fs.statSync(full);
    } catch {
      return undefined; // moved away while listing; the next rescan sees its new place
    }
    const key = `${stat.ino}:${stat.mtimeMs}:${stat.size}`;
    seenKeys.add(key);
    let parsed = this.cache.get(key);
    if (!parsed) {
      parsed = await readPacket(full);
      this.cache.set(key, parsed);
      if ('invalid' in parsed) this.warn(`warning: packet ${full} is invalid and not shown: ${parsed.invalid}`);
    }
    if ('invalid' in parsed) return 'invalid';
    const owner = dir === 'inbox' ? null : ownerOf(file);
    return { state: dir, file, owner, since: new Date(stat.mtimeMs).toISOString(), ...parsed };
  }
}

function ownerOf(file: string): string | null {
  const parts = parseClaimedName(file);
  return parts ? `${parts.host}_${parts.pid}` : null;
}

function sameEntry(a: PacketEntry | undefined, b: PacketEntry): boolean {
  return a !== undefined && a.id === b.id && a.title === b.title && a.type === b.type && a.scope === b.scope && a.blockedBy.join() === b.blockedBy.join();
}

async function readPacket(full: string): Promise<CacheValue> {
  let text: string;
  try {
    // Never opens a FIFO for reading: a blocking read would stall the relay's event loop (PACKET-2).
    const read = readPacketFile(full);
    if (read === undefined) return { invalid: 'gone' };
    if (typeof read !== 'string') return { invalid: `${read.notFile}, not a regular file` };
    text = read;
  } catch (error) {
    return { invalid: error instanceof Error ? error.message : String(error) };
  }
  // The bus's own parser: its fast path for the common header, YAML for the rest (PACKET-1).
  const parsed = await parsePacket(text, { sections: false });
  return parsed.ok ? fromFront(parsed.front, parsed.body) : { invalid: parsed.reason };
}

function fromFront(front: PacketFrontMatter, body: string): Parsed {
  return { id: front.id, type: front.type, scope: front.scope, title: firstHeading(body), blockedBy: front['blocked-by'] };
}

export function firstHeading(body: string): string | null {
  const match = /^#{1,6}[ \t]+(.+?)[ \t#]*$/m.exec(body);
  return match ? match[1]!.trim() : null;
}
