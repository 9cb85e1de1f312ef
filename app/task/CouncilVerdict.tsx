// The council's verdict, honestly (REVIEW-5, UX-7): the tally (2 of 3 reviewers passed it) and each
// vote with its reason; when no reviewer could vote at all the card says the council
// is not configured, in neutral colours — that FAIL says nothing about the work.
import type { Verdict, Vote } from '../../protocol/bus/verdict';
import { clock, clockFull } from '../lib/clock';
import { verdictWord } from '../lib/words';

const DIMENSIONS: Record<Vote['dimension'], string> = {
  'acceptance-criteria': 'Acceptance criteria', 'code-quality': 'Code quality', style: 'Style',
};
const VOTE_TONE: Record<Vote['vote'], string | undefined> = { PASS: 'ok', FAIL: 'danger', ABSTAIN: undefined };

/** Why a member abstained, in a sentence a person can act on. */
export function abstainSentence(reason: string): string {
  if (/ANTHROPIC_API_KEY|api key/i.test(reason)) return 'No API key is configured on the relay, so this member could not vote (set ANTHROPIC_API_KEY where the relay runs).';
  if (/timeout/i.test(reason)) return `This member took too long and was stopped (${reason}).`;
  if (/did not start|exit|killed/i.test(reason)) return `This member’s evaluator failed (${reason}).`;
  return `This member could not vote: ${reason}`;
}

export interface Tally { pass: number; voted: number; total: number }

export function tallyOf(verdict: Verdict): Tally {
  return {
    pass: verdict.votes.filter((v) => v.vote === 'PASS').length,
    voted: verdict.votes.filter((v) => v.vote !== 'ABSTAIN').length,
    total: verdict.votes.length,
  };
}

/** True when the verdict is a FAIL some reviewer actually voted for (approving over it deserves a second thought). */
/** "2 of 3 reviewers passed it": the tally beside the verdict, never the verdict's word twice. */
export function tallySentence(tally: Tally): string {
  return `${tally.pass} of ${tally.total} ${tally.total === 1 ? 'reviewer' : 'reviewers'} passed it`;
}

export function isRealFail(verdict: Verdict | null): boolean {
  return verdict !== null && verdict.verdict === 'FAIL' && tallyOf(verdict).voted > 0;
}

export function CouncilVerdict({ verdict }: { verdict: Verdict }) {
  const tally = tallyOf(verdict);
  const none = tally.voted === 0;
  return (
    <section className="card task-section council" aria-labelledby="council-title" data-testid="council-verdict"
      data-verdict={none ? 'none' : verdict.verdict} data-tone={none ? undefined : verdict.verdict === 'PASS' ? 'ok' : 'danger'}>
      <h2 id="council-title" className="task-h2">
        {none ? (
          <span data-testid="council-none">No reviewer could vote — council not configured</span>
        ) : (
          <>Council: <span className="pill" data-tone={verdict.verdict === 'PASS' ? 'ok' : 'danger'}>{verdictWord(verdict.verdict)}</span>{' '}
            <span className="council-tally" data-testid="council-tally">{tallySentence(tally)}</span></>
        )}
      </h2>
      {none ? <p className="muted council-none-help">The verdict on the bus stays FAIL, but it says nothing about this change. Set up the council’s evaluator on the relay to get real votes.</p> : null}
      <ul className="task-votes">
        {verdict.votes.map((v) => (
          <li key={v.dimension} data-testid="council-vote" data-vote={v.vote}>
            <strong>{DIMENSIONS[v.dimension]}</strong>{' '}
            <span className="pill" data-tone={VOTE_TONE[v.vote]}>{v.vote === 'ABSTAIN' ? 'no vote' : v.vote}</span>
            <div className="muted">{v.vote === 'ABSTAIN' ? abstainSentence(v.reason) : v.reason}</div>
          </li>
        ))}
      </ul>
      <p className="muted">Reviewed at <time dateTime={verdict.ts} title={clockFull(new Date(verdict.ts))}>{clock(new Date(verdict.ts))}</time></p>
    </section>
  );
}
