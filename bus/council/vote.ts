// Reading one evaluator's answer into a vote, and three votes into a verdict
// (COUNCIL-3, COUNCIL-6): the only place the PASS/FAIL rules live.
import type { CouncilDimension, Vote } from '../../protocol/bus/verdict';

export type VoteValue = Vote['vote'];
export type Verdict = 'PASS' | 'FAIL';

/** Reasons go into a JSON file and a phone's screen: one line, no control characters, bounded. */
export const MAX_REASON_CHARS = 500;

export function oneLine(text: string): string {
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > MAX_REASON_CHARS ? flat.slice(0, MAX_REASON_CHARS - 1) + '…' : flat;
}

/**
 * Finds the first line that is exactly `VOTE: PASS` or `VOTE: FAIL` (a trailing
 * CR tolerated; `lenient` also tolerates surrounding blanks, for model replies)
 * and the first `REASON: ` line after it. No vote line → null.
 */
export function parseVote(text: string, lenient = false): { vote: 'PASS' | 'FAIL'; reason: string } | null {
  const lines = text.split('\n').map((l) => (lenient ? l.trim() : l.replace(/\r$/, '')));
  const at = lines.findIndex((l) => l === 'VOTE: PASS' || l === 'VOTE: FAIL');
  if (at === -1) return null;
  const vote = lines[at] === 'VOTE: PASS' ? 'PASS' : 'FAIL';
  const reasonLine = lines.slice(at + 1).find((l) => l.startsWith('REASON: '));
  return { vote, reason: reasonLine === undefined ? '' : oneLine(reasonLine.slice('REASON: '.length)) };
}

export function abstain(dimension: CouncilDimension, reason: string): Vote {
  return { dimension, vote: 'ABSTAIN', reason: oneLine(reason) };
}

/** PASS iff at least two PASS votes; ties and all-abstain are FAIL. */
export function tally(votes: readonly Vote[]): Verdict {
  return votes.filter((v) => v.vote === 'PASS').length >= 2 ? 'PASS' : 'FAIL';
}

export function abstentions(votes: readonly Vote[]): number {
  return votes.filter((v) => v.vote === 'ABSTAIN').length;
}
