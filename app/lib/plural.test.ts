import { describe, expect, it } from 'vitest';
import { plural } from './plural';

describe('plural', () => {
  it('UX-10: one is singular, every other count plural', () => {
    expect(plural(1, 'unread note')).toBe('1 unread note');
    expect(plural(0, 'file')).toBe('0 files');
    expect(plural(2, 'file')).toBe('2 files');
    expect(plural(3, 'request', 'requests')).toBe('3 requests');
  });
});
