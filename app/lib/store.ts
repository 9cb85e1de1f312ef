// The app's state: one pure reducer over ServerFrames (plus a few local inputs),
// a tiny store around it, and the React binding `useRelay(selector)`.
// The reducer ignores frames it does not know, so a newer relay can never crash the app.
//
// API:
//   AppState, initialState(), reduce(state, input) → state (pure; same input twice = no change)
//   StoreInput = ServerFrame | LocalInput ('local.hydrate' | 'local.connection' | 'local.devices' |
//                'local.outbox' | 'local.device' | 'local.error' | 'local.doneMore')
//   A snapshot replaces a repo's tasks; its `repo.tasks` pages (and answers to `repo.done`) add to them.
//   persistable(state) → PersistedState (what is saved so the last data shows offline)
//   createStore(initial?) → { getState, dispatch, subscribe }
//   appStore — the page's store; useRelay(selector) — React hook (selector result cached per state)
//   LIVE_PER_SESSION, RECENT_EVENTS_PER_REPO, OUTPUT_MAX_CHARS — the bounds
import type { QuestionView } from '../../protocol/wire/questions';
import type { MachineState } from '../../protocol/wire/machines';
import { useRef, useSyncExternalStore } from 'react';
import type { ServerFrame, ServerFrameOf } from '../../protocol/wire/frames';
import type { CommanderView, Cursor, DeviceView, PermissionRequestView, RepoInfo, TaskSummary } from '../../protocol/wire/views';
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { LiveEvent } from '../../protocol/live-events';
import type { ClientError } from './errors';
import type { OutboxItem } from './outbox';
import type { ConnectionState } from './socket';

export const LIVE_PER_SESSION = 200;
export const LIVE_SESSIONS = 100;
export const RECENT_EVENTS_PER_REPO = 300;
export const OUTPUT_MAX_CHARS = 200_000;

export interface Stream { session: string | null; seq: number; text: string }
export interface JobView { job: string; repo: string; task: string; mode: 'work' | 'review'; status: 'running' | 'done' | 'failed'; exitCode: number | null; agent?: string; stopped?: boolean; output: Stream }
export interface BusEntry { cursor: Cursor; event: AnyBusEvent }

export interface AppState {
  connection: { state: ConnectionState; error: ClientError | null };
  device: DeviceView | null;
  repos: Record<string, RepoInfo>;
  tasks: Record<string, Record<string, TaskSummary>>;
  /** Per repo: done tasks on the relay, and whether older ones than those held can be read with `repo.done`. */
  done: Record<string, { total: number; more: boolean }>;
  /** When the data was last known current: the newest snapshot's relay time, or the moment the connection stopped being live. */
  syncedAt: string | null;
  cursors: Record<string, Cursor>;
  /** Last bus events per repo, in log order (for live timelines). */
  recentEvents: Record<string, BusEntry[]>;
  commanders: Record<string, CommanderView>;
  /** Where a commander's reference path may point (from `commander.list`), for the Start sheet. */
  allowedRoots: string[];
  commanderOutput: Record<string, Stream>;
  live: Record<string, { at: string; event: LiveEvent }[]>;
  permissions: Record<string, PermissionRequestView>;
  /** Agent questions and action approvals (ASK-2), by id. */
  questions: Record<string, QuestionView>;
  jobs: Record<string, JobView>;
  devices: DeviceView[];
  /** The home's member machines by id (FLEET-22), and the home itself (FLEETUI-1). */
  machines: Record<string, MachineState>;
  home: { name: string; version: string } | null;
  outbox: OutboxItem[];
  lastError: ClientError | null;
  lagged: number;
  /** True once data came from the relay or from the saved snapshot. */
  hydrated: boolean;
}

export interface PersistedState {
  v: 1;
  device: DeviceView | null;
  repos: AppState['repos'];
  tasks: AppState['tasks'];
  done?: AppState['done'];
  syncedAt?: string | null;
  cursors: AppState['cursors'];
  commanders: AppState['commanders'];
  permissions: AppState['permissions'];
  devices: DeviceView[];
  machines?: AppState['machines'];
  home?: AppState['home'];
}

export type LocalInput =
  | { type: 'local.hydrate'; snapshot: PersistedState }
  | { type: 'local.connection'; state: ConnectionState; error?: ClientError | null; at?: string }
  | { type: 'local.doneMore'; repo: string; more: boolean }
  | { type: 'local.devices'; devices: DeviceView[] }
  | { type: 'local.outbox'; items: OutboxItem[] }
  | { type: 'local.device'; device: DeviceView | null }
  | { type: 'local.error'; error: ClientError | null };
