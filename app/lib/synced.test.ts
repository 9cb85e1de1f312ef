// RESUME-3's label: "Synced <time>" in the app's one time format (VOCAB-7): the person's locale, the
// phone's time zone, the day only when it is not today.
import { describe, expect, it } from 'vitest';
import { syncedLabel } from './synced';

const time = (d: Date) => new Intl.DateTimeFormat(undefined, { hour: 'numeric', minute: '2-digit' }).format(d);
const dayTime = (d: Date) => new Intl.DateTimeFormat(undefined, { day: 'numeric', month: 'short', hour: 'numeric', minute: '2-digit' }).format(d);

describe('syncedLabel', () => {
  it('RESUME-3 VOCAB-7: today is the time in the person\'s locale, local time', () => {
    const now = new Date(2026, 11, 1, 23, 59);
    const early = new Date(2026, 11, 1, 5, 2);
    expect(syncedLabel(early.toISOString(), now)).toBe(time(early));
    expect(syncedLabel(early.toISOString(), now)).toMatch(/\b0?5[:.]02\b/);
  });

  it('RESUME-3: another day adds the day and the month; a bad time is no label', () => {
    const now = new Date(2026, 11, 1, 9, 0);
    const other = new Date(2026, 2, 3, 14, 2);
    expect(syncedLabel(other.toISOString(), now)).toBe(dayTime(other));
    expect(syncedLabel(other.toISOString(), now)).toMatch(/\b3\b/);
    expect(syncedLabel('not a time', now)).toBeNull();
  });
});
