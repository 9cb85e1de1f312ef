'use client';
// One agent question or action approval (ASK-3, ACTAPPROVE-2) in "Needs you": the
// question with its choices as buttons and a typed or dictated answer (VoiceInput),
// or the action with its reason and Approve / Deny. Answers are signed actions.
import { useState } from 'react';
import type { QuestionView } from '../../../protocol/wire/questions';
import { act } from '../../lib/actions';
import { sentence } from '../../lib/errors';
import { Button } from '../Button';
import { VoiceInput } from '../voice/VoiceInput';

const STATUS: Record<QuestionView['status'], string> = {
  pending: 'Waiting for you', answered: 'Answered', approved: 'Approved', denied: 'Denied', expired: 'No answer in time',
};

export function QuestionCard({ request, now }: { request: QuestionView; now: number }) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [text, setText] = useState('');
  const status = request.status === 'pending' && Date.parse(request.expiresAt) <= now ? 'expired' : request.status;
  const open = status === 'pending';

  async function send(run: () => ReturnType<typeof act>) {
    setBusy(true);
    setNotice(null);
    try {
      const result = await run();
      if (result.status === 'refused') setNotice(sentence(result.error));
      else if (result.status === 'queued') setNotice('You are offline: your answer is queued and is sent when the connection is back.');
    } finally {
      setBusy(false);
    }
  }
  const answerChoice = (choice: number) => send(() => act('question.answer', { request: request.id, via: 'choice', choice }));
  const answerText = () => send(() => act('question.answer', { request: request.id, via: 'text', text: text.trim() }));
  const decide = (decision: 'approve' | 'deny') => send(() => act('question.decide', { request: request.id, decision, ...(text.trim() ? { reason: text.trim() } : {}) }));

  const where = [request.repo, request.task, request.agent].filter(Boolean).join(' · ');
  const approval = request.kind === 'approval';
  return (
    <article className="card stack" data-testid="question-card" data-kind={request.kind} data-status={status} data-request={request.id}
      aria-label={approval ? `Approve ${request.title}?` : 'The agent asks you'}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <strong>{approval ? `Approve: ${request.title}` : 'The agent asks'}</strong>
        <span data-testid="question-status">
          {open
            ? <>{approval ? 'Denied automatically in' : 'Answer within'} <span className="mono" data-testid="question-countdown">{timeLeft(request.expiresAt, now)}</span></>
            : request.withdrawn ? 'Withdrawn: the agent stopped waiting' : `${STATUS[status]}${request.by ? ` · ${request.by}` : ''}`}
        </span>
      </div>
      <div className="muted wrap-anywhere" style={{ fontSize: '0.85em' }}>{where}</div>
      <p className="wrap-anywhere" style={{ margin: 0, whiteSpace: 'pre-wrap' }} data-testid="question-text">{approval ? request.reason : request.title}</p>
      {!open && request.answer ? <div className="muted wrap-anywhere" data-testid="question-answer">{request.answer}</div> : null}
      {notice ? <div className="notice" role="status" data-tone="danger" data-testid="question-notice">{notice}</div> : null}
      {open && !approval && request.choices.length > 0 ? (
        <div role="toolbar" aria-label="Choices" data-testid="question-choices"
          style={{ display: 'grid', gridTemplateColumns: 'repeat(auto-fit, minmax(9rem, 1fr))', gap: 8 }}>
          {request.choices.map((choice, i) => (
            <Button key={i} disabled={busy} onClick={() => void answerChoice(i)} data-testid="question-choice" style={{ overflowWrap: 'anywhere' }}>{choice}</Button>
          ))}
        </div>
      ) : null}
      {open ? (
        // An answer in the person's own words is a chat's composer: hold-to-talk and Send share a line.
        <form className={approval ? 'stack' : 'composer'} onSubmit={(e) => { e.preventDefault(); if (approval) void decide('deny'); else if (text.trim()) void answerText(); }}>
          <VoiceInput id={`answer-${request.id}`} label={approval ? 'Reason for the agent (optional)' : 'Or answer in your own words'} value={text} onChange={setText} rows={2} testId="question-input" />
          {approval ? (
            <div className="row">
              <Button variant="primary" disabled={busy} onClick={() => void decide('approve')} data-testid="question-approve">Approve</Button>
              <Button type="submit" variant="danger" disabled={busy} data-testid="question-deny">Deny</Button>
            </div>
          ) : (
            <Button type="submit" variant="primary" disabled={busy || !text.trim()} data-testid="question-send">Send answer</Button>
          )}
        </form>
      ) : null}
    </article>
  );
}

/** "4:59": what is left before the question settles by itself (no answer, or a denial: ASK-5, ACTAPPROVE-3). */
export function timeLeft(expiresAt: string, now: number): string {
  const left = Math.max(0, Math.ceil((Date.parse(expiresAt) - now) / 1000));
  return `${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}`;
}

/** Open questions first (newest first), then the recently settled ones. */
export function questionsShown(all: Record<string, QuestionView>): QuestionView[] {
  return Object.values(all).sort((a, b) => Number(b.status === 'pending') - Number(a.status === 'pending') || b.createdAt.localeCompare(a.createdAt));
}
