'use client';
// The header's connection state: live / connecting / reconnecting / offline · N queued / not paired.
import { useRelay, type AppState } from '../lib/store';

const LABELS: Record<AppState['connection']['state'], string> = {
  live: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
  unpaired: 'Not paired',
};

const selectState = (s: AppState) => s.connection.state;
const selectQueued = (s: AppState) => s.outbox.filter((i) => i.status === 'queued').length;

export function ConnectionBadge() {
  const state = useRelay(selectState);
  const queued = useRelay(selectQueued);
  const text = queued > 0 ? `${LABELS[state]} · ${queued} queued` : LABELS[state];
  return (
    <span className="badge" role="status" aria-live="polite" data-testid="connection-badge" data-state={state} data-queued={queued}>
      {text}
    </span>
  );
}
