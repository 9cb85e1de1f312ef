'use client';
// One permission request (PERM-UI-1): the tool, what the agent says it is doing and
// why the policy asks (CARD-3, plain text only), the command or a small diff, repo,
// task and agent; Allow once, Allow for this session, Deny (with an optional reason).
import { useState } from 'react';
import type { PermissionDecision, PermissionRequestView } from '../../../protocol/wire/views';
import { act } from '../../lib/actions';
import { sentence } from '../../lib/errors';
import { Button } from '../Button';
import { countdown, diffLines, policySegments, riskOf, SAID_FOLD_AT, STATUS_TEXT, shownStatus } from './view-model';

export function PermissionCard({ request, now }: { request: PermissionRequestView; now: number }) {
  const [busy, setBusy] = useState(false);
  const [notice, setNotice] = useState<string | null>(null);
  const [denying, setDenying] = useState(false);
  const [reason, setReason] = useState('');
  const [saidOpen, setSaidOpen] = useState(false);
  const status = shownStatus(request, now);
  const open = status === 'pending';

  async function decide(decision: PermissionDecision, why?: string) {
    setBusy(true);
    setNotice(null);
    try {
      const result = await act('permission.decide', { request: request.id, decision, ...(why ? { reason: why } : {}) });
      if (result.status === 'refused') setNotice(sentence(result.error));
      else if (result.status === 'queued') setNotice('You are offline: your answer is queued and is sent when the connection is back.');
    } finally {
      setBusy(false);
      setDenying(false);
    }
  }

  const lines = request.detail ? diffLines(request.detail) : null;
  // Deny leads (primary, first) when the request is risky (UX-8).
  const risk = riskOf(request);
  const where = [request.repo ?? request.cwd, request.task, request.agent].filter(Boolean).join(' · ');
  return (
    <article className="card stack" data-testid="permission-card" data-status={status} data-request={request.id} aria-label={`${request.tool} needs your OK`}>
      <div className="row" style={{ justifyContent: 'space-between' }}>
        <strong>{request.tool}</strong>
        <span data-testid="permission-status">
          {open ? <>Denied automatically in <span className="mono" data-testid="permission-countdown">{countdown(request, now)}</span></> : `${STATUS_TEXT[status]}${request.decidedBy ? ` · ${request.decidedBy}` : ''}`}
        </span>
      </div>
      {risk ? <div className="notice" data-tone="danger" data-testid="permission-risk" style={{ paddingLeft: 8 }}>{risk} Deny unless you expected it.</div> : null}
      {request.description ? <Said text={request.description} open={saidOpen} onToggle={() => setSaidOpen(!saidOpen)} /> : null}
      {request.policy ? (
        <div className="wrap-anywhere" data-testid="permission-why" style={{ fontSize: '0.9em' }}>
          <span className="muted">Why you are asked: </span>
          {policySegments(request).map((s, i) => (s.code ? <code key={i} className="mono">{s.text}</code> : <span key={i}>{s.text}</span>))}
        </div>
      ) : null}
      <div className="muted wrap-anywhere" style={{ fontSize: '0.85em' }}>{where}</div>
      {lines ? (
        <pre className="permission-detail" data-testid="permission-diff" style={{ overflowX: 'auto', margin: 0 }}>
          {lines.map((l, i) => (
            <div key={i} style={{ color: l.mark === '+' ? 'var(--ok, #1a7f37)' : l.mark === '-' ? 'var(--danger, #cf222e)' : undefined }}>{l.mark === '@' ? l.text : `${l.mark}${l.text}`}</div>
          ))}
        </pre>
      ) : (
        <pre className="permission-detail" data-testid="permission-command" style={{ overflowX: 'auto', margin: 0, whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>{request.detail ?? request.summary}</pre>
      )}
      {status !== 'pending' && request.reason ? <div className="muted" data-testid="permission-reason">{request.reason}</div> : null}
      {notice ? <div className="notice" role="status" data-tone="danger" data-testid="permission-notice">{notice}</div> : null}
      {open && !denying ? (
        <div className="row" role="toolbar" aria-label="Answer this request" data-risky={risk ? 'true' : undefined}>
          {risk ? <Button variant="primary" disabled={busy} onClick={() => setDenying(true)} data-testid="permission-deny">Deny</Button> : null}
          <Button variant={risk ? 'default' : 'primary'} disabled={busy} onClick={() => void decide('allow')} data-testid="permission-allow">Allow once</Button>
          <Button disabled={busy} onClick={() => void decide('allow-session')} data-testid="permission-allow-session">Allow for this session</Button>
          {risk ? null : <Button variant="danger" disabled={busy} onClick={() => setDenying(true)} data-testid="permission-deny">Deny</Button>}
        </div>
      ) : null}
      {open && denying ? (
        <form className="stack" onSubmit={(e) => { e.preventDefault(); void decide('deny', reason.trim() || undefined); }}>
          <label htmlFor={`deny-reason-${request.id}`}>Reason for the agent (optional)</label>
          <input id={`deny-reason-${request.id}`} data-testid="permission-deny-reason" value={reason} onChange={(e) => setReason(e.target.value)} maxLength={2000} />
          <div className="row">
            <Button type="submit" variant="danger" disabled={busy} data-testid="permission-deny-confirm">Deny</Button>
            <Button disabled={busy} onClick={() => setDenying(false)}>Cancel</Button>
          </div>
        </form>
      ) : null}
    </article>
  );
}

/**
 * What the agent says the call does (CARD-3): agent-written, so only ever a React text node
 * (never HTML); already one line of at most 500 characters (CARD-2), and folded to three
 * lines past SAID_FOLD_AT characters so a long one cannot push the buttons away.
 */
function Said({ text, open, onToggle }: { text: string; open: boolean; onToggle(): void }) {
  const folds = text.length > SAID_FOLD_AT;
  const folded = folds && !open;
  return (
    <div className="stack" style={{ gap: 2 }}>
      <span className="muted" style={{ fontSize: '0.85em' }}>The agent says</span>
      <p
        data-testid="permission-description" data-folded={folded ? 'true' : undefined} className="wrap-anywhere"
        style={{ margin: 0, whiteSpace: 'normal', ...(folded ? { display: '-webkit-box', WebkitLineClamp: 3, WebkitBoxOrient: 'vertical', overflow: 'hidden' } : {}) }}
      >{text}</p>
      {folds ? (
        <button type="button" className="link-button" data-testid="permission-description-toggle" aria-expanded={open} onClick={onToggle} style={{ alignSelf: 'flex-start', paddingLeft: 0 }}>
          {open ? 'Show less' : 'Show all'}
        </button>
      ) : null}
    </div>
  );
}
