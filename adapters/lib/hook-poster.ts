// The one background poster of a commandr home (ORDER-1): drains the hook spool in the order
// the hooks were invoked and posts each record's live events one after the other, each
// stamped with `seq` = when its hook ran (ORDER-2). Calls whose end never came (denied,
// interrupted) are closed, as failed, just before their session's `idle` or `end`.
// It keeps no agent waiting: the hooks that fill the spool return at once.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LiveEvent as LiveEventSchema, type LiveEvent } from '../../protocol/live-events';
import type { Env } from './env';
import { unfinishedEvent } from './hook-actions';
import { BACKGROUND_TIMEOUT_MS, postLive } from './live-post';
import { acquirePoster, listRecords, parseRecord, releasePoster, spoolDir, type SpoolRecord } from './hook-spool';

/** The poster leaves after this long without a record; the next hook starts a new one. */
export const POSTER_IDLE_MS = 3000;
const POLL_MS = 15;

/** What one record means, in neutral terms: a vendor entry translates its payload into this. */
export type Happening =
  | { type: 'tool-start'; session: string; callId?: string; event: LiveEvent }
  | { type: 'tool-end'; session: string; callId?: string; event: LiveEvent }
  | { type: 'turn-end' | 'session-end'; session: string; event: LiveEvent };

export type Translate = (record: SpoolRecord, env: Env) => Happening | undefined;

export interface OpenCall { session: string; event: LiveEvent }
type Open = OpenCall;

const openFile = (dir: string): string => path.join(dir, 'open-calls.json');

/** Calls started but not ended, kept across posters (a long tool call outlives an idle poster). */
function loadOpen(dir: string): Map<string, Open> {
  try {
    const value = JSON.parse(fs.readFileSync(openFile(dir), 'utf8')) as Array<[string, Open]>;
    return new Map(Array.isArray(value) ? value : []);
  } catch {
    return new Map();
  }
}

function saveOpen(dir: string, open: Map<string, Open>): void {
  try {
    const temp = `${openFile(dir)}.${process.pid}.tmp`;
    fs.writeFileSync(temp, JSON.stringify([...open]), { mode: 0o600 });
    fs.renameSync(temp, openFile(dir));
  } catch { /* best effort */ }
}

const callKey = (session: string, callId: string | undefined): string | undefined => (callId ? `${session}\u0000${callId}` : undefined);

/** The events one record posts, in order; updates the open calls. */
export function eventsOf(h: Happening, open: Map<string, Open>): LiveEvent[] {
  const key = 'callId' in h ? callKey(h.session, h.callId) : undefined;
  switch (h.type) {
    case 'tool-start':
      if (key) open.set(key, { session: h.session, event: h.event });
      return [h.event];
    case 'tool-end':
      if (key) open.delete(key);
      return [h.event];
    default: {
      const closing: LiveEvent[] = [];
      for (const [k, o] of open) {
        if (o.session !== h.session) continue;
        open.delete(k);
        // It ended (was denied or cut off) right after it started, as far as anyone can tell.
        const seq = o.event.seq ?? h.event.seq;
        closing.push({ ...unfinishedEvent(o.event), ...(seq !== undefined ? { seq: seq + 1 } : {}) });
      }
      return [...closing, h.event];
    }
  }
}

/** A record whose events the relay did not acknowledge is tried again after this long, doubling up to RETRY_MAX_MS. */
export const RETRY_MIN_MS = 100;
export const RETRY_MAX_MS = 2000;
/** A record is given up after the relay left it unacknowledged this long (LIVE-DELIVER-2). */
export const RETRY_FOR_MS = 120_000;

/** What a `HOOK=live` record (a node hook's queued event, LIVE-DELIVER-1) posts: its payload, as is. */
function queuedEvent(record: SpoolRecord): LiveEvent[] {
  const checked = LiveEventSchema.safeParse(record.payload);
  return checked.success ? [checked.data] : [];
}

/**
 * Drains `dir` (the hook spool by default) until it stays empty for `idleMs`; returns how many
 * records were handled. A record is removed only once the relay acknowledged each of its events
 * (or no relay runs to tell, or it refused them for good): a slow relay keeps it, and the
 * records behind it wait their turn (LIVE-DELIVER-1, LIVE-DELIVER-2).
 */
export async function runPoster(env: Env, translate: Translate, idleMs = POSTER_IDLE_MS, dir = spoolDir(env)): Promise<number> {
  if (!acquirePoster(dir)) return 0;
  const open = loadOpen(dir);
  // Events of a record not yet acknowledged, worked out once (translating again would close calls twice).
  const pending = new Map<string, { events: LiveEvent[]; since: number; env: Env }>();
  let handled = 0;
  let quietSince = Date.now();
  let retryMs = RETRY_MIN_MS;
  for (;;) {
    const files = listRecords(dir);
    if (files.length === 0) {
      if (Date.now() - quietSince < idleMs) {
        await new Promise((r) => setTimeout(r, POLL_MS));
        continue;
      }
      // Release first, then look once more: a hook that spooled after our last look either
      // saw no poster (and started one) or left a record we now take back.
      saveOpen(dir, open);
      releasePoster(dir);
      if (listRecords(dir).length === 0 || !acquirePoster(dir)) return handled;
      continue;
    }
    for (const file of files) {
      let work = pending.get(file);
      if (!work) {
        let record: SpoolRecord | undefined;
        try {
          record = parseRecord(file, fs.readFileSync(file));
        } catch {
          record = undefined;
        }
        if (!record) { fs.rmSync(file, { force: true }); continue; }
        // A record's credential is the one its hook had: never another job's the poster inherited (HOOKCRED-4).
        const recordEnv = { ...env, COMMANDR_HOOK_TOKEN: undefined, ...record.env };
        let events: LiveEvent[] = [];
        if (record.hook === 'live') events = queuedEvent(record);
        else {
          const happening = safely(() => translate(record!, recordEnv));
          if (happening) events = eventsOf(happening, open);
        }
        work = { events, since: Date.now(), env: recordEnv };
        pending.set(file, work);
      }
      while (work.events.length > 0) {
        const result = await postLive(work.events[0]!, work.env, BACKGROUND_TIMEOUT_MS);
        if (result === 'failed' && Date.now() - work.since < RETRY_FOR_MS) break;
        work.events.shift();
      }
      if (work.events.length > 0) break; // the relay is slow: this record, then the ones behind it, again
      fs.rmSync(file, { force: true });
      pending.delete(file);
      handled++;
      retryMs = RETRY_MIN_MS;
    }
    if (pending.size > 0) {
      saveOpen(dir, open);
      await new Promise((r) => setTimeout(r, retryMs));
      retryMs = Math.min(RETRY_MAX_MS, retryMs * 2);
    }
    quietSince = Date.now();
  }
}

function safely<T>(fn: () => T): T | undefined {
  try {
    return fn();
  } catch {
    return undefined;
  }
}
