// The offline outbox: every action is stored in IndexedDB before it is sent, and
// stays there until the relay answers. Retries reuse the action's id (the relay
// applies each (device, id) once and returns the first answer to a retry), and each
// send is signed then with a fresh ts. A refusal (e.g. E_STALE_DIGEST) is kept and
// shown once — to the screen waiting on it, else in the list until dismissed — never
// silently dropped, never retried (UX-9). No window APIs: the service worker can flush it too.
//
// API:
//   interface OutboxItem { id, action (UnsignedAction), createdAt, status: 'queued' | 'refused', error, attempts }
//   type Outcome = { status: 'applied', result } | { status: 'refused', error } | { status: 'queued', error }
//   new Outbox({ signer, send, storage?, onChange?, now? })
//     .add(action)       store it as queued (id must be fresh: see newActionId)
//     .flush()           send queued items oldest first, one at a time; stops at the first transport failure
//     .sendNow(action)   add + flush; resolves with this action's Outcome
//     .list()            items (queued and refused), oldest first
//     .dismiss(id)       forget a refused item
//   idbOutboxStorage     the IndexedDB storage (default); memoryOutboxStorage() for tools
import type { ActionFrame } from '../../protocol/wire/frames';
import { openDb } from './db';
import { isDefinitive, toClientError, type ClientError } from './errors';
import { signAction, type Signer, type UnsignedAction } from './sign';

export interface OutboxItem {
  id: string;
  action: UnsignedAction;
  createdAt: number;
  status: 'queued' | 'refused';
  error: ClientError | null;
  attempts: number;
}

export type Outcome =
  | { status: 'applied'; result: unknown }
  | { status: 'refused'; error: ClientError }
  | { status: 'queued'; error: ClientError | null };

export interface OutboxStorage {
  all(): Promise<OutboxItem[]>;
  put(item: OutboxItem): Promise<void>;
  delete(id: string): Promise<void>;
}

export const idbOutboxStorage: OutboxStorage = {
  all: async () => (await openDb()).getAll('outbox'),
  put: async (item) => void (await (await openDb()).put('outbox', item)),
  delete: async (id) => (await openDb()).delete('outbox', id),
};

export function memoryOutboxStorage(): OutboxStorage {
  const items = new Map<string, OutboxItem>();
  return {
    all: async () => [...items.values()].map((i) => structuredClone(i)),
    put: async (item) => void items.set(item.id, structuredClone(item)),
    delete: async (id) => void items.delete(id),
  };
}

export interface OutboxOptions {
  signer: () => Promise<Signer | null>;
  /** Sends a signed frame; resolves with the ack's result, rejects with a ClientError. */
  send: (frame: ActionFrame) => Promise<unknown>;
  storage?: OutboxStorage;
  onChange?: (items: OutboxItem[]) => void;
  now?: () => number;
}

export class Outbox {
  private readonly storage: OutboxStorage;
  private flushing: Promise<void> | null = null;
  private again = false;
  /** Outcomes kept only for ids a sendNow() call is waiting on. */
  private readonly outcomes = new Map<string, Outcome | null>();

  constructor(private readonly opts: OutboxOptions) {
    this.storage = opts.storage ?? idbOutboxStorage;
  }

  async add(action: UnsignedAction): Promise<OutboxItem> {
    const item: OutboxItem = { id: action.id, action, createdAt: this.now(), status: 'queued', error: null, attempts: 0 };
    await this.storage.put(item);
    await this.changed();
    return item;
  }

  async list(): Promise<OutboxItem[]> {
    const items = await this.storage.all();
    return items.sort((a, b) => a.createdAt - b.createdAt || (a.id < b.id ? -1 : 1));
  }

  async sendNow(action: UnsignedAction): Promise<Outcome> {
    this.outcomes.set(action.id, null);
    await this.add(action);
    await this.flush();
    const outcome = this.outcomes.get(action.id);
    this.outcomes.delete(action.id);
    if (outcome) return outcome;
    const item = (await this.list()).find((i) => i.id === action.id);
    return item?.status === 'refused' && item.error ? { status: 'refused', error: item.error } : { status: 'queued', error: item?.error ?? null };
  }

  /** One flush at a time; a flush requested while one runs runs again after it. */
  flush(): Promise<void> {
    if (this.flushing) {
      this.again = true;
      return this.flushing;
    }
    this.flushing = (async () => {
      do {
        this.again = false;
        await this.flushOnce();
      } while (this.again);
    })().finally(() => {
      this.flushing = null;
    });
    return this.flushing;
  }

  async dismiss(id: string): Promise<void> {
    await this.storage.delete(id);
    await this.changed();
  }

  private async flushOnce(): Promise<void> {
    const signer = await this.opts.signer();
    if (!signer) return;
    for (const item of await this.list()) {
      if (item.status !== 'queued') continue;
      const stop = await this.sendOne(signer, item);
      if (stop) break;
    }
  }

  /** Sends one item; true when the transport failed and the rest should wait. */
  private async sendOne(signer: Signer, item: OutboxItem): Promise<boolean> {
    const attempted = { ...item, attempts: item.attempts + 1 };
    await this.storage.put(attempted);
    try {
      const result = await this.opts.send(await signAction(signer, item.action, this.now()));
      await this.storage.delete(item.id);
      this.settled(item.id, { status: 'applied', result });
      await this.changed();
      return false;
    } catch (thrown) {
      const error = toClientError(thrown);
      if (!isDefinitive(error)) {
        await this.storage.put({ ...attempted, error });
        await this.changed();
        return true;
      }
      // Someone waiting on it (the screen where it was tapped) shows the refusal once, so it
      // leaves at once; one refused in the background stays to be shown once, then dismissed (UX-9).
      if (this.outcomes.has(item.id)) await this.storage.delete(item.id);
      else await this.storage.put({ ...attempted, status: 'refused', error });
      this.settled(item.id, { status: 'refused', error });
      await this.changed();
      return false;
    }
  }

  private settled(id: string, outcome: Outcome): void {
    if (this.outcomes.has(id)) this.outcomes.set(id, outcome);
  }

  private async changed(): Promise<void> {
    if (this.opts.onChange) this.opts.onChange(await this.list());
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }
}