export type StoreInput = ServerFrame | LocalInput;

export function initialState(): AppState {
  return {
    connection: { state: 'connecting', error: null }, device: null, repos: {}, tasks: {}, done: {}, syncedAt: null, cursors: {}, recentEvents: {},
    commanders: {}, allowedRoots: [], commanderOutput: {}, live: {}, permissions: {}, questions: {}, jobs: {}, devices: [], machines: {}, home: null, outbox: [],
    lastError: null, lagged: 0, hydrated: false,
  };
}

type Handlers = { [K in StoreInput['type']]?: (s: AppState, input: Extract<StoreInput, { type: K }>) => AppState };

const handlers: Handlers = {
  'local.hydrate': (s, { snapshot }) => (s.hydrated ? s : { ...s, ...snapshot, hydrated: true }),
  'local.connection': (s, { state, error, at }) => ({
    ...s, connection: { state, error: error ?? null },
    // Leaving "Live": everything up to now was current.
    syncedAt: s.connection.state === 'live' && state !== 'live' && at ? at : s.syncedAt,
  }),
  'local.doneMore': (s, { repo, more }) => (s.done[repo] ? { ...s, done: { ...s.done, [repo]: { ...s.done[repo], more } } } : s),
  'local.devices': (s, { devices }) => ({ ...s, devices }),
  'local.outbox': (s, { items }) => ({ ...s, outbox: items }),
  'local.device': (s, { device }) => ({ ...s, device }),
  'local.error': (s, { error }) => ({ ...s, lastError: error }),
  'auth.ok': (s, { device }) => ({ ...s, device, devices: upsertDevice(s.devices, device) }),
  'repo.snapshot': (s, f) => ({
    ...s, hydrated: true,
    repos: { ...s.repos, [f.repo.id]: kept(s.repos[f.repo.id], f.repo) },
    tasks: { ...s.tasks, [f.repo.id]: Object.fromEntries(f.tasks.map((t) => [t.id, kept(s.tasks[f.repo.id]?.[t.id], t)])) },
    done: f.done ? { ...s.done, [f.repo.id]: { total: f.done.total, more: f.done.sent < f.done.total } } : s.done,
    syncedAt: f.at ?? s.syncedAt,
    cursors: { ...s.cursors, [f.repo.id]: f.cursor },
    recentEvents: f.resync ? omit(s.recentEvents, f.repo.id) : s.recentEvents,
  }),
  'repo.tasks': (s, f) => (s.repos[f.repo] && f.tasks.length > 0
    ? { ...s, tasks: { ...s.tasks, [f.repo]: { ...s.tasks[f.repo], ...Object.fromEntries(f.tasks.map((t) => [t.id, kept(s.tasks[f.repo]?.[t.id], t)])) } } }
    : s),
  'bus.events': reduceBusEvents,
  'repo.removed': (s, { repo }) => ({
    ...s, repos: omit(s.repos, repo), tasks: omit(s.tasks, repo), done: omit(s.done, repo), cursors: omit(s.cursors, repo), recentEvents: omit(s.recentEvents, repo),
  }),
  'commander.list': (s, { commanders, allowedRoots }) => ({ ...s, commanders: Object.fromEntries(commanders.map((c) => [c.id, c])), allowedRoots: allowedRoots ?? s.allowedRoots }),
  'commander.state': (s, { commander }) => ({ ...s, commanders: { ...s.commanders, [commander.id]: commander } }),
  'commander.removed': (s, { commander }) => ({ ...s, commanders: omit(s.commanders, commander), commanderOutput: omit(s.commanderOutput, commander) }),
  'commander.output': (s, f) => ({ ...s, commanderOutput: { ...s.commanderOutput, [f.commander]: appendStream(s.commanderOutput[f.commander], f.session, f.seq, f.chunk) } }),
  'live.event': reduceLive,
  'relay.lagged': (s, { dropped }) => ({ ...s, lagged: s.lagged + dropped }),
  'permission.request': (s, { request }) => ({ ...s, permissions: { ...s.permissions, [request.id]: request } }),
  'permission.list': (s, { requests }) => ({ ...s, permissions: Object.fromEntries(requests.map((r) => [r.id, r])) }),
  'question.request': (s, { request }) => ({ ...s, questions: { ...s.questions, [request.id]: request } }),
  'question.list': (s, { requests }) => ({ ...s, questions: Object.fromEntries(requests.map((r) => [r.id, r])) }),
  'job.state': (s, f) => {
    const output = s.jobs[f.job]?.output ?? { session: null, seq: -1, text: '' };
    const { type: _t, ...job } = f;
    return { ...s, jobs: { ...s.jobs, [f.job]: { ...job, output } } };
  },
  'job.output': (s, f) => {
    const job = s.jobs[f.job];
    if (!job) return s;
    return { ...s, jobs: { ...s.jobs, [f.job]: { ...job, output: appendStream(job.output, null, f.seq, f.chunk) } } };
  },
  'machine.state': (s, { machine }) => ({ ...s, machines: { ...s.machines, [machine.id]: machine } }),
  'machine.removed': (s, { machine }) => ({ ...s, machines: omit(s.machines, machine) }),
  'machine.home': (s, { home }) => ({ ...s, home }),
  error: (s, f) => (f.id ? s : { ...s, lastError: f.error }),
};

