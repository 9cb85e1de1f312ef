// One watched repo's state as clients see it: its log follower, packets, verdicts,
// annotation counts and per-task event folds, turned into TaskSummary views.
import type { PlacedEvent } from '../../bus/tail';
import type { PacketDir } from '../../bus/layout';
import type { SkippedLine } from '../../bus/event-log';
import type { RepoInfo, TaskSummary } from '../../protocol/wire/views';
import { LogIndex, type TailResult, taskOf } from './log-index';
import { PACKET_DIRS, PacketScan } from './packet-scan';
import { SideFiles } from './side-files';
import { emptyFold, foldEvent, type TaskFold } from './task-fold';
import { lifeOf } from './task-life';
import { hasRemote } from './repo-remotes';

/** Which parts of the bus changed since the last refresh. */
export interface Dirty {
  log: boolean;
  /** Packet dirs that changed: the file names fs.watch named, or 'all' to re-stat every packet. */
  dirs: Map<PacketDir, Set<string> | 'all'>;
  council: boolean;
  /** Task dirs under annotations/ that changed; 'all' to recount every one. */
  annotations: Set<string> | 'all';
}

export const allDirty = (): Dirty => ({ log: true, dirs: new Map(PACKET_DIRS.map((d) => [d, 'all'])), council: true, annotations: 'all' });
export const noneDirty = (): Dirty => ({ log: false, dirs: new Map(), council: false, annotations: new Set() });

export type ModelChange =
  /** New log lines (maybe none) and the summaries that changed with them or with the files. */
  | { kind: 'update'; events: PlacedEvent[]; tasks: TaskSummary[]; skipped: SkippedLine[]; removed: boolean }
  /** The log was truncated or replaced; the model was rebuilt from scratch. */
  | { kind: 'resync'; reason: string };

export class RepoModel {
  log: LogIndex;
  readonly packets: PacketScan;
  readonly side: SideFiles;
  private folds = new Map<string, TaskFold>();
  private summaries = new Map<string, TaskSummary>();
  private refreshing: Promise<void> | undefined;
  private pending: Dirty = noneDirty();

  /**
   * `emit` is called synchronously in the same step that moves the model, so a
   * reader that looks at the model between two steps never sees a change twice or misses one.
   */
  constructor(
    readonly info: RepoInfo,
    readonly bus: string,
    private readonly warn: (message: string) => void,
    private readonly emit: (change: ModelChange) => void = () => undefined,
  ) {
    this.log = new LogIndex(bus);
    this.packets = new PacketScan(bus, warn);
    this.side = new SideFiles(bus);
  }

  /** Marks parts dirty and refreshes once for a burst; concurrent calls share the work. */
  async refresh(dirty: Dirty): Promise<void> {
    merge(this.pending, dirty);
    while (this.refreshing) await this.refreshing;
    const work = this.pending;
    this.pending = noneDirty();
    if (isEmpty(work)) return;
    this.refreshing = this.apply(work);
    try {
      await this.refreshing;
    } finally {
      this.refreshing = undefined;
    }
  }

  private async apply(dirty: Dirty): Promise<void> {
    const touched = new Set<string>();
    let removed = false;
    // Destination before source: a packet moving inbox → claimed → done mid-scan is seen twice, never lost.
    for (const dir of (['done', 'claimed', 'inbox'] as const).filter((d) => dirty.dirs.has(d))) {
      for (const task of await this.packets.rescan(dir, dirty.dirs.get(dir))) touched.add(task);
    }
    // A task id gone from every state dir (deleted, not moved) cannot be said with bus.events.
    if (dirty.dirs.size > 0 && [...touched].some((t) => !this.packets.find(t))) removed = true;
    if (dirty.council) for (const task of this.side.rescanVerdicts()) touched.add(task);
    // Notes that came with the repository are not counted (ANNOT-6): git says which, before the recount.
    if (dirty.annotations === 'all' || dirty.annotations.size > 0) await this.side.refreshTracked();
    // From here on everything is synchronous: what clients see is one consistent step.
    const tail: TailResult = dirty.log ? this.log.poll() : { kind: 'events', events: [], skipped: [] };
    if (tail.kind === 'reset') {
      this.rebuildFromLog();
      this.emit({ kind: 'resync', reason: tail.reason });
      return;
    }
    const annotated = new Set<string>();
    for (const placed of tail.events) {
      const task = taskOf(placed.event);
      if (task === undefined) continue;
      foldEvent(this.foldOf(task), placed.event);
      touched.add(task);
      if (placed.event.event === 'task_annotation') annotated.add(task);
    }
    const recount = dirty.annotations === 'all' ? undefined : new Set([...dirty.annotations, ...annotated]);
    if (recount === undefined || recount.size > 0) for (const task of this.side.rescanAnnotations(recount)) touched.add(task);
    const tasks = this.resummarize(touched);
    if (removed) this.dropMissing();
    this.emit({ kind: 'update', events: tail.events, tasks, skipped: tail.skipped, removed });
  }

