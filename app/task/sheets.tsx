'use client';
// The Deny sheet (optional reason) and the Annotate sheet (anchor, text, voice).
import { anchorLabel } from './anchor';
import { useState, type FormEvent } from 'react';
import { Button } from '../components/Button';
import { Sheet } from '../components/Sheet';
import { VoiceInput } from '../components/voice/VoiceInput';
import { NOTE } from '../lib/words';

export function DenySheet({ onClose, onDeny }: { onClose(): void; onDeny(reason: string): void }) {
  const [reason, setReason] = useState('');
  const submit = (e: FormEvent) => { e.preventDefault(); onDeny(reason.trim()); };
  return (
    <Sheet title="Deny this change" onClose={onClose} testId="deny-sheet">
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="deny-reason">Why? (optional — the agent sees it)</label>
          <textarea id="deny-reason" rows={3} value={reason} onChange={(e) => setReason(e.target.value)} data-testid="deny-reason" />
        </div>
        <div className="row">
          <Button type="submit" variant="danger" data-testid="deny-confirm">Deny</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}


export function AnnotateSheet({ anchor, onClose, onSend }: { anchor: string; onClose(): void; onSend(anchor: string, body: string): void }) {
  const [body, setBody] = useState('');
  const [target, setTarget] = useState(anchor);
  const submit = (e: FormEvent) => { e.preventDefault(); if (body.trim()) onSend(target, body.trim()); };
  return (
    <Sheet title={NOTE.add} onClose={onClose} testId="annotate-sheet">
      <form onSubmit={submit}>
        {/* A choice only when there is one to make (ROOM-8): a note on the whole task has no other place. */}
        {anchor !== 'general' ? (
          <div className="field">
            <label htmlFor="annotate-anchor">About</label>
            <select id="annotate-anchor" value={target} onChange={(e) => setTarget(e.target.value)} data-testid="annotate-anchor">
              <option value={anchor}>{anchorLabel(anchor)}</option>
              <option value="general">{anchorLabel('general')}</option>
            </select>
          </div>
        ) : null}
        <VoiceInput id="annotate-body" label="What should the agent know?" value={body} onChange={setBody} testId="annotate-body" />
        <div className="row">
          <Button type="submit" variant="primary" disabled={!body.trim()} data-testid="annotate-send">{NOTE.send}</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}

/** Approving over a council FAIL (UX-7): said in words, confirmed on purpose. */
export function ConfirmApproveSheet({ question, onClose, onApprove }: { question: string; onClose(): void; onApprove(): void }) {
  return (
    <Sheet title="Approve anyway?" onClose={onClose} testId="confirm-approve-sheet">
      <p>{question}</p>
      <div className="row">
        <Button variant="primary" onClick={onApprove} data-testid="confirm-approve">Approve anyway</Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </Sheet>
  );
}
