// plainLine as a table: what an agent-written line becomes before a person sees it.
import { describe, expect, it } from 'vitest';
import { plainLine } from './plain-text';

describe('plainLine', () => {
  it('CARD-2: controls, zero-width and bidi overrides become spaces; space collapses; the cut never breaks a pair and ends with an ellipsis', () => {
    expect(plainLine('  run\tthe\r\ntests  ', 100)).toBe('run the tests');
    expect(plainLine('a\u202eb\u2066c\u200bd\u0000e\u00adf\ufeffg', 100)).toBe('a b c d e f g');
    expect(plainLine('<b>x</b>', 100)).toBe('<b>x</b>');
    expect(plainLine('abcdef', 4)).toBe('abc…');
    expect(plainLine('ab\u{1F600}cd', 4)).toBe('ab…');
    expect(plainLine('ab cdef', 4)).toBe('ab…');
    expect(plainLine('\u202e\u0007', 10)).toBe('');
    expect(plainLine('x'.repeat(100_000), 500)).toHaveLength(500);
  });
});
