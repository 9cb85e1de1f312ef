// Keeps a tool call's live events in order although both hooks run detached: the start
// hook leaves a marker once its `running:true` event is out; the end hook waits briefly
// (in the background, never on the agent) for that marker before posting the completed event.
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { type Env, commandrHome } from './env';

export const ORDER_WAIT_MS = 1500;
/** Markers of calls that never completed (denied, interrupted) are removed after this long. */
export const STALE_MARKER_MS = 10 * 60 * 1000;

const markerFile = (env: Env, session: string, callId: string): string =>
  path.join(commandrHome(env), 'hook-state', 'calls', createHash('sha256').update(`${session}\n${callId}`).digest('hex').slice(0, 32));

export function markStarted(env: Env, session: string, callId: string | undefined): void {
  if (!callId) return;
  const file = markerFile(env, session, callId);
  try {
    fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    fs.writeFileSync(file, '');
  } catch { /* ordering is best effort */ }
}

/** Resolves once the start marker exists (then removes it) or after `ORDER_WAIT_MS`. */
export async function awaitStarted(env: Env, session: string, callId: string | undefined, waitMs = ORDER_WAIT_MS): Promise<void> {
  if (!callId) return;
  const file = markerFile(env, session, callId);
  const deadline = Date.now() + waitMs;
  while (!fs.existsSync(file) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  fs.rmSync(file, { force: true });
}

/** Removes markers left by calls that never reported an end; run at turn end. */
export function pruneMarkers(env: Env, now = Date.now()): void {
  const dir = path.join(commandrHome(env), 'hook-state', 'calls');
  let names: string[];
  try {
    names = fs.readdirSync(dir);
  } catch {
    return;
  }
  for (const name of names) {
    const file = path.join(dir, name);
    try {
      if (now - fs.statSync(file).mtimeMs > STALE_MARKER_MS) fs.rmSync(file, { force: true });
    } catch { /* raced with another hook */ }
  }
}
