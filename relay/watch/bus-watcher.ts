// Notices changes on one bus: fs.watch on `.agents/` and its directories, plus a
// 1 s stat poll because fs.watch can miss events (renamed dirs, network file systems).
// A watcher is started once per directory and replaced only when its directory is
// (a new inode): closing a watcher drops the events still queued for it (WATCH-7).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PacketDir } from '../../bus/layout';
import { type Dirty, noneDirty } from './repo-model';

const PACKET_DIRS = new Set<string>(['inbox', 'claimed', 'done']);
/** The bus's subdirectories with a watcher of their own; `annotations` is watched recursively. */
const WATCHED_DIRS = ['inbox', 'claimed', 'done', 'council', 'annotations'] as const;

export class BusWatcher {
  /** The bus directory's watcher, and each subdirectory's with the inode it watches. */
  private busWatcher: fs.FSWatcher | undefined;
  private readonly watchers = new Map<(typeof WATCHED_DIRS)[number], { watcher: fs.FSWatcher; ino: string }>();
  private timer: NodeJS.Timeout | undefined;
  private lastStats = new Map<string, string>();
  private dirty: Dirty | undefined;

  /** `onDirty` gets one merged Dirty per burst (coalesced to the next turn of the event loop). */
  /**
   * `recheck` names packet files to re-stat on every poll whatever the directory stats say:
   * files caught half-written, whose later writes move no directory stat (RESUME-2).
   */
  constructor(
    private readonly bus: string,
    private readonly onDirty: (dirty: Dirty) => void,
    private readonly pollMs = 1000,
    private readonly recheck: () => Map<PacketDir, Set<string>> = () => new Map(),
  ) {}

  start(): void {
    this.busWatcher = this.watch(this.bus, (name) => this.mark(name === 'events.jsonl' || name === undefined ? 'log' : name));
    this.lastStats = this.statLine();
    this.ensureWatchers(this.lastStats);
    this.timer = setInterval(() => this.poll(), this.pollMs);
    this.timer.unref();
  }

  close(): void {
    this.busWatcher?.close();
    for (const { watcher } of this.watchers.values()) watcher.close();
    this.watchers.clear();
    if (this.timer) clearInterval(this.timer);
  }

  /**
   * Starts a watcher for each subdirectory that has none or whose inode changed (council/ and
   * annotations/ appear later; a replaced directory's old watcher watches nothing). A watcher
   * whose directory is the same is never restarted: that would drop the events queued for it.
   */
  private ensureWatchers(stats: Map<string, string>): void {
    for (const dir of WATCHED_DIRS) {
      const ino = (stats.get(dir) ?? '-').split(':')[0]!;
      const have = this.watchers.get(dir);
      if (have?.ino === ino) continue;
      have?.watcher.close();
      this.watchers.delete(dir);
      if (ino === '-') continue;
      const watcher = dir === 'annotations'
        ? this.watch(path.join(this.bus, dir), (name) => this.mark('annotations', name?.split(path.sep)[0]), true)
        : this.watch(path.join(this.bus, dir), (name) => {
          this.heard.add(dir);
          this.mark(dir, name);
        });
      if (watcher) this.watchers.set(dir, { watcher, ino });
    }
  }

  private watch(dir: string, on: (name: string | undefined) => void, recursive = false): fs.FSWatcher | undefined {
    try {
      const w = fs.watch(dir, { persistent: false, recursive }, (_type, name) => on(name ?? undefined));
      w.on('error', () => undefined); // a vanished dir is noticed by the poll
      return w;
    } catch {
      return undefined; // the directory does not exist (yet): the poll covers it
    }
  }

  /**
   * `name`: the file fs.watch named inside the part (a packet file, an annotation task dir), if any;
   * for a packet dir, `null` asks only for a new listing (files that came or went) and no re-stat.
   */
  private mark(part: string, name?: string | null): void {
    const dirty = (this.dirty ??= noneDirty());
    if (part === 'log' || part === 'events.jsonl') dirty.log = true;
    else if (PACKET_DIRS.has(part)) {
      const dir = part as PacketDir;
      const names = dirty.dirs.get(dir);
      if (name === undefined || names === 'all') dirty.dirs.set(dir, 'all');
      else dirty.dirs.set(dir, new Set([...(names ?? []), ...(name === null ? [] : [name])]));
    }
    else if (part === 'council') dirty.council = true;
    else if (part === 'annotations') {
      if (name && dirty.annotations !== 'all') dirty.annotations.add(name);
      else dirty.annotations = 'all';
    }
    if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => this.flush());
    }
  }

  private scheduled = false;
  /** Packet dirs fs.watch reported since the last poll: their named files were re-read. */
  private readonly heard = new Set<string>();

  private flush(): void {
    this.scheduled = false;
    const dirty = this.dirty;
    this.dirty = undefined;
    if (dirty) this.onDirty(dirty);
  }

  /** One stat per watched entry; only the parts whose stat moved are marked dirty. */
  private poll(): void {
    const stats = this.statLine();
    for (const [name, stamp] of stats) {
      if (this.lastStats.get(name) === stamp) continue;
      // A packet dir that moved with no watch event: fs.watch missed it, so re-stat all its packets.
      // One that moved with events is listed again all the same: an event heard earlier in the
      // second says nothing of a later move whose event was lost (WATCH-7).
      if (PACKET_DIRS.has(name) && this.heard.has(name)) this.mark(name, null);
      else this.mark(name === 'events.jsonl' ? 'log' : name);
    }
    this.lastStats = stats;
    this.heard.clear();
    for (const [dir, files] of this.recheck()) for (const file of files) this.mark(dir, file);
    this.ensureWatchers(stats);
  }

  private statLine(): Map<string, string> {
    const stamps = new Map<string, string>();
    for (const name of ['events.jsonl', 'inbox', 'claimed', 'done', 'council', 'annotations']) {
      try {
        const s = fs.statSync(path.join(this.bus, name), { bigint: true });
        stamps.set(name, `${s.ino}:${s.size}:${s.mtimeNs}`);
      } catch {
        stamps.set(name, '-');
      }
    }
    return stamps;
  }
}
