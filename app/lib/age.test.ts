import { describe, expect, it } from 'vitest';
import { ageText } from './age';

describe('a card\'s age', () => {
  const now = Date.parse('2026-12-03T22:00:00Z');
  it('ROOM-6: an age reads "just now", then minutes, hours and days ago; an unreadable time shows none', () => {
    expect(ageText('2026-12-03T21:59:30Z', now)).toBe('just now');
    expect(ageText('2026-12-03T21:56:00Z', now)).toBe('4 min ago');
    expect(ageText('2026-12-03T19:00:00Z', now)).toBe('3 h ago');
    expect(ageText('2026-12-01T21:00:00Z', now)).toBe('2 d ago');
    expect(ageText('2026-12-03T22:05:00Z', now)).toBe('just now'); // a clock a little ahead
    expect(ageText(null, now)).toBeNull();
    expect(ageText('yesterday', now)).toBeNull();
  });
});
