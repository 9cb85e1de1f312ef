'use client';
// Where an action's outcome shows (UX-1): in the dock right above the action bar,
// where the person tapped — never below the timeline. One status at a time; a new
// action replaces it; the person can dismiss it. Screen readers hear it (role=status).
// A success goes by itself after OK_NOTICE_MS (ROOM-4): it is news, and the dock is the
// screen's scarcest room; a problem stays until dismissed or replaced.
import { useEffect, useRef } from 'react';
import { Button } from '../components/Button';

/** How long a success stays in the dock (ROOM-4). */
export const OK_NOTICE_MS = 8000;

export interface ActionNotice {
  tone: 'ok' | 'warn' | 'danger';
  text: string;
  /** The change moved since it was reviewed: offer to reload the diff. */
  stale?: boolean;
  testId: string;
}

export function ActionStatus({ notice, busy, onDismiss, onReload }: {
  notice: ActionNotice | null;
  busy: boolean;
  onDismiss(): void;
  onReload(): void;
}) {
  const dismiss = useRef(onDismiss);
  dismiss.current = onDismiss;
  useEffect(() => {
    if (notice?.tone !== 'ok') return;
    const timer = setTimeout(() => dismiss.current(), OK_NOTICE_MS);
    return () => clearTimeout(timer);
  }, [notice]);
  if (busy) {
    return <div className="action-status" role="status" data-testid="action-pending"><span className="task-pulse" aria-hidden="true" />Sending…</div>;
  }
  if (!notice) return null;
  return (
    <div className="action-status" data-tone={notice.tone} role="status" data-testid={notice.testId}>
      <span className="action-status-text">{notice.text}</span>
      {notice.stale ? <Button onClick={() => { onDismiss(); onReload(); }} data-testid="reload-diff">Reload diff</Button> : null}
      <button type="button" className="action-status-close" onClick={onDismiss} aria-label="Dismiss" data-testid="action-status-dismiss">×</button>
    </div>
  );
}
