'use client';
// A quick note for a task's agent from the Inbox (a `general` annotation); goes
// through the outbox, so it works offline and is sent once when back. Typed or dictated.
import { useState, type FormEvent } from 'react';
import type { TaskSummary } from '../../protocol/wire/views';
import { act, type ActResult } from '../lib/actions';
import { sentence } from '../lib/errors';
import { Button } from './Button';
import { PhotoAttach, type AttachedPhoto } from './PhotoAttach';
import { Sheet } from './Sheet';
import { VoiceInput } from './voice/VoiceInput';
import { NOTE } from '../lib/words';

/** `onSent` hears a note the relay took or the outbox queued, for the Inbox to confirm it (QUEUE-6). */
export function NoteSheet({ task, onClose, onSent }: { task: TaskSummary; onClose: () => void; onSent?: (outcome: ActResult) => void }) {
  const [body, setBody] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const [photos, setPhotos] = useState<AttachedPhoto[]>([]);

  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    const outcome = await act('task.annotate', { repo: task.repo, task: task.id, turn: 0, anchor: 'general', body, ...(photos.length > 0 ? { photos: photos.map((p) => p.base64) } : {}) });
    setBusy(false);
    if (outcome.status === 'refused') setError(sentence(outcome.error));
    else { onClose(); onSent?.(outcome); }
  }

  return (
    <Sheet title={NOTE.addTo(task.id)} onClose={onClose} testId="note-sheet">
      <form onSubmit={submit}>
        <VoiceInput id="note-body" label="What should the agent know?" value={body} onChange={setBody} rows={4} testId="note-body" />
        <PhotoAttach value={photos} onChange={setPhotos} testId="note-photo" />
        {error ? <p role="alert" data-testid="note-error">{error}</p> : null}
        <div className="row">
          <Button type="submit" variant="primary" disabled={busy || (!body.trim() && photos.length === 0)} data-testid="note-send">{NOTE.send}</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}
