// Notices changes on one bus: fs.watch on `.agents/` and its directories, plus a
// 1 s stat poll because fs.watch can miss events (renamed dirs, network file systems).
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { PacketDir } from '../../bus/layout';
import { type Dirty, noneDirty } from './repo-model';

const PACKET_DIRS = new Set<string>(['inbox', 'claimed', 'done']);

export class BusWatcher {
  private watchers: fs.FSWatcher[] = [];
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
    this.startWatchers();
    this.lastStats = this.statLine();
    this.timer = setInterval(() => this.poll(), this.pollMs);
    this.timer.unref();
  }

  close(): void {
    this.stopWatchers();
    if (this.timer) clearInterval(this.timer);
  }

  private startWatchers(): void {
    this.watch(this.bus, (name) => this.mark(name === 'events.jsonl' || name === undefined ? 'log' : name));
    for (const dir of ['inbox', 'claimed', 'done', 'council'] as const) {
      this.watch(path.join(this.bus, dir), (name) => {
        this.heard.add(dir);
        this.mark(dir, name);
      });
    }
    this.watch(path.join(this.bus, 'annotations'), (name) => this.mark('annotations', name?.split(path.sep)[0]), true);
  }

  private stopWatchers(): void {
    for (const w of this.watchers) w.close();
    this.watchers = [];
  }

  private watch(dir: string, on: (name: string | undefined) => void, recursive = false): void {
    try {
      const w = fs.watch(dir, { persistent: false, recursive }, (_type, name) => on(name ?? undefined));
      w.on('error', () => undefined); // a vanished dir is noticed by the poll
      this.watchers.push(w);
    } catch {
      // The directory does not exist yet (council/, annotations/ appear later): the poll covers it.
    }
  }

  /** `name`: the file fs.watch named inside the part (a packet file, an annotation task dir), if any. */
  private mark(part: string, name?: string): void {
    const dirty = (this.dirty ??= noneDirty());
    if (part === 'log' || part === 'events.jsonl') dirty.log = true;
    else if (PACKET_DIRS.has(part)) {
      const dir = part as PacketDir;
      const names = dirty.dirs.get(dir);
      if (name === undefined || names === 'all') dirty.dirs.set(dir, 'all');
      else dirty.dirs.set(dir, new Set([...(names ?? []), name]));
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
  /** Packet dirs fs.watch reported since the last poll: their stat moving is already handled. */
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
    let moved = false;
    for (const [name, stamp] of stats) {
      if (this.lastStats.get(name) === stamp) continue;
      moved = true;
      // A packet dir that moved with no watch event: fs.watch missed it, so re-stat all its packets.
      if (!PACKET_DIRS.has(name) || !this.heard.has(name)) this.mark(name === 'events.jsonl' ? 'log' : name);
    }
    this.lastStats = stats;
    this.heard.clear();
    for (const [dir, files] of this.recheck()) for (const file of files) this.mark(dir, file);
    // Directories that appeared since start (council/, annotations/) get their watchers now.
    if (moved && this.watchers.length < 6) {
      this.stopWatchers();
      this.startWatchers();
    }
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
