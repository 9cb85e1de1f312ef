// Live session telemetry (LIVE-n): a bounded ring of recent events per session
// and a bounded number of sessions, in memory only — live events are ephemeral.
// A session's events are kept in the order they happened (ORDER-2), not the order they arrived.
import type { LiveEvent } from '../../protocol/live-events';

export interface StoredLiveEvent {
  at: string;
  event: LiveEvent;
}

export const LIVE_EVENTS_PER_SESSION = 500;
export const LIVE_SESSIONS = 200;
/** How far in the past an emitter's own time is believed; older stamps are clamped (ORDER-2). */
export const MAX_EVENT_AGE_MS = 60 * 60 * 1000;

/**
 * The time an event is shown at: when it happened (its `seq`, microseconds) if that is
 * plausible, clamped into [now − 1 h, now], else when it arrived.
 */
export function happenedAt(event: LiveEvent, now = Date.now()): string {
  if (event.seq === undefined) return new Date(now).toISOString();
  const ms = Math.min(now, Math.max(now - MAX_EVENT_AGE_MS, Math.floor(event.seq / 1000)));
  return new Date(ms).toISOString();
}

/** Order of two stored events of one session: by time, then by `seq` (finer than a millisecond). */
export function compareStored(a: StoredLiveEvent, b: StoredLiveEvent): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  return (a.event.seq ?? 0) - (b.event.seq ?? 0);
}

export class LiveStore {
  // Map order = least recently updated first, so eviction takes the oldest session.
  private sessions = new Map<string, StoredLiveEvent[]>();

  constructor(
    private readonly perSession = LIVE_EVENTS_PER_SESSION,
    private readonly maxSessions = LIVE_SESSIONS,
  ) {}

  record(event: LiveEvent, at = happenedAt(event)): StoredLiveEvent {
    const stored = { at, event };
    const ring = this.sessions.get(event.session) ?? [];
    this.sessions.delete(event.session);
    // A late arrival goes where it happened; the common case (in order) is a push.
    let i = ring.length;
    while (i > 0 && compareStored(ring[i - 1]!, stored) > 0) i--;
    ring.splice(i, 0, stored);
    if (ring.length > this.perSession) ring.splice(0, ring.length - this.perSession);
    this.sessions.set(event.session, ring);
    while (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    return stored;
  }

  /**
   * Whether this very event (same `seq`, same content) is already kept: a hook that gave up on a
   * slow relay spools what the relay still published, and the poster brings it again (REPORT-1).
   */
  holds(event: LiveEvent): boolean {
    if (event.seq === undefined) return false;
    const ring = this.sessions.get(event.session);
    if (!ring) return false;
    const text = JSON.stringify(event);
    return ring.some((s) => s.event.seq === event.seq && JSON.stringify(s.event) === text);
  }

  /** Recent events of one session, in the order they happened. */
  recent(session: string): StoredLiveEvent[] {
    return [...(this.sessions.get(session) ?? [])];
  }

  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }
}
