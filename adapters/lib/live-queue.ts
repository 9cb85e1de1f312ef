// Delivery of a node hook's live events (LIVE-DELIVER-1): each event is first written to this
// home's outbox (`hook-state/outbox/`, the spool's record format), then the hook drains the
// outbox unless another hook process already does. A record leaves the outbox only once the
// relay acknowledged it; a slow relay holds it and every record behind it, nothing is skipped.
// The relay keeps one copy of an event sent twice (same `seq`, same content, REPORT-1), so an
// event whose acknowledgement was lost may safely be sent again.
import type { LiveEvent } from '../../protocol/live-events';
import type { Env } from './env';
import { runPoster } from './hook-poster';
import { outboxDir, writeRecord } from './hook-spool';
import { BACKGROUND_TIMEOUT_MS, type PostResult, postLive } from './live-post';

const nowSeq = (): number => Math.floor((performance.timeOrigin + performance.now()) * 1000);

/**
 * Queues `event` and drains the queue; resolves once this process's part is done (the event is
 * acknowledged, or another live hook process holds the queue and will post it). Never rejects.
 */
export async function deliverLive(event: LiveEvent, env: Env = process.env): Promise<void> {
  // An event's `seq` is what the relay recognises a re-sent event by; one without (a call closed
  // at turn end) is left without, so the relay places it on arrival (before the session's `end`).
  const stamped = event;
  const dir = outboxDir(env);
  try {
    writeRecord(dir, 'live', env, stamped, nowSeq());
  } catch {
    // No writable home (a sandboxed job's): this process retries the one event itself.
    await postUntilDone(stamped, env);
    return;
  }
  try {
    await runPoster(env, () => undefined, 0, dir);
  } catch { /* the record stays for the next hook */ }
}

async function postUntilDone(event: LiveEvent, env: Env, forMs = 60_000): Promise<PostResult> {
  const until = Date.now() + forMs;
  let wait = 100;
  for (;;) {
    const result = await postLive(event, env, BACKGROUND_TIMEOUT_MS);
    if (result !== 'failed' || Date.now() > until) return result;
    await new Promise((r) => setTimeout(r, wait));
    wait = Math.min(2000, wait * 2);
  }
}