export function reduce(state: AppState, input: StoreInput): AppState {
  const type = (input as { type?: unknown } | null)?.type;
  if (typeof type !== 'string' || !Object.hasOwn(handlers, type)) return state;
  const handler = (handlers as Record<string, (s: AppState, i: StoreInput) => AppState>)[type];
  return handler(state, input);
}

function reduceBusEvents(s: AppState, f: ServerFrameOf<'bus.events'>): AppState {
  const known = s.cursors[f.repo];
  // Only events after our cursor count: a replayed batch changes nothing.
  const fresh = f.events.filter((e) => !known || e.cursor.epoch !== known.epoch || e.cursor.offset > known.offset);
  if (fresh.length === 0 && f.tasks.length === 0) return s;
  const tasks = { ...s.tasks[f.repo] };
  for (const t of f.tasks) tasks[t.id] = kept(tasks[t.id], t);
  const recent = [...(s.recentEvents[f.repo] ?? []), ...fresh].slice(-RECENT_EVENTS_PER_REPO);
  const last = fresh.at(-1)?.cursor ?? known;
  return {
    ...s,
    tasks: { ...s.tasks, [f.repo]: tasks },
    recentEvents: { ...s.recentEvents, [f.repo]: recent },
    cursors: last ? { ...s.cursors, [f.repo]: last } : s.cursors,
  };
}

function reduceLive(s: AppState, f: ServerFrameOf<'live.event'>): AppState {
  const session = f.event.session;
  const list = [...(s.live[session] ?? []), { at: f.at, event: f.event }].slice(-LIVE_PER_SESSION);
  let live = { ...omit(s.live, session), [session]: list }; // re-inserted last = most recent
  const sessions = Object.keys(live);
  if (sessions.length > LIVE_SESSIONS) live = Object.fromEntries(Object.entries(live).slice(sessions.length - LIVE_SESSIONS));
  return { ...s, live };
}

function appendStream(prev: Stream | undefined, session: string | null, seq: number, chunk: string): Stream {
  // A first turn's output starts before the CLI names its session: the id arriving continues the
  // same conversation (the person's first message stays). Only another session starts afresh.
  const base = !prev || (prev.session !== null && prev.session !== session) ? { session, seq: -1, text: '' } : prev;
  if (seq <= base.seq) return base; // already have it
  return { session, seq, text: (base.text + chunk).slice(-OUTPUT_MAX_CHARS) };
}

function upsertDevice(devices: DeviceView[], device: DeviceView): DeviceView[] {
  const others = devices.filter((d) => d.id !== device.id);
  return [device, ...others];
}

/**
 * The value held when the new one is equal to it (JSON data: the wire's and the saved state's):
 * a snapshot that repeats the saved tasks leaves their objects, so their memoised cards do not
 * render again (FIRST-8).
 */
function kept<T>(held: T | undefined, next: T): T {
  return held !== undefined && sameJson(held, next) ? held : next;
}

function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null || Array.isArray(a) !== Array.isArray(b)) return false;
  if (Array.isArray(a)) return a.length === (b as unknown[]).length && a.every((v, i) => sameJson(v, (b as unknown[])[i]));
  const ka = Object.keys(a);
  if (ka.length !== Object.keys(b).length) return false;
  return ka.every((k) => Object.hasOwn(b, k) && sameJson((a as Record<string, unknown>)[k], (b as Record<string, unknown>)[k]));
}

