'use client';
// A commander's conversation (CMDR-UI-3..5): its output streamed as it comes,
// a message box (typed or dictated), the waiting-for-you state, a new session
// for a dead one, more reference paths, and delete after a confirmation.
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useRef, useState, type FormEvent } from 'react';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { PhotoAttach, type AttachedPhoto } from '../components/PhotoAttach';
import { VoiceInput } from '../components/voice/VoiceInput';
import { act, read, type ActResult } from '../lib/actions';
import { sentence } from '../lib/errors';
import { useRelay, type AppState } from '../lib/store';
import { STATUS_LABEL, STATUS_TONE } from '../commanders/status';
import { AddReferenceSheet, DeleteSheet } from './sheets';
import '../task/task.css';

export function CommanderScreen() {
  const id = useSearchParams().get('id') ?? '';
  const commander = useRelay(useCallback((s: AppState) => s.commanders[id] ?? null, [id]));
  const output = useRelay(useCallback((s: AppState) => s.commanderOutput[id] ?? null, [id]));
  const live = useRelay((s) => s.connection.state === 'live');
  const [sheet, setSheet] = useState<'reference' | 'delete' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);

  useEffect(() => {
    // Catch up on output kept by the relay; new output then streams in as frames.
    if (live && id) read('commander.output', { commander: id }).catch(() => undefined);
  }, [live, id]);

  if (!id) return <EmptyState title="No commander chosen">Open one from the Commanders list.</EmptyState>;
  if (!commander) return <EmptyState title="Commander not found">It may have been deleted. Go back to the Commanders list.</EmptyState>;

  const report = (what: string) => (outcome: ActResult) => {
    if (outcome.status === 'refused') setNotice(`${sentence(outcome.error)} (${outcome.error.message})`);
    else if (outcome.status === 'queued') setNotice(`You are offline: the ${what} will be sent when the connection is back.`);
    else setNotice(null);
  };

  return (
    <div className="cmdr-screen" data-testid="commander" data-status={commander.status}>
      <header className="task-header">
        <h1 className="task-title">{commander.name}</h1>
        <div className="task-meta">
          <span className="pill" data-tone={STATUS_TONE[commander.status]} data-testid="cmdr-status">{STATUS_LABEL[commander.status]}</span>
          <span>{commander.adapter}</span>
        </div>
        <ul className="muted mono wrap-anywhere" style={{ margin: '6px 0 0', paddingLeft: 18 }} data-testid="cmdr-references">
          {commander.referencePaths.map((p) => <li key={p}>{p}</li>)}
        </ul>
        <div className="row" style={{ marginTop: 8 }}>
          <Button onClick={() => setSheet('reference')} data-testid="cmdr-add-ref">Add reference path</Button>
          <Button variant="danger" onClick={() => setSheet('delete')} data-testid="cmdr-delete">Delete</Button>
        </div>
      </header>
      {commander.status === 'waiting' ? (
        <p className="card notice" role="status" data-testid="cmdr-waiting">Waiting for you{commander.waitingFor ? `: ${commander.waitingFor}` : '.'}</p>
      ) : null}
      {commander.status === 'dead' ? (
        <div className="card notice row" data-tone="danger" data-testid="cmdr-dead">
          <span>This commander’s session is gone (the agent stopped or lost its transcript). Start a new session in the same folder; everything it wrote is kept.</span>
          <Button variant="primary" onClick={() => void act('commander.replace', { commander: id }).then(report('new session'))} data-testid="cmdr-replace">Start a new session</Button>
        </div>
      ) : null}
      <Output text={output?.text ?? ''} running={commander.status === 'running' || commander.status === 'starting'} />
      {/* Pinned at the bottom like a chat; what happened to the last message shows right above it (UX-1, UX-10). */}
      <div className="cmdr-dock">
        {notice ? <p className="action-status" data-tone="danger" role="alert" data-testid="cmdr-notice">{notice}</p> : null}
        {commander.status !== 'dead' ? <MessageForm id={id} onOutcome={report('message')} /> : null}
      </div>
      {sheet === 'reference' ? <AddReferenceSheet id={id} onClose={() => setSheet(null)} onOutcome={report('reference path')} /> : null}
      {sheet === 'delete' ? <DeleteSheet commander={commander} onClose={() => setSheet(null)} onOutcome={report('deletion')} /> : null}
    </div>
  );
}

function Output({ text, running }: { text: string; running: boolean }) {
  const ref = useRef<HTMLPreElement>(null);
  useEffect(() => {
    const el = ref.current;
    if (el) el.scrollTop = el.scrollHeight;
  }, [text]);
  return (
    <section aria-labelledby="cmdr-output-title" className="task-section">
      <h2 id="cmdr-output-title" className="group-title">Conversation</h2>
      <pre ref={ref} className="card cmdr-output" aria-live="polite" data-testid="cmdr-output"
        style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere', margin: 0 }}>
        {text || (running ? 'Working…' : 'Nothing yet. Send a message below to give this commander its first job.')}
      </pre>
    </section>
  );
}

function MessageForm({ id, onOutcome }: { id: string; onOutcome(outcome: ActResult): void }) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [photo, setPhoto] = useState<AttachedPhoto | null>(null); // PHOTO-1
  async function submit(e: FormEvent) {
    e.preventDefault();
    const message = text.trim();
    if (!message) return;
    setBusy(true);
    const outcome = await act('commander.message', { commander: id, text: message, ...(photo ? { photo: photo.base64 } : {}) });
    setBusy(false);
    if (outcome.status !== 'refused') { setText(''); setPhoto(null); }
    onOutcome(outcome);
  }
  return (
    <form onSubmit={submit} className="composer cmdr-composer">
      <VoiceInput id="cmdr-message" label="Message" value={text} onChange={setText} rows={2} testId="cmdr-message" hideLabel />
      <PhotoAttach value={photo} onChange={setPhoto} testId="cmdr-photo" />
      <Button type="submit" variant="primary" disabled={busy || !text.trim()} data-testid="cmdr-send">Send</Button>
    </form>
  );
}
