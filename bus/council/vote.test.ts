import { describe, expect, it } from 'vitest';
import { parseVote, tally } from './vote';

describe('vote parsing', () => {
  it('COUNCIL-3: only an exact VOTE line counts; the first REASON line after it is the reason', () => {
    expect(parseVote('REASON: early\nVOTE: FAIL\r\nnoise\nREASON: late one\nREASON: ignored\n')).toEqual({ vote: 'FAIL', reason: 'late one' });
    expect(parseVote('VOTE: PASS')).toEqual({ vote: 'PASS', reason: '' });
    expect(parseVote(' VOTE: PASS\nVOTE: pass\nVOTE:PASS\n**VOTE: PASS**')).toBeNull();
    expect(parseVote('  VOTE: PASS  \n  REASON: ok\t', true)).toEqual({ vote: 'PASS', reason: 'ok' });
  });

  it('COUNCIL-6: PASS needs two PASS votes', () => {
    const v = (vote: 'PASS' | 'FAIL' | 'ABSTAIN') => ({ dimension: 'style' as const, vote, reason: '' });
    expect(tally([v('PASS'), v('PASS'), v('ABSTAIN')])).toBe('PASS');
    expect(tally([v('PASS'), v('FAIL'), v('ABSTAIN')])).toBe('FAIL');
    expect(tally([v('ABSTAIN'), v('ABSTAIN'), v('ABSTAIN')])).toBe('FAIL');
  });
});
