'use client';
// Renaming this device: a labelled field and a button; the name is what the relay
// records as the author of approvals and notes.
import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../components/Button';

export function RenameForm({ current, onRename }: { current: string; onRename: (name: string) => Promise<void> }) {
  const [name, setName] = useState(current);
  const [busy, setBusy] = useState(false);
  useEffect(() => setName(current), [current]);
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    await onRename(name.trim());
    setBusy(false);
  }
  return (
    <form onSubmit={submit} className="row" data-testid="rename-form">
      {/* The field takes the row when the button does not fit beside it (large text): it may shrink
          below the input's own width (min-width 0), so Rename goes below instead of the page widening. */}
      <div className="field" style={{ flex: '1 1 12rem', minWidth: 0, marginBottom: 0 }}>
        <label htmlFor="device-name">Device name</label>
        <input id="device-name" data-testid="rename-input" value={name} maxLength={80} onChange={(e) => setName(e.target.value)} required style={{ minWidth: 0, width: '100%' }} />
      </div>
      <Button type="submit" disabled={busy || !name.trim() || name.trim() === current} data-testid="rename-submit" style={{ alignSelf: 'flex-end' }}>Rename</Button>
    </form>
  );
}
