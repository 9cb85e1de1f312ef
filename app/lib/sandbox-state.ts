// Whether a task's agent sessions run without a sandbox (SBXDEF-8), from the `sandbox` field the
// hooks put on live events: a session counts by its newest event that says. Pure, unit-tested.
import type { LiveEvent } from '../../protocol/live-events';

type Arrived = Record<string, { at: string; event: LiveEvent }[]>;

/** The sessions of `task` whose newest event that says anything about the sandbox says `off`. */
export function unsandboxedSessions(live: Arrived, task: string): string[] {
  const off: string[] = [];
  for (const [session, list] of Object.entries(live)) {
    let newest: { at: string; event: LiveEvent } | undefined;
    for (const entry of list) {
      if (entry.event.task !== task || entry.event.sandbox === undefined) continue;
      if (!newest || entry.at > newest.at || (entry.at === newest.at && (entry.event.seq ?? 0) >= (newest.event.seq ?? 0))) newest = entry;
    }
    if (newest?.event.sandbox === 'off') off.push(session);
  }
  return off;
}