function omit<T>(record: Record<string, T>, key: string): Record<string, T> {
  if (!(key in record)) return record;
  const { [key]: _gone, ...rest } = record;
  return rest;
}

/** Done tasks per repo the saved state keeps: what a snapshot sends (= SNAPSHOT_DONE_TASKS, PAGE-1; not imported, to keep zod out of this chunk). */
export const SAVED_DONE_TASKS = 50;

export function persistable(s: AppState): PersistedState {
  const { tasks, done } = savedTasks(s.tasks, s.done);
  return { v: 1, device: s.device, repos: s.repos, tasks, done, syncedAt: s.syncedAt, cursors: s.cursors, commanders: s.commanders, permissions: s.permissions, devices: s.devices, machines: s.machines, home: s.home };
}

/**
 * FIRST-6: the saved state holds what a snapshot holds — every task not done and the
 * newest SAVED_DONE_TASKS done ones per repo — however many older done tasks were read
 * since; the repos it trimmed say they have more. Reading and writing it stays bounded
 * (the next snapshot would drop the older ones anyway, PAGE-3). Cached by identity, so
 * an unchanged state gives the same objects and is not written again.
 */
const trimmedTasks = new WeakMap<Record<string, TaskSummary>, Record<string, TaskSummary>>();
let lastSaved: { tasks: AppState['tasks']; done: AppState['done']; out: { tasks: AppState['tasks']; done: AppState['done'] } } | null = null;

function savedTasks(tasks: AppState['tasks'], done: AppState['done']): { tasks: AppState['tasks']; done: AppState['done'] } {
  if (lastSaved && lastSaved.tasks === tasks && lastSaved.done === done) return lastSaved.out;
  const out: AppState['tasks'] = {};
  let moreDone: AppState['done'] | null = null;
  for (const [repo, byId] of Object.entries(tasks)) {
    let kept = trimmedTasks.get(byId);
    if (!kept) {
      kept = trimDone(byId);
      trimmedTasks.set(byId, kept);
    }
    out[repo] = kept;
    if (kept !== byId && !done[repo]?.more) {
      moreDone ??= { ...done };
      moreDone[repo] = { total: Math.max(done[repo]?.total ?? 0, countDone(byId)), more: true };
    }
  }
  const result = { tasks: out, done: moreDone ?? done };
  lastSaved = { tasks, done, out: result };
  return result;
}

function trimDone(byId: Record<string, TaskSummary>): Record<string, TaskSummary> {
  const finished = Object.values(byId).filter((t) => t.state === 'done');
  if (finished.length <= SAVED_DONE_TASKS) return byId;
  const keep = new Set(finished.sort(newestFirst).slice(0, SAVED_DONE_TASKS));
  return Object.fromEntries(Object.entries(byId).filter(([, t]) => t.state !== 'done' || keep.has(t)));
}

const countDone = (byId: Record<string, TaskSummary>) => Object.values(byId).filter((t) => t.state === 'done').length;

/** The snapshot's order (lastEventTs descending, then id), as relay/watch/frames.ts pages it. */
function newestFirst(a: TaskSummary, b: TaskSummary): number {
  const at = a.lastEventTs ?? '';
  const bt = b.lastEventTs ?? '';
  if (at !== bt) return at < bt ? 1 : -1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export interface Store {
  getState(): AppState;
  dispatch(input: StoreInput): void;
  subscribe(listener: () => void): () => void;
}

export function createStore(initial: AppState = initialState()): Store {
  let state = initial;
  const listeners = new Set<() => void>();
  return {
    getState: () => state,
    dispatch(input) {
      const next = reduce(state, input);
      if (next === state) return;
      state = next;
      for (const listener of [...listeners]) listener();
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/** The page's store; app/lib/client.ts feeds it, components read it with useRelay. */
export const appStore = createStore();
const serverState = initialState();

/** Reads a slice of the app state; re-renders when the slice's value changes. */
export function useRelay<T>(selector: (state: AppState) => T): T {
  const cache = useRef<{ state: AppState; selector: (s: AppState) => T; value: T } | null>(null);
  const read = (state: AppState): T => {
    const c = cache.current;
    if (c && c.state === state && c.selector === selector) return c.value;
    const value = selector(state);
    cache.current = { state, selector, value };
    return value;
  };
  return useSyncExternalStore(appStore.subscribe, () => read(appStore.getState()), () => read(serverState));
}
