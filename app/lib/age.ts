// How long ago something happened, for a card ("4 min ago", ROOM-6), and one shared clock that
// ticks for every card at once: a minute-resolution age needs no per-card timer.
import { useSyncExternalStore } from 'react';

const MIN = 60_000;
const HOUR = 60 * MIN;
const DAY = 24 * HOUR;

/** "just now", "4 min ago", "3 h ago", "2 d ago"; null for a time that cannot be read. */
export function ageText(at: string | number | null | undefined, now: number): string | null {
  if (at === null || at === undefined) return null;
  const then = typeof at === 'number' ? at : Date.parse(at);
  if (!Number.isFinite(then)) return null;
  const ago = Math.max(0, now - then);
  if (ago < MIN) return 'just now';
  if (ago < HOUR) return `${Math.floor(ago / MIN)} min ago`;
  if (ago < DAY) return `${Math.floor(ago / HOUR)} h ago`;
  return `${Math.floor(ago / DAY)} d ago`;
}

/** How often the shared clock ticks: an age in minutes is never more than this late. */
export const TICK_MS = 20_000;

let now = Date.now();
const listeners = new Set<() => void>();
let timer: ReturnType<typeof setInterval> | null = null;

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    now = Date.now();
    timer = setInterval(() => {
      now = Date.now();
      for (const l of listeners) l();
    }, TICK_MS);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0 && timer) {
      clearInterval(timer);
      timer = null;
    }
  };
}

/** The time now, re-rendering its reader every TICK_MS while one is on screen. */
export function useNow(): number {
  return useSyncExternalStore(subscribe, () => now, () => now);
}
