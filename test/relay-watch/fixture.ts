// Shared by the relay watch suites: a real relay (in-process, port 0) over real
// temp repos, and a recorder of what a socket received from the buses.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type WebSocket from 'ws';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { createRelay, type Relay } from '../../relay/server';
import type { Logger } from '../../relay/options';
import type { Cursor, TaskSummary } from '../../protocol/wire/views';
import { ServerFrame } from '../../protocol/wire/frames';
import { repoIdOf } from '../../relay/watch/repo-id';
import { type DeviceClient, connectDevice } from '../helpers/device';
import { type Install, World, buildInstall, packet } from '../conformance/harness';
import { type BusRepo, busRepo } from '../helpers/bus-repo';

/** The registry file a test relay reads (empty unless a test writes it). */
export const registryOf = (dataDir: string): string => path.join(dataDir, 'registry');

export async function startRelay(repos: string[], extra: { demo?: boolean; dataDir?: string; logger?: Logger } = {}): Promise<Relay> {
  const dataDir = extra.dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'relay-data-'));
  return createRelay({
    port: 0, host: '127.0.0.1', dataDir, repos, registryFile: registryOf(dataDir), demo: extra.demo ?? false, logger: extra.logger,
  });
}

/** A logger that keeps what it was told, for "warned exactly once" checks. */
export function recordingLogger(): Logger & { warnings: string[] } {
  const warnings: string[] = [];
  return { warnings, info: () => undefined, warn: (m) => void warnings.push(m), error: (e) => void warnings.push(String(e)) };
}

export const repoIdFor = (repo: string): string => repoIdOf(fs.realpathSync(repo));

export interface Received { repo: string; cursor: Cursor; event: Record<string, unknown> }

/** Everything bus-related a socket receives, in order, with a deadline-bound wait. */
export class BusRecorder {
  readonly events: Received[] = [];
  readonly snapshots: Array<{ repo: string; tasks: TaskSummary[]; cursor: Cursor; resync?: boolean; pages?: number; done?: { total: number; sent: number }; at?: string; afterEvents: number }> = [];
  /** `repo.tasks` frames (snapshot pages and `repo.done` answers), in order. */
  readonly pages: Array<{ repo: string; id?: string; tasks: TaskSummary[]; bytes: number }> = [];
  readonly tasks = new Map<string, TaskSummary>();
  readonly cursors: Record<string, Cursor> = {};
  private waiters: Array<() => void> = [];

  constructor(ws: WebSocket) {
    ws.on('message', (data) => this.take(JSON.parse(data.toString()) as Record<string, unknown>));
  }

  /** Bus frames that do not match the wire schema (every wait fails while this is not empty). */
  readonly invalid: string[] = [];

  private take(frame: Record<string, unknown>): void {
    if ((frame.type === 'repo.snapshot' || frame.type === 'bus.events' || frame.type === 'repo.tasks') && !ServerFrame.safeParse(frame).success) {
      this.invalid.push(JSON.stringify(frame).slice(0, 300));
    }
    if (frame.type === 'repo.snapshot') {
      const f = frame as { repo: { id: string }; tasks: TaskSummary[]; cursor: Cursor; resync?: boolean; pages?: number; done?: { total: number; sent: number }; at?: string };
      this.snapshots.push({ repo: f.repo.id, tasks: f.tasks, cursor: f.cursor, resync: f.resync, pages: f.pages, done: f.done, at: f.at, afterEvents: this.events.length });
      for (const t of f.tasks) this.tasks.set(`${t.repo}/${t.id}`, t);
      this.cursors[f.repo.id] = f.cursor;
    } else if (frame.type === 'bus.events') {
      const f = frame as { repo: string; events: Array<{ cursor: Cursor; event: Record<string, unknown> }>; tasks: TaskSummary[] };
      for (const e of f.events) {
        this.events.push({ repo: f.repo, ...e });
        this.cursors[f.repo] = e.cursor;
      }
      for (const t of f.tasks) this.tasks.set(`${t.repo}/${t.id}`, t);
    } else if (frame.type === 'repo.tasks') {
      const f = frame as { repo: string; id?: string; tasks: TaskSummary[] };
      this.pages.push({ repo: f.repo, id: f.id, tasks: f.tasks, bytes: JSON.stringify(frame).length });
      for (const t of f.tasks) this.tasks.set(`${t.repo}/${t.id}`, t);
    } else return;
    for (const w of this.waiters.splice(0)) w();
  }

