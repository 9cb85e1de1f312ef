'use client';
// The outbox on screen (UX-9): only what can still be sent ("Waiting to send"), and
// an action the relay refused while the app was away, shown once with the reason and
// a Dismiss — never a Retry, since the relay would give the same answer.
import type { ActionType } from '../../protocol/wire/frames';
import type { OutboxItem } from '../lib/outbox';
import { dismissQueued } from '../lib/actions';
import { sentence } from '../lib/errors';
import { useRelay, type AppState } from '../lib/store';
import { Button } from './Button';
import { NOTE, START_COMMANDER } from '../lib/words';

/** Each action by the name its button has, so a queued or refused one is never shown as a wire type (QUEUE-3). */
const LABELS: Record<ActionType, string> = {
  'task.approve': 'Approve', 'task.deny': 'Deny', 'task.annotate': NOTE.noun, 'task.council': 'Run council', 'task.run': 'Run agent',
  'task.merge': 'Merge', 'task.push': 'Push branch', 'task.pr': 'Open pull request',
  'task.create': 'New task', 'job.stop': 'Stop agent', 'commander.create': START_COMMANDER,
  'commander.message': 'Message', 'commander.replace': 'Start a new session', 'commander.addReference': 'Add reference path',
  'commander.delete': 'Delete commander', 'device.rename': 'Rename device', 'device.revoke': 'Revoke device',
  'machine.remove': 'Remove machine', 'permission.decide': 'Answer', 'question.answer': 'Answer', 'question.decide': 'Answer',
  'push.subscribe': 'Turn notifications on', 'push.unsubscribe': 'Turn notifications off', 'push.prefs': 'Notification settings',
};

function describe(item: OutboxItem): string {
  const a = item.action as { type: string; task?: string; body?: string; packet?: { id?: string } };
  const what = LABELS[a.type as ActionType] ?? a.type;
  const task = a.task ?? a.packet?.id;
  return [what, task ? `on ${task}` : '', a.body ? `“${a.body.slice(0, 60)}”` : ''].filter(Boolean).join(' ');
}

const selectOutbox = (s: AppState) => s.outbox;

export function QueuedActions() {
  const items = useRelay(selectOutbox);
  const queued = items.filter((i) => i.status === 'queued');
  const refused = items.filter((i) => i.status === 'refused');
  if (items.length === 0) return null;
  return (
    <>
      {refused.length > 0 ? (
        <section aria-labelledby="refused-title" data-testid="refused-actions">
          <h2 id="refused-title" className="group-title">Not done</h2>
          <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {refused.map((item) => (
              <li key={item.id} className="card notice" data-tone="danger" data-testid="queued-item" data-status="refused" data-action={item.action.type}>
                <div><strong>{describe(item)}</strong></div>
                <div className="row" style={{ justifyContent: 'space-between' }}>
                  <span data-testid="queued-error">{item.error ? sentence(item.error) : 'The relay refused it.'}</span>
                  <Button onClick={() => void dismissQueued(item.id)} data-testid="queued-dismiss">Dismiss</Button>
                </div>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
      {queued.length > 0 ? (
        <section aria-labelledby="queued-title" data-testid="queued-actions">
          <h2 id="queued-title" className="group-title">Waiting to send ({queued.length})</h2>
          <ul className="stack" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {queued.map((item) => (
              <li key={item.id} className="card" data-testid="queued-item" data-status="queued" data-action={item.action.type}>
                <div>{describe(item)}</div>
                <span className="muted">Queued — sent when the connection is back.</span>
              </li>
            ))}
          </ul>
        </section>
      ) : null}
    </>
  );
}
