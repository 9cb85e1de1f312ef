'use client';
// Actions waiting in the outbox: queued ones (sent when back online) and refused
// ones (kept with the relay's reason as a sentence, to retry or dismiss).
import type { OutboxItem } from '../lib/outbox';
import { dismissQueued, retryQueued } from '../lib/actions';
import { sentence } from '../lib/errors';
import { useRelay, type AppState } from '../lib/store';
import { Button } from './Button';

const LABELS: Record<string, string> = {
  'task.approve': 'Approve', 'task.deny': 'Deny', 'task.annotate': 'Note', 'task.council': 'Run council', 'task.run': 'Run',
  'commander.message': 'Message', 'device.rename': 'Rename device',
};

function describe(item: OutboxItem): string {
  const a = item.action as { type: string; task?: string; body?: string };
  const what = LABELS[a.type] ?? a.type;
  return [what, a.task ? `on ${a.task}` : '', a.body ? `“${a.body.slice(0, 60)}”` : ''].filter(Boolean).join(' ');
}

const selectOutbox = (s: AppState) => s.outbox;

export function QueuedActions() {
  const items = useRelay(selectOutbox);
  if (items.length === 0) return null;
  return (
    <section aria-labelledby="queued-title" data-testid="queued-actions">
      <h2 id="queued-title" className="group-title">Waiting to send</h2>
      <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
        {items.map((item) => (
          <li key={item.id} className="card" data-testid="queued-item" data-status={item.status} data-action={item.action.type}>
            <div>{describe(item)}</div>
            {item.status === 'refused' && item.error ? (
              <div className="row">
                <span className="pill" data-tone="danger">Refused</span>
                <span data-testid="queued-error">{sentence(item.error)}</span>
                <Button onClick={() => void retryQueued(item.id)}>Retry</Button>
                <Button onClick={() => void dismissQueued(item.id)}>Dismiss</Button>
              </div>
            ) : (
              <span className="muted">Queued — will be sent when the connection is back.</span>
            )}
          </li>
        ))}
      </ul>
    </section>
  );
}
