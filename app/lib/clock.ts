// How the app says when something happened (VOCAB-7): ONE time format, the person's own locale
// (Intl.DateTimeFormat with the browser's locale, 12- or 24-hour as the locale says; never forced),
// in the phone's time zone; the day is named only when it is not today. Every time shown in
// app/ goes through here (app/lib/words.test.ts fails on toLocaleTimeString/hour12 elsewhere).

const TIME: Intl.DateTimeFormatOptions = { hour: 'numeric', minute: '2-digit' };
const DAY_TIME: Intl.DateTimeFormatOptions = { day: 'numeric', month: 'short', ...TIME };
const FULL: Intl.DateTimeFormatOptions = { year: 'numeric', month: 'short', day: 'numeric', hour: 'numeric', minute: '2-digit', second: '2-digit' };

let formats: { time: Intl.DateTimeFormat; dayTime: Intl.DateTimeFormat; full: Intl.DateTimeFormat } | null = null;

/** Made on first use, in the page (the person's locale), not at build time. */
function f() {
  return formats ??= { time: new Intl.DateTimeFormat(undefined, TIME), dayTime: new Intl.DateTimeFormat(undefined, DAY_TIME), full: new Intl.DateTimeFormat(undefined, FULL) };
}

/** The time in the person's locale ("14:02" or "2:02 PM"); another day also names the day. */
export function clock(at: Date, now = new Date()): string {
  return at.toDateString() === now.toDateString() ? f().time.format(at) : f().dayTime.format(at);
}

/** The full date and time, same locale (for a tooltip: the `title` of a <time>). */
export function clockFull(at: Date): string {
  return f().full.format(at);
}
