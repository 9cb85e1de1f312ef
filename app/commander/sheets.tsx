'use client';
// Add a reference path; delete a commander after saying what that means.
import { useRouter } from 'next/navigation';
import { useState, type FormEvent } from 'react';
import type { CommanderView } from '../../protocol/wire/views';
import { Button } from '../components/Button';
import { Sheet } from '../components/Sheet';
import { act, type ActResult } from '../lib/actions';
import { useRelay } from '../lib/store';
import { ReferencePicker } from '../commanders/ReferencePicker';

export function AddReferenceSheet({ id, onClose, onOutcome }: { id: string; onClose(): void; onOutcome(o: ActResult): void }) {
  const roots = useRelay((s) => s.allowedRoots);
  const [path, setPath] = useState<string | null>(null);
  async function submit(e: FormEvent) {
    e.preventDefault();
    if (!path) return;
    onClose();
    onOutcome(await act('commander.addReference', { commander: id, path }));
  }
  return (
    <Sheet title="Add a reference path" onClose={onClose} testId="add-ref-sheet">
      <form onSubmit={submit}>
        <ReferencePicker roots={roots} onChange={setPath} />
        <div className="row">
          <Button type="submit" variant="primary" disabled={!path} data-testid="add-ref-confirm">Add</Button>
          <Button onClick={onClose}>Cancel</Button>
        </div>
      </form>
    </Sheet>
  );
}

export function DeleteSheet({ commander, onClose, onOutcome }: { commander: CommanderView; onClose(): void; onOutcome(o: ActResult): void }) {
  const router = useRouter();
  async function confirm() {
    onClose();
    const outcome = await act('commander.delete', { commander: commander.id });
    if (outcome.status === 'applied') router.push('/commanders');
    else onOutcome(outcome);
  }
  return (
    <Sheet title={`Delete ${commander.name}?`} onClose={onClose} testId="delete-sheet">
      <p>Its session is stopped and its folder of notes is removed. The reference folders it worked on are not touched.</p>
      <div className="row">
        <Button variant="danger" onClick={() => void confirm()} data-testid="delete-confirm">Delete</Button>
        <Button onClick={onClose}>Cancel</Button>
      </div>
    </Sheet>
  );
}
