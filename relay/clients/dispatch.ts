// Answers one client frame (WIRE-n, DEDUPE-n): validate with protocol/wire,
// verify an action's signature, dedupe, run the handler from the table, and
// always produce exactly one `ack` or `error` — for the socket and for HTTP alike.
import { CommandrError } from '../../protocol/wire/errors';
import { type ActionFrame, ClientFrame, isActionType, type ReadFrame, type ServerFrame } from '../../protocol/wire/frames';
import { type ActionContext, actions, type Handler, reads } from '../actions/index';
import type { RelayServices } from '../context';
import type { Answer, DedupeStore } from './dedupe';
import { echoId, frameError } from './frame-errors';
import { checkFresh, verifyActionSignature } from './verify';

export type Caller = Omit<ActionContext, 'services'>;
export type Reply = ServerFrame & { type: 'ack' | 'error' };

export interface Dispatcher {
  /** Answers a parsed frame from an authenticated caller. */
  answer(caller: Caller, value: unknown): Promise<Reply>;
}

export function createDispatcher(services: RelayServices, dedupe: DedupeStore): Dispatcher {
  const toReply = (id: string | undefined, answer: Answer): Reply =>
    answer.ok ? { type: 'ack', id: id!, result: answer.result } : { type: 'error', ...(id ? { id } : {}), error: answer.error };

  async function run(ctx: ActionContext, frame: ActionFrame | ReadFrame): Promise<Answer> {
    const table = (isActionType(frame.type) ? actions : reads) as Record<string, Handler<unknown>>;
    try {
      return { ok: true, result: await table[frame.type]!(ctx, frame) };
    } catch (error) {
      if (error instanceof CommandrError) return { ok: false, error: { code: error.code, message: error.message } };
      services.log.error(error, `handling ${frame.type}`);
      return { ok: false, error: { code: 'E_INTERNAL', message: `the relay failed while handling ${frame.type}` } };
    }
  }

  async function answerAction(ctx: ActionContext, frame: ActionFrame): Promise<Answer> {
    verifyActionSignature(services.devices, ctx.device.id, frame);
    const prior = dedupe.peek(ctx.device.id, frame.id);
    if (prior) return prior;
    checkFresh(frame);
    return dedupe.run(ctx.device.id, frame.id, () => run(ctx, frame));
  }

  return {
    async answer(caller, value) {
      const id = echoId(value);
      const parsed = ClientFrame.safeParse(value);
      if (!parsed.success) return toReply(id, failure(frameError(value, parsed.error.issues)));
      const frame = parsed.data;
      if (frame.type === 'auth.response') return toReply(id, failure(new CommandrError('E_BAD_FRAME', 'this socket is already authenticated')));
      const ctx: ActionContext = { ...caller, services };
      try {
        if (!services.devices.get(ctx.device.id)) throw new CommandrError('E_UNAUTHORIZED', 'this device was revoked');
        const answer = isActionType(frame.type) ? await answerAction(ctx, frame as ActionFrame) : await run(ctx, frame as ReadFrame);
        return toReply(frame.id, answer);
      } catch (error) {
        if (error instanceof CommandrError) return toReply(frame.id, failure(error));
        services.log.error(error, `dispatching ${frame.type}`);
        return toReply(frame.id, failure(new CommandrError('E_INTERNAL', 'the relay failed to handle this frame')));
      }
    },
  };
}

function failure(error: CommandrError): Answer {
  return { ok: false, error: { code: error.code, message: error.message } };
}