  /** Resolves once `check` is true of what was received (checked on every bus frame). */
  async until<T>(check: () => T | undefined | false, what: string, timeoutMs = 15_000): Promise<T> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      if (this.invalid.length > 0) throw new Error(`frames outside the wire schema: ${this.invalid[0]}`);
      const value = check();
      if (value) return value;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`timed out waiting for ${what}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.waiters.push(() => { clearTimeout(timer); resolve(); });
      });
    }
  }

  event(name: string, task?: string): Promise<Received> {
    return this.until(() => this.events.find((e) => e.event.event === name && (task === undefined || e.event.task === task)), `${name} ${task ?? ''}`);
  }

  task(repo: string, id: string, check: (t: TaskSummary) => boolean = () => true): Promise<TaskSummary> {
    return this.until(() => { const t = this.tasks.get(`${repo}/${id}`); return t && check(t) ? t : undefined; }, `task ${id}`);
  }
}

export async function subscribedClient(relay: Relay, cursors?: Record<string, Cursor>, name?: string): Promise<{ client: DeviceClient; bus: BusRecorder }> {
  const client = await connectDevice(relay, name);
  const bus = new BusRecorder(client.ws);
  await client.request({ type: 'subscribe', ...(cursors ? { cursors } : {}) });
  return { client, bus };
}

export interface DemoRelay { dataDir: string; relay: Relay; client: DeviceClient; rec: BusRecorder }

/** For the file's tests: a relay with no repos, serving its demo workspace in a fresh data dir, and a subscribed client. */
export function demoRelay(prefix: string): DemoRelay {
  const fx = {} as DemoRelay;
  beforeAll(async () => {
    fx.dataDir = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
    fx.relay = await startRelay([], { demo: true, dataDir: fx.dataDir });
    ({ client: fx.client, bus: fx.rec } = await subscribedClient(fx.relay));
  });
  afterAll(async () => {
    await fx.client?.close();
    await fx.relay?.close();
    if (fx.dataDir) fs.rmSync(fx.dataDir, { recursive: true, force: true });
  });
  return fx;
}

export interface WatchedWorld { install: Install; world: World; relay: Relay; client: DeviceClient; bus: BusRecorder; repo: string }

/**
 * For the file's tests: the real bin tools installed, a conformance World with `inbox`
 * packets (each headed `# <title(id)>`), a relay watching it and a device named `device`
 * subscribed. `prepare` runs on the World before the packets and the relay.
 */
export function watchedWorld(options: { inbox: string[]; device: string; title?: (id: string) => string; prepare?: (world: World) => void }): WatchedWorld {
  const fx = {} as WatchedWorld;
  const title = options.title ?? ((id: string) => id);
  beforeAll(async () => {
    fx.install = await buildInstall();
    fx.world = new World(fx.install);
    options.prepare?.(fx.world);
    for (const id of options.inbox) fx.world.write(`inbox/${id}.md`, `${packet({ id })}\n# ${title(id)}\n`);
    fx.relay = await startRelay([fx.world.repo]);
    fx.world.env.COMMANDR_HOME = fx.relay.dataDir;
    fx.repo = repoIdFor(fx.world.repo);
    ({ client: fx.client, bus: fx.bus } = await subscribedClient(fx.relay, undefined, options.device));
  });
  afterAll(async () => {
    await fx.client?.close();
    await fx.relay?.close();
    fx.world?.cleanup();
    fs.rmSync(fx.relay?.dataDir ?? '/nonexistent', { recursive: true, force: true });
    if (fx.install) fs.rmSync(fx.install.root, { recursive: true, force: true });
  });
  return fx;
}

export interface WatchedRepo extends BusRepo {
  relay: Relay;
  repoId: string;
  /** The relay's logger; its warnings are the running test's. */
  logger: Logger & { warnings: string[] };
  /** A subscribed client (resuming from `cursors` if given), closed after the test. */
  client(cursors?: Record<string, Cursor>): Promise<{ client: DeviceClient; bus: BusRecorder }>;
}

/** For each test: a bus repo with packets, `before` run once it exists, then a relay over it. */
export function watchedRepo(prefix: string, before: (bus: string) => void): WatchedRepo {
  const clients: DeviceClient[] = [];
  const fx = {
    logger: recordingLogger(),
    async client(cursors?: Record<string, Cursor>) {
      const c = await subscribedClient(fx.relay, cursors);
      clients.push(c.client);
      return c;
    },
  } as WatchedRepo;
  beforeEach(async () => {
    Object.assign(fx, busRepo(prefix, { inbox: ['A-1', 'A-2'] }));
    before(fx.bus);
    fx.logger.warnings.length = 0;
    fx.relay = await startRelay([fx.repo], { logger: fx.logger });
    fx.repoId = repoIdFor(fx.repo);
  });
  afterEach(async () => {
    for (const c of clients.splice(0)) await c.close();
    await fx.relay.close();
    fs.rmSync(fx.dir, { recursive: true, force: true });
    fs.rmSync(fx.relay.dataDir, { recursive: true, force: true });
  });
  return fx;
}
