'use client';
// The header's connection state: live / connecting / reconnecting / offline · N queued / not paired,
// and when not live, since when the data shown is known to be current ("Synced 14:02", RESUME-3).
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
const selectSyncedAt = (s: AppState) => s.syncedAt;

/** "14:02" today, "3 Mar 14:02" another day, in the phone's own time zone. */
export function syncedLabel(iso: string, now = new Date()): string | null {
  const at = new Date(iso);
  if (Number.isNaN(at.getTime())) return null;
  const time = at.toLocaleTimeString(undefined, { hour: '2-digit', minute: '2-digit' });
  return at.toDateString() === now.toDateString() ? time : `${at.toLocaleDateString(undefined, { day: 'numeric', month: 'short' })} ${time}`;
}

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
