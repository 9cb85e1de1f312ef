// The council's verdict and its three votes; an abstention says why in words (REVIEW-5).
import type { Verdict, Vote } from '../../protocol/bus/verdict';

const DIMENSIONS: Record<Vote['dimension'], string> = {
  'acceptance-criteria': 'Acceptance criteria', 'code-quality': 'Code quality', style: 'Style',
};

/** Why a member abstained, in a sentence a person can act on. */
export function abstainSentence(reason: string): string {
  if (/ANTHROPIC_API_KEY|api key/i.test(reason)) return 'No API key is configured on the relay, so this member could not vote (set ANTHROPIC_API_KEY where the relay runs).';
  if (/timeout/i.test(reason)) return `This member took too long and was stopped (${reason}).`;
  if (/did not start|exit|killed/i.test(reason)) return `This member’s evaluator failed (${reason}).`;
  return `This member could not vote: ${reason}`;
}

export function CouncilVerdict({ verdict }: { verdict: Verdict }) {
  return (
    <section className="card task-section" aria-labelledby="council-title" data-testid="council-verdict" data-verdict={verdict.verdict}>
      <h2 id="council-title" className="task-h2">
        Council: <span className="pill" data-tone={verdict.verdict === 'PASS' ? 'ok' : 'danger'}>{verdict.verdict}</span>
      </h2>
      <ul className="task-votes">
        {verdict.votes.map((v) => (
          <li key={v.dimension} data-testid="council-vote" data-vote={v.vote}>
            <strong>{DIMENSIONS[v.dimension]}</strong>: {v.vote}
            <div className="muted">{v.vote === 'ABSTAIN' ? abstainSentence(v.reason) : v.reason}</div>
          </li>
        ))}
      </ul>
      <p className="muted">{new Date(verdict.ts).toLocaleString()}</p>
    </section>
  );
}
