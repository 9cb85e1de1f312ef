'use client';
// The header's connection state: live / connecting / reconnecting / offline · N queued / not paired,
// and when not live, since when the data shown is known to be current ("Synced 14:02", RESUME-3).
import { useRelay, type AppState } from '../lib/store';
import { syncedLabel } from '../lib/synced';

const LABELS: Record<AppState['connection']['state'], string> = {
  live: 'Live',
  connecting: 'Connecting…',
  reconnecting: 'Reconnecting…',
  offline: 'Offline',
  unpaired: 'Not paired',
};

const selectState = (s: AppState) => s.connection.state;
const selectQueued = (s: AppState) => s.outbox.filter((i) => i.status === 'queued').length;
const selectSyncedAt = (s: AppState) => s.syncedAt;

export function ConnectionBadge() {
  const state = useRelay(selectState);
  const queued = useRelay(selectQueued);
  const syncedAt = useRelay(selectSyncedAt);
  const text = queued > 0 ? `${LABELS[state]} · ${queued} queued` : LABELS[state];
  const synced = state !== 'live' && state !== 'unpaired' && syncedAt ? syncedLabel(syncedAt) : null;
  return (
    <>
      <span className="badge" role="status" aria-live="polite" data-testid="connection-badge" data-state={state} data-queued={queued}>
        {text}
      </span>
      {synced ? <span className="muted" data-testid="last-synced" data-at={syncedAt}>Synced {synced}</span> : null}
    </>
  );
}
