import { describe, expect, it } from 'vitest';
import { ERROR_CODES } from '../../protocol/wire/errors';
import { isClientErrorCode, isDefinitive, sentence, toClientError } from './errors';

describe('errors', () => {
  it('APP-10: every wire error code and anything unknown becomes a sentence for a person', () => {
    for (const code of ERROR_CODES) {
      expect(isClientErrorCode(code)).toBe(true);
      const text = sentence({ code, message: 'x' });
      expect(text).toMatch(/^[A-Z].*\.$/);
    }
    expect(sentence(new Error('boom'))).toMatch(/unexpected problem/);
    expect(sentence(null)).toMatch(/unexpected problem/);
    expect(sentence('E_STALE_DIGEST')).toBe('The change was updated after you looked at it. Review the new diff and approve again.');
    expect(toClientError({ type: 'error', id: 'x', error: { code: 'E_CONFLICT', message: 'm' } })).toEqual({ code: 'E_CONFLICT', message: 'm' });
    expect(isDefinitive({ code: 'E_OFFLINE', message: '' })).toBe(false);
    for (const code of ['E_OFFLINE', 'E_TIMEOUT', 'E_NOT_PAIRED']) expect(isClientErrorCode(code)).toBe(true);
    for (const code of ['E_NOPE', 'toString', '', 42]) expect(isClientErrorCode(code)).toBe(false);
  });

  it('UX-9: a conflict says what the relay said, so "already decided" appears only when someone did decide', () => {
    expect(sentence({ code: 'E_CONFLICT', message: 'task T-1 is still in the inbox: nobody has claimed it, so there is no work for the council to review' }))
      .toBe('Not done: task T-1 is still in the inbox: nobody has claimed it, so there is no work for the council to review.');
    expect(sentence({ code: 'E_CONFLICT', message: 'request perm-1 was already allowed by Pixel' })).toBe('Not done: request perm-1 was already allowed by Pixel.');
    expect(sentence('E_CONFLICT')).not.toMatch(/already decided/);
    expect(isDefinitive({ code: 'E_STALE_DIGEST', message: '' })).toBe(true);
  });

  it('QUEUE-1: an offline failure of something that is not queued says so in its own words, not "Actions are queued"', () => {
    expect(sentence({ code: 'E_OFFLINE', message: 'Could not reach the relay, so this device is not paired. Press Pair again' }))
      .toBe('Could not reach the relay, so this device is not paired. Press Pair again.');
    expect(sentence('E_OFFLINE')).toMatch(/queued/);
    expect(sentence({ code: 'E_OFFLINE', message: 'socket closed' })).toMatch(/queued/);
  });

  it('QUEUE-4: a refusal that already says it was not done is not prefixed with "Not done: " again', () => {
    expect(sentence({ code: 'E_CONFLICT', message: 'not merged: main moved since the task branched and the two conflict in a.js; have the agent rebase' }))
      .toBe('Not merged: main moved since the task branched and the two conflict in a.js; have the agent rebase.');
    expect(sentence({ code: 'E_CONFLICT', message: 'nothing to merge' })).toBe('Not done: nothing to merge.');
  });
});
