'use client';
// Placeholder slot for the notifications toggle: the push engineer [G] replaces this
// file with the real one (subscribe/unsubscribe, kinds, do-not-disturb).
export function Notifications() {
  return (
    <p className="muted" data-testid="notifications-unavailable">
      Notifications are not available in this build yet.
    </p>
  );
}
