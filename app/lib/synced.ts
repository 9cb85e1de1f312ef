// The "Synced …" label's time (RESUME-3), in the one time format of the app (VOCAB-7, app/lib/clock.ts).
//
// API:
//   syncedLabel(iso, now?) → the time today ("14:02" or "2:02 PM", as the person's locale writes it),
//   with the day another day, in the phone's time zone; null for a bad time
import { clock } from './clock';

export function syncedLabel(iso: string, now = new Date()): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  return clock(at, now);
}
