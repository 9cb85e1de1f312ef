// `POST /api/events` (LIVE-n): an adapter's hook posts one live event with the
// hook credential; it is validated, kept in the bounded store and broadcast as
// an ephemeral `live.event` (never written to a bus).
import type * as http from 'node:http';
import { LiveEvent } from '../../protocol/live-events';
import type { RelayServices } from '../context';
import { readJsonAs, sendJson } from '../http/respond';
import { eventsOf, type Happening, type OpenCall } from '../../adapters/lib/hook-poster';
import { unfinishedEvent } from '../../adapters/lib/hook-actions';
import { asItself, checkScope, checkSession, hookCaller } from './scoped-tokens';
import { Commanders } from '../commanders/service';

export const LIVE_BODY_LIMIT = 64 * 1024;

export async function postLiveEvent(services: RelayServices, hookToken: string, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const caller = hookCaller(services, hookToken, req, 'live events');
  const body = await readJsonAs(req, LiveEvent, 'live event', LIVE_BODY_LIMIT);
  checkScope(caller, { task: body.task, agent: body.agent }, 'live event'); // JOBTOKEN-2
  checkSession(services, caller, body.session, 'live event'); // JOBTOKEN-3
  const event = asItself(caller, body);
  // A turn's or session's end also closes the calls a hook report left open (REPORT-3).
  if (event.kind === 'idle' || event.kind === 'end') ingestLive(services, { type: event.kind === 'idle' ? 'turn-end' : 'session-end', session: event.session, event });
  else publish(services, event);
  sendJson(res, 202, { ok: true });
}

/** Calls started through hook reports and not ended yet, per relay (LIVE-EMIT-5 for REPORT-n). */
const openCalls = new WeakMap<RelayServices, Map<string, OpenCall>>();
/** A bound on the calls kept open: the oldest is forgotten past it. */
export const OPEN_CALLS_LIMIT = 10_000;

/** What a hook route publishes after its answer (`publishAfterAnswer`), in the order the hooks came. */
const deferred = new WeakMap<RelayServices, Array<() => void>>();

/**
 * Runs `work` (publishing what a hook told) after the hook's answer has left and its connection
 * is closed — the relay closes it in the next loop iteration, and the hook reads to the end — so
 * the hook does not wait for it (REPORT-2, REPORT-4). Order is kept whatever the timing: anything
 * published later (any hook route, the poster's `POST /api/events`) first runs what is waiting.
 */
export function publishAfterAnswer(services: RelayServices, work: () => void): void {
  let waiting = deferred.get(services);
  if (!waiting) deferred.set(services, (waiting = []));
  waiting.push(work);
  // Two check phases on: past the next iteration's pending phase, where libuv sends the FIN.
  if (waiting.length === 1) setImmediate(() => setImmediate(() => runDeferred(services)));
}

function runDeferred(services: RelayServices): void {
  const waiting = deferred.get(services);
  if (!waiting?.length) return;
  for (const work of waiting.splice(0)) {
    try {
      work();
    } catch (error) {
      services.log.error(error, 'publishing a hook\'s live event');
    }
  }
}

/** Records and broadcasts what one hook call means, closing unfinished calls before a turn's or session's end. */
export function ingestLive(services: RelayServices, happening: Happening): void {
  runDeferred(services);
  let open = openCalls.get(services);
  if (!open) openCalls.set(services, (open = new Map()));
  for (const event of eventsOf(happening, open)) {
    if (endedAlready(services, event)) continue;
    const checked = LiveEvent.safeParse(event);
    if (checked.success) publish(services, checked.data);
  }
  while (open.size > OPEN_CALLS_LIMIT) open.delete(open.keys().next().value!);
}

/**
 * Whether `event` closes, as unfinished, a call whose completed event this relay already holds:
 * a completion that came through the hook spool (`POST /api/events`) never cleared the call a
 * report opened here, and on a slow relay that is the usual way (LIVE-DELIVER-1).
 */
function endedAlready(services: RelayServices, event: LiveEvent): boolean {
  if (event.ok !== false || event.seq === undefined || event.detail !== unfinishedEvent({ ...event }).detail) return false;
  const started = event.seq - 1;
  return services.live.recent(event.session).some(({ event: e }) =>
    !e.running && e.detail !== event.detail && e.kind === event.kind && e.summary === event.summary && e.cmd === event.cmd && e.file === event.file && (e.seq ?? 0) > started);
}

function publish(services: RelayServices, event: LiveEvent): void {
  runDeferred(services);
  if (services.live.holds(event)) return; // published already (REPORT-1)
  const stored = services.live.record(event);
  services.checks?.record(stored.event, stored.at);
  if (services.commanders instanceof Commanders) services.commanders.recordLive(stored.event); // CHAT-7
  services.broadcast({ type: 'live.event', at: stored.at, event: stored.event }, undefined, { ephemeral: true });
}
