// Dictation joins onto what was typed and shows interim guesses (VOICE-1).
import { describe, expect, it } from 'vitest';
import { joinText, speechErrorSentence, transcriptOf } from './speech';

describe('speech helpers', () => {
  it('VOICE-1: the transcript is final parts then the interim guess, joined onto the typed text', () => {
    const results = [{ isFinal: true, 0: { transcript: 'rename the' } }, { isFinal: false, 0: { transcript: ' helper' } }];
    expect(transcriptOf({ resultIndex: 1, results })).toBe('rename the helper');
    expect(joinText('', 'hello')).toBe('hello');
    expect(joinText('Note:', 'hello')).toBe('Note: hello');
    expect(joinText('Note: ', 'hello')).toBe('Note: hello');
    expect(joinText('kept', '')).toBe('kept');
  });

  it('VOICE-3: speech errors become sentences that say what to do', () => {
    expect(speechErrorSentence('not-allowed')).toMatch(/Allow it/);
    expect(speechErrorSentence('weird')).toMatch(/Type instead/);
  });
});
