// RepoHub: every watched repo's model and watcher, the registry kept in sync, and
// one stream of changes for the relay: `events` (bus.events frames), `snapshot`
// (repo.snapshot, resync after a truncated/replaced log), `removed`, and `bus-event` for push triggers.
import { SWEEP_SKIP, sweepStaleTemps } from '../../bus/fs-atomic';
import { EventEmitter } from 'node:events';
import * as fs from 'node:fs';
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { RepoInfo, TaskSummary } from '../../protocol/wire/views';
import type { Logger } from '../options';
import { BusWatcher } from './bus-watcher';
import { type BusEventsFrame, type SnapshotFrames, eventFrames, snapshotFrames } from './frames';
import { taskOf } from './log-index';
import { placeOf, readRegistry, type RepoPlace } from './registry';
import { type ModelChange, RepoModel, allDirty, noneDirty } from './repo-model';
import { InFlight } from '../in-flight';

export interface RepoHubOptions {
  dataDir: string;
  repos: string[];
  registryFile: string;
  /** Show the demo workspace when no repo is registered or given. */
  demo: boolean;
  log: Logger;
  pollMs?: number;
  /** Creates the demo workspace and returns its repo path (relay/demo). */
  ensureDemo?: (dataDir: string) => Promise<string>;
}

export interface HubEvents {
  events: [repo: string, frame: BusEventsFrame];
  /** A whole repo again: the `repo.snapshot` frame and its pages, to send in order. */
  snapshot: [frames: SnapshotFrames];
  removed: [repo: string];
  added: [repo: string];
  'bus-event': [repo: RepoInfo, event: AnyBusEvent, task: TaskSummary | undefined];
}

interface Watched { model: RepoModel; watcher: BusWatcher }

export class RepoHub extends EventEmitter<HubEvents> {
  private readonly watched = new Map<string, Watched>();
  private registryStamp = '';
  private registryTimer: NodeJS.Timeout | undefined;
  private readonly inFlight = new InFlight();

  constructor(readonly options: RepoHubOptions) {
    super();
  }

  async start(): Promise<void> {
    await this.sync();
    this.registryTimer = setInterval(() => void this.syncIfRegistryChanged(), this.options.pollMs ?? 1000);
    this.registryTimer.unref();
  }

  /**
   * Work started for one of this hub's repos (the demo agent's commit, DEMO-5) that `close` waits
   * for, so that nothing still writes into a repo once the relay has closed.
   */
  track(work: Promise<unknown>): void {
    this.inFlight.add(work);
  }

  async close(): Promise<void> {
    const done = this.inFlight.close();
    if (this.registryTimer) clearInterval(this.registryTimer);
    for (const w of this.watched.values()) w.watcher.close();
    this.watched.clear();
    await done;
  }

  repos(): RepoInfo[] {
    return [...this.watched.values()].map((w) => w.model.info);
  }

  model(repo: string): RepoModel | undefined {
    return this.watched.get(repo)?.model;
  }

  /** Reads what was appended to a repo's log now (a subscriber about to read it, an action that just wrote). */
  async catchUp(repo: string): Promise<void> {
    await this.watched.get(repo)?.model.refresh({ ...noneDirty(), log: true });
  }

  private async syncIfRegistryChanged(): Promise<void> {
    const stamp = registryStamp(this.options.registryFile);
    if (stamp !== this.registryStamp) await this.sync().catch((error) => this.options.log.error(error, 'repo registry'));
  }

  /** Adds repos newly listed, drops repos no longer listed. */
  private async sync(): Promise<void> {
    this.registryStamp = registryStamp(this.options.registryFile);
    const places = await this.wantedPlaces();
    const wanted = new Map(places.map((p) => [p.info.id, p]));
    for (const [id, w] of this.watched) {
      if (wanted.has(id)) continue;
      w.watcher.close();
      this.watched.delete(id);
      this.emit('removed', id);
    }
    for (const place of places) {
      if (!this.watched.has(place.info.id)) await this.add(place);
    }
  }

  private async wantedPlaces(): Promise<RepoPlace[]> {
    const paths = [...readRegistry(this.options.registryFile), ...this.options.repos];
    const places: RepoPlace[] = [];
    for (const dir of paths) {
      const place = placeOf(dir);
      if (typeof place === 'string') this.options.log.warn(place);
      else if (!places.some((p) => p.info.id === place.info.id)) places.push(place);
    }
    if (places.length === 0 && this.options.demo && this.options.ensureDemo) {
      const demo = placeOf(await this.options.ensureDemo(this.options.dataDir), true);
      if (typeof demo === 'string') this.options.log.warn(demo);
      else places.push(demo);
    }
    return places;
  }

  /**
   * Watches first, then loads: a change during the load is read right after it.
   * Until the repo is listed nothing is published; a subscriber's first read covers it.
   */
  private async add(place: RepoPlace): Promise<void> {
    const id = place.info.id;
    sweepStaleTemps(place.bus, { recursive: true, skip: SWEEP_SKIP }); // LIMIT-4: temps of writers killed mid-write
    const model = new RepoModel(place.info, place.bus, (m) => this.options.log.warn(m), (change) => {
      if (this.watched.get(id)?.model === model) this.publish(model, change);
      else if (change.kind === 'update') this.warnSkipped(model, change.skipped); // the first load warns too (WATCH-4)
    });
    const watcher = new BusWatcher(
      place.bus, (dirty) => void model.refresh(dirty).catch((e) => this.options.log.error(e, place.info.path)), this.options.pollMs,
      () => model.packets.invalid,
    );
    watcher.start();
    await model.refresh(allDirty());
    if (this.inFlight.closed) {
      watcher.close();
      return;
    }
    this.watched.set(id, { model, watcher });
    // In the same step as it is listed: its state goes out before any event the model publishes.
    this.emit('added', id);
  }

  private warnSkipped(model: RepoModel, skipped: ReadonlyArray<{ offset: number; reason: string }>): void {
    for (const skip of skipped) this.options.log.warn(`warning: skipped line at byte ${skip.offset} of ${model.log.file}: ${skip.reason}`);
  }

  /** Runs synchronously inside the model's step: listeners see changes in log order, once. */
  private publish(model: RepoModel, change: ModelChange): void {
    if (change.kind === 'resync') {
      this.options.log.warn(`${model.log.file}: ${change.reason}; clients resynchronised`);
      this.emit('snapshot', snapshotFrames(model, true));
      return;
    }
    this.warnSkipped(model, change.skipped);
    // A packet that vanished cannot be said with bus.events: send the whole repo again.
    if (change.removed) this.emit('snapshot', snapshotFrames(model));
    else for (const frame of eventFrames(model, change.events, change.tasks)) this.emit('events', model.info.id, frame);
    for (const placed of change.events) {
      const task = taskOf(placed.event);
      this.emit('bus-event', model.info, placed.event, task === undefined ? undefined : model.summary(task));
    }
  }
}

function registryStamp(file: string): string {
  try {
    const s = fs.statSync(file);
    return `${s.ino}:${s.mtimeMs}:${s.size}`;
  } catch {
    return '-';
  }
}
