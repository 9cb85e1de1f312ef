// Keeps a tool call's live events whole although both hooks run detached. The start hook
// leaves a marker (holding the event to send if the call never ends) once its `running:true`
// event is queued in order (LIVE-DELIVER-1), not once the relay took it; the end hook waits
// briefly for it (in the background, never on the agent) and claims it. At turn end, markers
// nobody claimed — denied or interrupted calls, for which the agent fires no end hook — are
// closed with a failed completed event, so no line stays running.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { LiveEvent } from '../../protocol/live-events';
import { type Env, commandrHome } from './env';

export const ORDER_WAIT_MS = 1500;
/** How long turn end gives end hooks launched before it to claim their markers (an OpenCode batch: none, they ran before it). */
export const SWEEP_GRACE_MS = 3000;
/** Markers of other sessions left behind (a crash) are removed after this long. */
export const STALE_MARKER_MS = 10 * 60 * 1000;

const hash = (text: string): string => createHash('sha256').update(text).digest('hex').slice(0, 16);
const callsDir = (env: Env): string => path.join(commandrHome(env), 'hook-state', 'calls');
const markerFile = (env: Env, session: string, callId: string): string => path.join(callsDir(env), `${hash(session)}.${hash(callId)}`);

/** Leaves the marker; `unfinished` is what turn end posts if no end hook claims it. */
export function markStarted(env: Env, session: string, callId: string | undefined, unfinished?: LiveEvent): void {
  if (!callId) return;
  const file = markerFile(env, session, callId);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, unfinished ? JSON.stringify(unfinished) : '');
  } catch { /* ordering is best effort */ }
}

/** Resolves once the start marker exists (then claims it) or after `waitMs`. */
export async function awaitStarted(env: Env, session: string, callId: string | undefined, waitMs = ORDER_WAIT_MS): Promise<void> {
  if (!callId) return;
  const file = markerFile(env, session, callId);
  const deadline = Date.now() + waitMs;
  while (!fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  fs.rmSync(file, { force: true });
}

/**
 * After the grace period, claims this session's markers left from before turn end (calls of
 * a next turn that started meanwhile are not touched) and returns their events.
 */
export async function sweepUnfinished(env: Env, session: string, graceMs = SWEEP_GRACE_MS): Promise<LiveEvent[]> {
  const turnEnd = Date.now();
  await new Promise((r) => setTimeout(r, graceMs));
  const prefix = `${hash(session)}.`;
  let names: string[];
  try {
    names = fs.readdirSync(callsDir(env)).filter((n) => n.startsWith(prefix));
  } catch {
    return [];
  }
  const events: LiveEvent[] = [];
  for (const name of names) {
    const file = path.join(callsDir(env), name);
    try {
      // Whole milliseconds: Date.now() truncates, mtimeMs does not, so a marker written
      // in the same millisecond as the turn end would otherwise look newer than it.
      if (Math.floor(fs.statSync(file).mtimeMs) > turnEnd) continue;
      const text = fs.readFileSync(file, 'utf8');
      fs.unlinkSync(file); // claimed: an end hook arriving now finds nothing to wait for
      const parsed = LiveEvent.safeParse(text ? JSON.parse(text) : undefined);
      if (parsed.success) events.push(parsed.data);
    } catch { /* claimed by an end hook meanwhile */ }
  }
  return events;
}

/** Removes markers of any session older than `STALE_MARKER_MS`. */
export function pruneMarkers(env: Env, now = Date.now()): void {
  let names: string[];
  try {
    names = fs.readdirSync(callsDir(env));
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(callsDir(env), name);
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_MARKER_MS) fs.rmSync(file, { force: true });
    } catch { /* raced with another hook */ }
  }
}
