'use client';
// A commander's conversation (CMDR-UI-3..5, CHAT-2..5): the header with its name, status and a ⋯
// menu (Add reference path, Delete), the conversation as chat bubbles streamed as it comes, the
// waiting-for-you state, a new session for a dead one, and the composer pinned at the bottom.
import { useSearchParams } from 'next/navigation';
import { useCallback, useEffect, useState, type FormEvent } from 'react';
import type { CommanderView } from '../../protocol/wire/views';
import { Button } from '../components/Button';
import { EmptyState } from '../components/EmptyState';
import { CommanderSandboxWarning } from '../components/SandboxWarning';
import { PhotoAttach, type AttachedPhoto } from '../components/PhotoAttach';
import { VoiceInput } from '../components/voice/VoiceInput';
import { act, read, type ActResult } from '../lib/actions';
import { useQueued } from '../lib/use-queued';
import { useRelay, type AppState } from '../lib/store';
import { agentName, COMMANDER_FAILURE, NOT_SENT_YET } from '../lib/words';
import { statusLabel, STATUS_TONE } from '../commanders/status';
import { Conversation } from './Conversation';
import { refusal, useWaitingMessages } from './pending';
import { CommanderMenu } from './CommanderMenu';
import { AddReferenceSheet, DeleteSheet } from './sheets';
import '../task/task.css';
import './commander.css';

export function CommanderScreen() {
  const id = useSearchParams().get('id') ?? '';
  const commander = useRelay(useCallback((s: AppState) => s.commanders[id] ?? null, [id]));
  const output = useRelay(useCallback((s: AppState) => s.commanderOutput[id] ?? null, [id]));
  const live = useRelay((s) => s.connection.state === 'live');
  const [sheet, setSheet] = useState<'reference' | 'delete' | null>(null);
  const [notice, setNotice] = useState<{ text: string; tone: 'warn' | 'danger' } | null>(null);
  // Another action queued offline (reference path, deletion, new session): the notice says so until it is sent, then goes (QUEUE-2).
  const followQueued = useQueued((end) => setNotice(end.status === 'refused' ? { text: refusal(end.error), tone: 'danger' } : null));
  // A message queued offline is in the conversation, marked, and said here while any waits (QUEUE-5).
  const waiting = useWaitingMessages(id);
  const [draft, setDraft] = useState('');

  useEffect(() => {
    // Catch up on output kept by the relay; new output then streams in as frames.
    if (live && id) read('commander.output', { commander: id }).catch(() => undefined);
  }, [live, id]);

  if (!id) return <EmptyState title="No commander chosen">Open one from the Commanders list.</EmptyState>;
  if (!commander) return <EmptyState title="Commander not found">It may have been deleted. Go back to the Commanders list.</EmptyState>;

  const report = (what: string) => (outcome: ActResult) => {
    // A queued message is followed by its bubble, which also shows a refusal (QUEUE-5).
    if (what === 'message' && outcome.status === 'queued') { followQueued(null); setNotice(null); return; }
    followQueued(outcome.status === 'queued' ? outcome.id : null);
    if (outcome.status === 'refused') setNotice({ text: refusal(outcome.error), tone: 'danger' });
    else if (outcome.status === 'queued') setNotice({ text: `You are offline: the ${what} will be sent when the connection is back.`, tone: 'warn' });
    else setNotice(null);
  };

  return (
    <div className="cmdr-screen" data-testid="commander" data-status={commander.status}>
      <header className="task-header">
        <div className="cmdr-head">
          <h1 className="task-title">{commander.name}</h1>
          <CommanderMenu onAddReference={() => setSheet('reference')} onDelete={() => setSheet('delete')} />
        </div>
        <div className="task-meta">
          <span className="pill" data-tone={STATUS_TONE[commander.status]} data-testid="cmdr-status">{statusLabel(commander)}</span>
          <span>{agentName(commander.adapter)}</span>
        </div>
        <ul className="cmdr-refs muted wrap-anywhere" aria-label="Folders it works on" data-testid="cmdr-references">
          {commander.referencePaths.map((p) => <li key={p} title={p}>{folderName(p)}</li>)}
        </ul>
      </header>
      <CommanderSandboxWarning sandbox={commander.sandbox} />
      {commander.status === 'waiting' ? (
        <p className="card notice" role="status" data-testid="cmdr-waiting">Waiting for you{commander.waitingFor ? `: ${commander.waitingFor}` : '.'}</p>
      ) : null}
      {commander.status === 'dead' && commander.failure ? (
        <StartFailure failure={commander.failure} onRetry={() => act('commander.replace', { commander: id }).then(report('retry'))} />
      ) : commander.status === 'dead' ? (
        <div className="card notice row" data-tone="danger" data-testid="cmdr-dead">
          <span>This commander’s session is gone (the agent stopped or lost its transcript). Start a new session in the same folder; everything it wrote is kept.</span>
          <Button variant="primary" onClick={() => void act('commander.replace', { commander: id }).then(report('new session'))} data-testid="cmdr-replace">Start a new session</Button>
        </div>
      ) : null}
      <Conversation commander={id} text={output?.text ?? ''} running={commander.status === 'running' || commander.status === 'starting'}
        onCopyBack={(text) => { setDraft(text); document.getElementById('cmdr-message')?.focus(); }} />
      {/* Pinned at the bottom like a chat; what happened to the last message shows right above it (UX-1, UX-10). */}
      <div className="cmdr-dock">
        {notice ? <p className="action-status" data-tone={notice.tone} role={notice.tone === 'danger' ? 'alert' : 'status'} data-testid="cmdr-notice">{notice.text}</p>
          : waiting > 0 ? <p className="action-status" data-tone="warn" role="status" data-testid="cmdr-notice">{NOT_SENT_YET.messagesQueued(waiting)}</p> : null}
        {commander.status !== 'dead' ? <MessageForm id={id} text={draft} setText={setDraft} onOutcome={report('message')} /> : null}
      </div>
      {sheet === 'reference' ? <AddReferenceSheet id={id} onClose={() => setSheet(null)} onOutcome={report('reference path')} /> : null}
      {sheet === 'delete' ? <DeleteSheet commander={commander} onClose={() => setSheet(null)} onOutcome={report('deletion')} /> : null}
    </div>
  );
}

