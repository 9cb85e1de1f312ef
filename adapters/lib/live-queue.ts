// Delivery of a node hook's live events (LIVE-DELIVER-1): each event is first written to this
// home's outbox (`hook-state/outbox/`, the spool's record format), then the hook drains the
// outbox unless another hook process already does. A record leaves the outbox only once the
// relay acknowledged it; a slow relay holds it and every record behind it, nothing is skipped.
// The relay keeps one copy of an event sent twice (same `seq`, same content, REPORT-1), so an
// event whose acknowledgement was lost may safely be sent again.
//
// Queueing and posting are two steps so that what depends on an event's place in the order
// (a call's start marker, the next hook of an OpenCode batch) waits only for the first one.
import type { LiveEvent } from '../../protocol/live-events';
import type { Env } from './env';
import { runPoster } from './hook-poster';
import { outboxDir, writeRecord } from './hook-spool';
import { BACKGROUND_TIMEOUT_MS, type PostResult, postLive } from './live-post';

/** Now, in microseconds since the epoch: the `seq` of an event stamped in this process (ORDER-2). */
export function nowSeq(): number {
  return Math.floor((performance.timeOrigin + performance.now()) * 1000);
}

/** One hook process's live events: `queue` fixes each one's place in the order, `drain` posts them. */
export class LiveOutbox {
  private queued = false;
  /** Events that could not be queued (no writable home, a sandboxed job's): this process posts them itself. */
  private readonly direct: LiveEvent[] = [];

  constructor(private readonly env: Env = process.env) {}

  /**
   * Writes `event` to the outbox, after every event queued before it (synchronous). An event's
   * `seq` is what the relay recognises a re-sent event by; one without (a call closed at turn
   * end) is left without, so the relay places it on arrival (before the session's `end`).
   */
  queue(event: LiveEvent): void {
    try {
      writeRecord(outboxDir(this.env), 'live', this.env, event, nowSeq());
      this.queued = true;
    } catch {
      this.direct.push(event);
    }
  }

  /** Whether every event so far has its place in the outbox: none waits for this process to post it itself. */
  get inOrder(): boolean {
    return this.direct.length === 0;
  }

  /**
   * Posts what was queued; resolves once this process's part is done (the events are
   * acknowledged, or another live hook process holds the outbox and will post them). Never rejects.
   */
  async drain(): Promise<void> {
    for (const event of this.direct.splice(0)) await postUntilDone(event, this.env);
    if (!this.queued) return;
    this.queued = false;
    try {
      await runPoster(this.env, () => undefined, 0, outboxDir(this.env));
    } catch { /* the records stay for the next hook */ }
  }
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
