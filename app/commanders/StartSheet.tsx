'use client';
// Start a commander: a name and one reference path (CMDR-UI-2).
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { CommanderView } from '../../protocol/wire/views';
import { Button } from '../components/Button';
import { Sheet } from '../components/Sheet';
import { act } from '../lib/actions';
import { sentence } from '../lib/errors';
import { ReferencePicker } from './ReferencePicker';

export function StartSheet({ roots, onClose }: { roots: string[]; onClose(): void }) {
  const router = useRouter();
  const [name, setName] = useState('');
  const [path, setPath] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!path || !name.trim()) return;
    setBusy(true);
    const outcome = await act('commander.create', { name: name.trim(), referencePath: path });
    setBusy(false);
    if (outcome.status === 'applied') {
      const created = (outcome.result as { commander?: CommanderView } | undefined)?.commander;
      onClose();
      if (created) router.push(`/commander?id=${encodeURIComponent(created.id)}`);
    } else if (outcome.status === 'queued') {
      setError('You are offline: the commander will be started when the connection is back.');
    } else {
      setError(sentence(outcome.error) + (outcome.error.message ? ` (${outcome.error.message})` : ''));
    }
  }

  return (
    <Sheet title="Start a commander" onClose={onClose} testId="start-sheet">
      <form onSubmit={submit}>
        <div className="field">
          <label htmlFor="cmdr-name">Name</label>
          <input id="cmdr-name" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} required data-testid="cmdr-name" />
        </div>
        <ReferencePicker roots={roots} onChange={setPath} />
        {error ? <p role="alert" data-testid="start-error">{error}</p> : null}
        <div className="row">
          <Button type="submit" variant="primary" disabled={busy || !path || !name.trim()} data-testid="cmdr-start">Start</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}
