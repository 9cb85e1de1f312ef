// What makes the relay push (PUSH-3): new bus events from the repo hub (never the
// replay of a log at start: the hub only emits `bus-event` after its first read)
// and commanders entering `waiting`. Events are handled one at a time, in order,
// so a later notification for a task always replaces an earlier one.
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { PushPayload } from '../../protocol/wire/push';
import type { CommanderView, RepoInfo } from '../../protocol/wire/views';
import type { Logger } from '../options';
import { busEventMessage, commanderWaitingMessage } from './messages';
import { taskContext } from './task-context';

const TRIGGERS = new Set(['approval_requested', 'council_verdict', 'task_complete', 'task_failed', 'task_merged', 'task_pushed', 'pr_opened']);

/** The part of RepoHub the triggers listen to. */
export interface BusEventSource {
  on(event: 'bus-event', listener: (repo: RepoInfo, event: AnyBusEvent) => void): unknown;
  off(event: 'bus-event', listener: (repo: RepoInfo, event: AnyBusEvent) => void): unknown;
  model(repo: string): { bus: string } | undefined;
}

/** The part of the commanders service the triggers listen to. */
export interface WaitingSource {
  on(event: 'waiting', listener: (view: CommanderView) => void): unknown;
  off(event: 'waiting', listener: (view: CommanderView) => void): unknown;
}

/** A verdict no reviewer voted on (every member abstained: no key, evaluator failing) is
 *  "council not configured", not a failure of the work: it sends no push (UX-7). */
export function noReviewerVoted(event: AnyBusEvent): boolean {
  if (event.event !== 'council_verdict') return false;
  const { abstentions, evaluator_count: count } = event as { abstentions?: unknown; evaluator_count?: unknown };
  return typeof abstentions === 'number' && typeof count === 'number' && count > 0 && abstentions >= count;
}

export class PushTriggers {
  private chain: Promise<void> = Promise.resolve();
  private readonly detach: (() => void)[] = [];

  constructor(
    private readonly notify: (payload: PushPayload) => void,
    private readonly log: Logger,
  ) {}

  watchBus(hub: BusEventSource): void {
    const listener = (repo: RepoInfo, event: AnyBusEvent) => {
      if (!TRIGGERS.has(event.event) || noReviewerVoted(event)) return;
      const bus = hub.model(repo.id)?.bus;
      if (bus) this.enqueue(async () => busEventMessage(event, await taskContext(repo, bus, event)));
    };
    hub.on('bus-event', listener);
    this.detach.push(() => hub.off('bus-event', listener));
  }

  watchCommanders(commanders: WaitingSource): void {
    const listener = (view: CommanderView) => this.enqueue(async () => commanderWaitingMessage(view));
    commanders.on('waiting', listener);
    this.detach.push(() => commanders.off('waiting', listener));
  }

  /** Resolves when every trigger seen so far has been handed to the push service. */
  idle(): Promise<void> {
    return this.chain;
  }

  close(): void {
    for (const off of this.detach.splice(0)) off();
  }

  private enqueue(make: () => Promise<PushPayload | null>): void {
    this.chain = this.chain.then(async () => {
      try {
        const payload = await make();
        if (payload) this.notify(payload);
      } catch (error) {
        this.log.error(error, 'building a push notification');
      }
    });
  }
}
