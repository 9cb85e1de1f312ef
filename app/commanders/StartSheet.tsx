'use client';
// Start a commander: a name, one reference path (CMDR-UI-2), the agent it runs on
// for good and, optionally, the first thing to tell it (UX-6).
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { CommanderView } from '../../protocol/wire/views';
import { Button } from '../components/Button';
import { Sheet } from '../components/Sheet';
import { act } from '../lib/actions';
import { AGENTS } from '../lib/agents';
import { VoiceInput } from '../components/voice/VoiceInput';
import { sentence } from '../lib/errors';
import { ReferencePicker } from './ReferencePicker';

export function StartSheet({ roots, onClose }: { roots: string[]; onClose(): void }) {
  const router = useRouter();
  const [name, setName] = useState('');
  const [path, setPath] = useState<string | null>(null);
  const [agent, setAgent] = useState('');
  const [message, setMessage] = useState('');
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!path || !name.trim()) return;
    setBusy(true);
    const outcome = await act('commander.create', {
      name: name.trim(), referencePath: path, ...(agent ? { agent } : {}), ...(message.trim() ? { message: message.trim() } : {}),
    });
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
        <div className="field">
          <label htmlFor="cmdr-agent">Agent</label>
          <select id="cmdr-agent" value={agent} onChange={(e) => setAgent(e.target.value)} data-testid="cmdr-agent">
            <option value="">The relay’s default</option>
            {AGENTS.map((a) => <option key={a.id} value={a.id}>{a.label}</option>)}
          </select>
        </div>
        <VoiceInput id="cmdr-first-message" label="First message (optional)" value={message} onChange={setMessage} rows={3} testId="cmdr-first-message" />
        {error ? <p role="alert" data-testid="start-error">{error}</p> : null}
        <div className="row">
          <Button type="submit" variant="primary" disabled={busy || !path || !name.trim()} data-testid="cmdr-start">Start</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}
