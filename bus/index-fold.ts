// The index fold (INDEX-n): one pass over each repo's bus into one derived cache
// file outside every bus; events.jsonl is read once per repo, never per packet.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { IndexFile, IndexRepo, IndexTask } from '../protocol/bus/index-file';
import type { TaskState } from '../protocol/bus/packet';
import { verdictOfFileText } from '../protocol/bus/verdict';
import { BusError, errnoOf } from './errors';
import { scanEventRange } from './tail';
import { writeFileAtomic } from './fs-atomic';
import { eventsPath, listPackets, parseClaimedName, readPacketFile } from './layout';
import { busOfDirectory } from './locate';
import { parsePacket } from './packet';

export interface FoldOptions {
  repos: string[];
  output: string;
  version: string;
  now?: Date;
  warn?: (message: string) => void;
}

const STATES: TaskState[] = ['inbox', 'claimed', 'done'];

/** Folds every repo and writes the cache atomically; returns what was written. */
export async function refreshIndex(options: FoldOptions): Promise<IndexFile> {
  const output = path.resolve(options.output);
  const now = options.now ?? new Date();
  const warn = options.warn ?? (() => {});
  const index: IndexFile = { generated_at: now.toISOString(), tool: `index/${options.version}`, repos: [], tasks: [] };
  const buses = options.repos.map((repo) => busOfRepo(repo));
  for (const bus of [...buses, enclosingBus(output)]) if (bus && isInside(output, bus)) throw new BusError('E_INDEX_IN_BUS', `the index ${output} must not be written inside the bus ${bus}`);
  for (let i = 0; i < options.repos.length; i++) {
    const repo = options.repos[i]!;
    const scanned: IndexRepo = { path: repo, scanned_at: new Date().toISOString(), ok: true };
    try {
      const bus = buses[i];
      if (!bus) throw new Error(`${repo} is not a directory`);
      index.tasks.push(...(await foldBus(bus, path.basename(path.resolve(repo)), scanned, warn)));
    } catch (error) {
      scanned.ok = false;
      scanned.error = error instanceof Error ? error.message : String(error);
    }
    index.repos.push(scanned);
  }
  fs.mkdirSync(path.dirname(output), { recursive: true });
  writeFileAtomic(output, JSON.stringify(index, null, 2) + '\n', 0o644, false);
  return index;
}

function busOfRepo(repo: string): string | undefined {
  try {
    if (!fs.statSync(repo).isDirectory()) return undefined;
  } catch {
    return undefined;
  }
  const bus = busOfDirectory(repo);
  try {
    return fs.realpathSync(bus);
  } catch {
    return bus;
  }
}

/**
 * Any bus the path lies in, folded or not: the nearest `.agents` directory above it (by its
 * real path) that holds an `inbox/`. A relay or agent reading that bus would meet a stray file.
 */
function enclosingBus(file: string): string | undefined {
  for (let dir = path.dirname(realpathOfNearest(file)); path.dirname(dir) !== dir; dir = path.dirname(dir)) {
    if (path.basename(dir) === '.agents' && fs.existsSync(path.join(dir, 'inbox'))) return dir;
  }
  return undefined;
}

/** Compares real paths, so a symlinked route into a bus is caught too. */
function isInside(file: string, dir: string): boolean {
  const real = realpathOfNearest(file);
  return [file, real].some((f) => f === dir || f.startsWith(dir + path.sep));
}

/** The real path of `file`, resolving its nearest existing ancestor. */
function realpathOfNearest(file: string): string {
  let existing = file;
  const rest: string[] = [];
  while (!fs.existsSync(existing) && path.dirname(existing) !== existing) {
    rest.unshift(path.basename(existing));
    existing = path.dirname(existing);
  }
  try {
    return path.join(fs.realpathSync(existing), ...rest);
  } catch {
    return file;
  }
}

interface TaskActivity {
  ts: string;
  note: string | null;
}

async function foldBus(bus: string, repoName: string, scanned: IndexRepo, warn: (m: string) => void): Promise<IndexTask[]> {
  if (!fs.statSync(bus).isDirectory()) throw new Error(`${bus} is not a bus directory`);
  const activity = foldEvents(bus, scanned, warn);
  const verdicts = councilVerdicts(bus);
  const tasks: IndexTask[] = [];
  for (const state of STATES) {
    for (const name of listPackets(bus, state)) {
      const file = path.join(bus, state, name);
      const id = await packetId(file, warn);
      if (id === undefined) continue;
      const owner = state === 'inbox' ? undefined : parseClaimedName(name);
      const seen = activity.get(id);
      tasks.push({
        repo: repoName,
        id,
        state,
        owner: owner ? `${owner.host}_${owner.pid}` : null,
        verdict: verdicts.has(id) ? readVerdict(path.join(bus, 'council', `${id}.json`)) : null,
        last_event_ts: seen?.ts ?? null,
        last_note: seen?.note ?? null,
      });
    }
  }
  return tasks;
}

/**
 * The one read of the log: last event time and last progress note per task. Read a chunk at a
 * time (scanEventRange), so a log of any size folds in bounded memory; a line over
 * MAX_LOG_LINE_BYTES is skipped and a note is kept to what a follower shows (LIMIT-1, LIMIT-2).
 */
function foldEvents(bus: string, scanned: IndexRepo, warn: (m: string) => void): Map<string, TaskActivity> {
  const activity = new Map<string, TaskActivity>();
  const file = eventsPath(bus);
  let stat: fs.Stats;
  try {
    stat = fs.statSync(file);
  } catch (error) {
    if (errnoOf(error) === 'ENOENT') return activity;
    throw error;
  }
  scanned.events_mtime = stat.mtime.toISOString();
  const { skipped } = scanEventRange(file, 0, stat.size, (events) => {
    for (const { event } of events) {
      const task = typeof event.task === 'string' ? event.task : undefined;
      if (!task) continue;
      const previous = activity.get(task);
      const note = event.event === 'task_progress' && typeof event.note === 'string' ? event.note : (previous?.note ?? null);
      activity.set(task, { ts: event.ts, note });
    }
  }, FOLD_CHUNK_BYTES);
  if (skipped.length > 0) warn(`warning: skipped ${skipped.length} unreadable line(s) of ${file}`);
  return activity;
}

/** How much of the log the fold reads at a time. */
const FOLD_CHUNK_BYTES = 8 * 1024 * 1024;

/** Task ids that have a `council/<id>.json`, from one directory listing. */
function councilVerdicts(bus: string): Set<string> {
  try {
    return new Set(fs.readdirSync(path.join(bus, 'council')).filter((n) => n.endsWith('.json')).map((n) => n.slice(0, -5)));
  } catch {
    return new Set();
  }
}

/** Any council file with a PASS/FAIL `verdict` counts, whoever wrote it (INTEROP-2). */
function readVerdict(file: string): 'PASS' | 'FAIL' | null {
  try {
    return verdictOfFileText(fs.readFileSync(file, 'utf8')) ?? null;
  } catch {
    return null;
  }
}

async function packetId(file: string, warn: (m: string) => void): Promise<string | undefined> {
  let text: ReturnType<typeof readPacketFile>;
  try {
    text = readPacketFile(file);
  } catch {
    return undefined;
  }
  if (text === undefined) return undefined;
  if (typeof text !== 'string') {
    warn(`warning: skipped ${file}: ${text.notFile}, not a regular file`);
    return undefined;
  }
  const packet = await parsePacket(text, { sections: false });
  if (packet.ok) return packet.front.id;
  warn(`warning: skipped ${file}: ${packet.reason}`);
  return undefined;
}
