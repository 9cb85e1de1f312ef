// RESUME-3's label: "Synced 14:02" today, "Synced 3 Mar 14:02" another day, in the
// phone's own time zone — formatted without Intl (its first use is a startup cost).
import { describe, expect, it } from 'vitest';
import { syncedLabel } from './synced';

describe('syncedLabel', () => {
  it('RESUME-3: today is hours:minutes, zero-padded, 24-hour, local time', () => {
    const now = new Date(2026, 11, 1, 23, 59);
    expect(syncedLabel(new Date(2026, 11, 1, 5, 2).toISOString(), now)).toBe('05:02');
    expect(syncedLabel(new Date(2026, 11, 1, 17, 40).toISOString(), now)).toBe('17:40');
  });

  it('RESUME-3: another day adds the day and the month; a bad time is no label', () => {
    const now = new Date(2026, 11, 1, 9, 0);
    expect(syncedLabel(new Date(2026, 2, 3, 14, 2).toISOString(), now)).toBe('3 Mar 14:02');
    expect(syncedLabel(new Date(2026, 10, 30, 0, 5).toISOString(), now)).toBe('30 Nov 00:05');
    expect(syncedLabel('not a time', now)).toBeNull();
  });
});
