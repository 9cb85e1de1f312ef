// A commander message that could not be sent yet stays in the conversation (QUEUE-5): from the
// outbox it shows as the person's bubble "Waiting to send"; once the relay took it, as an ordinary
// bubble until the relay's own copy of it is in the log (then that one alone, no duplicate); a
// refusal stays on the bubble with the relay's sentence, shown here once (not again in the Inbox).
import { useEffect, useMemo, useState } from 'react';
import { dismissQueued } from '../lib/actions';
import { sentence, type ClientError } from '../lib/errors';
import type { OutboxItem } from '../lib/outbox';
import { useRelay } from '../lib/store';

export interface PendingMessage {
  id: string;
  text: string;
  photos: number;
  state: 'waiting' | 'sent' | 'refused';
  /** The relay's refusal as a sentence (state 'refused'). */
  reason?: string;
  /** How many of the person's messages in the log already read as this one when it was queued. */
  before: number;
}

interface MessageFields { commander?: string; text?: string; photos?: unknown[]; photo?: unknown }

/** The outbox's messages to this commander that a send already failed to reach the relay (or it refused). */
function offlineMessages(outbox: OutboxItem[], commander: string): OutboxItem[] {
  return outbox.filter((i) => i.action.type === 'commander.message' && (i.action as MessageFields).commander === commander
    && (i.status === 'refused' || i.error !== null));
}

/**
 * The messages to show after the conversation's own entries. `personTexts` are the person's
 * messages in the log as the screen shows them. `forget(id)` drops a refused one (its text was
 * copied back to the composer).
 */
export function usePendingMessages(commander: string, personTexts: string[]): { pending: PendingMessage[]; forget(id: string): void } {
  const outbox = useRelay((s) => s.outbox);
  const items = useMemo(() => offlineMessages(outbox, commander), [outbox, commander]);
  const [kept, setKept] = useState<PendingMessage[]>([]);

  useEffect(() => {
    setKept((prev) => {
      const next = prev.map((p) => ({ ...p }));
      for (const item of items) {
        let p = next.find((k) => k.id === item.id);
        if (!p) {
          const fields = item.action as MessageFields;
          const text = (fields.text ?? '').trim();
          p = { id: item.id, text, photos: (fields.photos?.length ?? 0) + (fields.photo ? 1 : 0), state: 'waiting', before: count(personTexts, text) };
          next.push(p);
        }
        if (item.status === 'refused' && item.error) {
          p.state = 'refused';
          p.reason = refusal(item.error);
        }
      }
      // Gone from the outbox while waiting: the relay took it.
      for (const p of next) if (p.state === 'waiting' && !items.some((i) => i.id === p.id)) p.state = 'sent';
      // A sent one gives way to the relay's copy of it in the log.
      const shown = next.filter((p) => p.state !== 'sent' || count(personTexts, p.text) <= p.before);
      return same(prev, shown) ? prev : shown;
    });
    // Its bubble says it now: it leaves the outbox, so the Inbox's "Not done" does not say it again.
    for (const item of items) if (item.status === 'refused') void dismissQueued(item.id);
  }, [items, personTexts]); // eslint-disable-line react-hooks/exhaustive-deps -- personTexts is read when either moves

  return { pending: kept, forget: (id) => setKept((prev) => prev.filter((p) => p.id !== id)) };
}

function count(texts: string[], text: string): number {
  return texts.filter((t) => t === text).length;
}

function same(a: PendingMessage[], b: PendingMessage[]): boolean {
  return a.length === b.length && a.every((p, i) => p.id === b[i]!.id && p.state === b[i]!.state && p.reason === b[i]!.reason);
}

/** The relay's refusal as a sentence, with its own words in brackets only when the sentence does not already say them. */
export function refusal(error: ClientError): string {
  const said = sentence(error);
  const words = error.message.replace(/[\s.;:]+$/, '');
  return !words || said.includes(words) ? said : `${said} (${words})`;
}

/** How many messages to this commander wait in the outbox after a send failed to reach the relay. */
export function useWaitingMessages(commander: string): number {
  const outbox = useRelay((s) => s.outbox);
  return useMemo(() => offlineMessages(outbox, commander).filter((i) => i.status === 'queued').length, [outbox, commander]);
}
