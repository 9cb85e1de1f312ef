// How the app says when something happened: the phone's clock, the day only when it is not today.

/** HH:MM in the phone's time; another day also names the day ("1 Dec 14:02"). */
export function clock(at: Date, now = new Date()): string {
  const hhmm = `${String(at.getHours()).padStart(2, '0')}:${String(at.getMinutes()).padStart(2, '0')}`;
  return at.toDateString() === now.toDateString() ? hhmm : `${at.getDate()} ${at.toLocaleString('en', { month: 'short' })} ${hhmm}`;
}
