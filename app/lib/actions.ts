// What screens call to change or read things on the relay. Every action goes
// through the outbox (stored first, so nothing is lost offline); reads go straight
// to the socket and fail fast with E_OFFLINE when there is none.
//
// API:
//   ActionPayload<T>  fields of action T without type/id/ts/sig
//   act(type, payload) → Promise<ActResult>: {id, status:'applied', result} | {id, status:'refused', error}
//                        | {id, status:'queued', error}  (queued = will be sent when back online)
//   read(type, payload, {onFrame?, timeoutMs?}) → Promise<ack result>; rejects with ClientError.
//        task.diff streams task.diff.begin/chunk/end to onFrame before resolving.
//   dismissQueued(id) — for a refused item shown in the UI (refusals are never retried: UX-9)
import type { ActionFrame, ActionType, ReadFrame, ServerFrame } from '../../protocol/wire/frames';
import { clientError } from './errors';
import type { Outcome } from './outbox';
import type { UnsignedAction } from './sign';

/**
 * The client core (socket, outbox, the wire's schemas) is a chunk of its own that the
 * app frame loads after the first paint (LAZY-1): a screen that can act does not pull it
 * into its own start-up. An action waits for it; by the time a person taps, it is loaded.
 */
const core = () => Promise.all([import('./client'), import('./sign')]);

export type ActionPayload<T extends ActionType> = Omit<Extract<ActionFrame, { type: T }>, 'type' | 'id' | 'ts' | 'sig'>;
export type ReadType = ReadFrame['type'];
export type ReadPayload<T extends ReadType> = Omit<Extract<ReadFrame, { type: T }>, 'type' | 'id'>;
export type ActResult = Outcome & { id: string };

export async function act<T extends ActionType>(type: T, payload: ActionPayload<T>): Promise<ActResult> {
  const [{ getClient, startClient }, { newActionId }] = await core();
  const client = getClient() ?? startClient();
  const id = newActionId();
  const outcome = await client.outbox.sendNow({ ...payload, type, id } as unknown as UnsignedAction);
  return { ...outcome, id };
}

export async function read<T extends ReadType>(
  type: T,
  payload: ReadPayload<T>,
  options: { onFrame?: (frame: ServerFrame) => void; timeoutMs?: number } = {},
): Promise<unknown> {
  const { getClient } = await import('./client');
  const client = getClient();
  if (!client) throw clientError('E_OFFLINE');
  const frame = { ...payload, type, id: client.connection.readId() } as unknown as ReadFrame;
  return client.connection.request(frame, options);
}

export async function dismissQueued(id: string): Promise<void> {
  const { getClient } = await import('./client');
  await getClient()?.outbox.dismiss(id);
}