/** CMDRFAIL-1, CMDRFAIL-2: why the start failed in one sentence, the CLI's output under Details, and Retry (the same start again). */
function StartFailure({ failure, onRetry }: { failure: NonNullable<CommanderView['failure']>; onRetry(): Promise<void> }) {
  const [busy, setBusy] = useState(false);
  return (
    <div className="card notice" data-tone="danger" role="alert" data-testid="cmdr-failure">
      <p className="cmdr-failure-title"><strong>{COMMANDER_FAILURE.title}</strong></p>
      <p data-testid="cmdr-failure-reason">{failure.reason}</p>
      {failure.details ? (
        <details data-testid="cmdr-failure-details">
          <summary>{COMMANDER_FAILURE.details}</summary>
          <pre className="chat-tool-detail" data-testid="cmdr-failure-output">{failure.details}</pre>
        </details>
      ) : null}
      <div className="row" style={{ marginTop: 12 }}>
        <Button variant="primary" disabled={busy} onClick={() => { setBusy(true); void onRetry().finally(() => setBusy(false)); }} data-testid="cmdr-retry">
          {busy ? COMMANDER_FAILURE.retrying : COMMANDER_FAILURE.retry}
        </Button>
      </div>
    </div>
  );
}

/** A folder by its own name (its full path in the title): the machine's path prefix says nothing on a phone. */
function folderName(p: string): string {
  return p.replace(/\/+$/, '').split('/').pop() || p;
}

/** The composer: the message box (typed or dictated) and Send. Small on purpose: attachments go in beside the box. */
function MessageForm({ id, text, setText, onOutcome }: { id: string; text: string; setText(text: string): void; onOutcome(outcome: ActResult): void }) {
  const [busy, setBusy] = useState(false);
  const [photos, setPhotos] = useState<AttachedPhoto[]>([]); // PHOTO-1, PHOTO-8
  async function submit(e: FormEvent) {
    e.preventDefault();
    const message = text.trim();
    if (!message) return;
    setBusy(true);
    const outcome = await act('commander.message', { commander: id, text: message, ...(photos.length > 0 ? { photos: photos.map((p) => p.base64) } : {}) });
    setBusy(false);
    if (outcome.status !== 'refused') { setText(''); setPhotos([]); }
    onOutcome(outcome);
  }
  return (
    <form onSubmit={submit} className="composer cmdr-composer">
      <VoiceInput id="cmdr-message" label="Message" value={text} onChange={setText} rows={2} testId="cmdr-message" hideLabel />
      <PhotoAttach value={photos} onChange={setPhotos} testId="cmdr-photo" />
      <Button type="submit" variant="primary" disabled={busy || !text.trim()} data-testid="cmdr-send">Send</Button>
    </form>
  );
}
