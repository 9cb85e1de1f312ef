import { describe, expect, it } from 'vitest';
import { anchorLabel, anchorPhrase } from './anchor';

describe('anchor labels', () => {
  it('REVIEW-6: notes and the timeline name the anchor in words, never the bus form', () => {
    expect(anchorLabel('general')).toBe('The whole task');
    expect(anchorLabel('card:src/a.js')).toBe('The file src/a.js');
    expect(anchorLabel('line:src/a:b.js:12')).toBe('Line 12 of src/a:b.js');
    expect(anchorPhrase('line:src/greeting.js:1')).toBe('line 1 of src/greeting.js');
    expect(anchorPhrase('general')).toBe('the whole task');
    expect(anchorLabel('something-else')).toBe('something-else');
    expect(anchorPhrase('something-else')).toBe('something-else');
  });
});
