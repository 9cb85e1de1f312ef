// Live session telemetry (LIVE-n): a bounded ring of recent events per session
// and a bounded number of sessions, in memory only — live events are ephemeral.
import type { LiveEvent } from '../../protocol/live-events';

export interface StoredLiveEvent {
  at: string;
  event: LiveEvent;
}

export const LIVE_EVENTS_PER_SESSION = 500;
export const LIVE_SESSIONS = 200;

export class LiveStore {
  // Map order = least recently updated first, so eviction takes the oldest session.
  private sessions = new Map<string, StoredLiveEvent[]>();

  constructor(
    private readonly perSession = LIVE_EVENTS_PER_SESSION,
    private readonly maxSessions = LIVE_SESSIONS,
  ) {}

  record(event: LiveEvent, at = new Date().toISOString()): StoredLiveEvent {
    const stored = { at, event };
    const ring = this.sessions.get(event.session) ?? [];
    this.sessions.delete(event.session);
    ring.push(stored);
    if (ring.length > this.perSession) ring.splice(0, ring.length - this.perSession);
    this.sessions.set(event.session, ring);
    while (this.sessions.size > this.maxSessions) this.sessions.delete(this.sessions.keys().next().value!);
    return stored;
  }

  /** Recent events of one session, oldest first. */
  recent(session: string): StoredLiveEvent[] {
    return [...(this.sessions.get(session) ?? [])];
  }

  sessionIds(): string[] {
    return [...this.sessions.keys()];
  }
}
