// The "Synced …" label's time (RESUME-3).
//
// API:
//   syncedLabel(iso, now?) → "14:02" today, "3 Mar 14:02" another day (the phone's time zone), null for a bad time

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * "14:02" today, "3 Mar 14:02" another day, in the phone's own time zone. Formatted by
 * hand: the first Intl date format of a page loads the locale data, the costliest
 * step of the Inbox's startup (~60 ms here, more on a phone), and this label shows
 * while the app connects.
 */
export function syncedLabel(iso: string, now = new Date()): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const time = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  return at.toDateString() === now.toDateString() ? time : `${at.getDate()} ${MONTHS[at.getMonth()]} ${time}`;
}
