import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../protocol/wire/errors';
import { isDefinitive, sentence, toClientError } from './errors';

describe('errors', () => {
  it('APP-10: every wire error code and anything unknown becomes a sentence for a person', () => {
    for (const code of ERROR_CODES) {
      const text = sentence({ code, message: 'x' });
      expect(text).toMatch(/^[A-Z].*\.$/);
    }
    expect(sentence(new Error('boom'))).toMatch(/unexpected problem/);
    expect(sentence(null)).toMatch(/unexpected problem/);
    expect(sentence('E_STALE_DIGEST')).toBe('The change was updated after you looked at it. Review the new diff and approve again.');
    expect(toClientError({ type: 'error', id: 'x', error: { code: 'E_CONFLICT', message: 'm' } })).toEqual({ code: 'E_CONFLICT', message: 'm' });
    expect(isDefinitive({ code: 'E_OFFLINE', message: '' })).toBe(false);
    expect(isDefinitive({ code: 'E_STALE_DIGEST', message: '' })).toBe(true);
  });
});
