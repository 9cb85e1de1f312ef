// What became of an action that was queued offline (QUEUE-2): the screen that said "queued" follows
// its outbox item and says, once, that it was sent or why the relay refused it — a "will be sent"
// line never outlives the sending. A refusal shown here is not shown again in the Inbox (UX-9).
import { useCallback, useEffect, useState } from 'react';
import { dismissQueued } from './actions';
import type { ClientError } from './errors';
import { useRelay, type AppState } from './store';

export type QueuedEnd = { status: 'applied' } | { status: 'refused'; error: ClientError };

/**
 * Call `follow(id)` with the id of an action `act()` answered `queued`; `onEnd` runs once when it
 * leaves the queue: applied (gone from the outbox) or refused. `follow(null)` stops following.
 */
export function useQueued(onEnd: (end: QueuedEnd) => void): (id: string | null) => void {
  const [id, follow] = useState<string | null>(null);
  const item = useRelay(useCallback((s: AppState) => (id ? s.outbox.find((i) => i.id === id) ?? null : null), [id]));
  useEffect(() => {
    if (!id || item?.status === 'queued') return;
    follow(null);
    if (item?.status === 'refused' && item.error) {
      void dismissQueued(item.id);
      onEnd({ status: 'refused', error: item.error });
    } else {
      onEnd({ status: 'applied' });
    }
  }, [id, item]); // eslint-disable-line react-hooks/exhaustive-deps -- onEnd is read when the item moves
  return follow;
}