  /** Log truncated or replaced: forget every fold and read the new log from its start. */
  private rebuildFromLog(): void {
    this.log = new LogIndex(this.bus);
    this.folds = new Map();
    const tail = this.log.poll();
    if (tail.kind === 'events') for (const placed of tail.events) {
      const task = taskOf(placed.event);
      if (task !== undefined) foldEvent(this.foldOf(task), placed.event);
    }
    this.summaries = new Map();
    this.resummarize(this.packets.all().map((p) => p.id));
  }

  private foldOf(task: string): TaskFold {
    let fold = this.folds.get(task);
    if (!fold) this.folds.set(task, (fold = emptyFold()));
    return fold;
  }

  private resummarize(tasks: Iterable<string>): TaskSummary[] {
    const changed: TaskSummary[] = [];
    for (const task of tasks) {
      const summary = this.summarize(task);
      if (!summary) continue;
      this.summaries.set(task, summary);
      changed.push(summary);
    }
    return changed;
  }

  private dropMissing(): void {
    const live = new Set(this.packets.all().map((p) => p.id));
    for (const task of [...this.summaries.keys()]) if (!live.has(task)) this.summaries.delete(task);
  }

  /** The summary of a task with a packet on the bus, from what is in memory. */
  summarize(task: string): TaskSummary | undefined {
    const packet = this.packets.find(task);
    if (!packet) return undefined;
    const fold = this.folds.get(task) ?? emptyFold();
    const annotations = this.side.annotations.get(task) ?? { total: 0, unconsumed: 0 };
    const life = lifeOf(packet.state, fold);
    // A commit to finish: whether Push and Open pull request have somewhere to go (FINISH-10).
    const remote = life.commit && !life.merged ? hasRemote(this.info.path, life.commit.branch) : undefined;
    if (remote !== undefined) life.remote = remote;
    return {
      repo: this.info.id, id: task, file: packet.file, type: packet.type, scope: packet.scope, title: packet.title,
      state: packet.state, owner: packet.owner, blockedBy: packet.blockedBy,
      lastNote: fold.lastNote, lastEventTs: fold.lastEventTs, since: packet.since, verdict: this.side.verdicts.get(task) ?? null,
      annotations: { ...annotations },
      pendingApproval: packet.state === 'done' ? null : fold.pending,
      result: fold.result,
      life,
    };
  }

  summary(task: string): TaskSummary | undefined {
    return this.summaries.get(task);
  }

  tasks(): TaskSummary[] {
    return [...this.summaries.values()];
  }

  fold(task: string): TaskFold | undefined {
    return this.folds.get(task);
  }
}

function isEmpty(d: Dirty): boolean {
  return !d.log && d.dirs.size === 0 && !d.council && d.annotations !== 'all' && d.annotations.size === 0;
}

function merge(into: Dirty, from: Dirty): void {
  into.log ||= from.log;
  for (const [dir, names] of from.dirs) {
    const have = into.dirs.get(dir);
    if (have === 'all' || names === 'all') into.dirs.set(dir, 'all');
    else into.dirs.set(dir, new Set([...(have ?? []), ...names]));
  }
  into.council ||= from.council;
  if (into.annotations === 'all' || from.annotations === 'all') into.annotations = 'all';
  else for (const task of from.annotations) into.annotations.add(task);
}
