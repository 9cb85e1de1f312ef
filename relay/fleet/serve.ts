// The member's side of a forwarded request (FLEET-20): a `fleet.action` arrives
// only on the link this relay opened to its home and whose key it verified, so
// the home — which checked the device's signature, freshness and that the device
// is still paired — is its authority. The member resolves the labelled repo id to
// one of ITS repos, applies the frame with its own services (an approval is signed
// with this machine's approval key, the one its gate trusts), at most once per
// (device, action id), records who did it, and answers over the link.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandrError } from '../../protocol/wire/errors';
import type { FleetAction, ForwardedFrame, MemberFrame } from '../../protocol/wire/fleet';
import { isActionType } from '../../protocol/wire/frames';
import type { Answer } from '../clients/dedupe';
import type { RelayServices } from '../context';
import { actions, reads, type ActionContext, type Handler } from '../actions/index';
import { ensurePrivateDir } from '../devices/files';
import { auditFields, ownFrame } from './own-frame';

/** Answers of recent forwarded actions, so a repeat of the same (device, id) is not applied twice. */
const DEDUPE_KEEP = 1000;

export const fleetAuditFile = (dataDir: string) => path.join(dataDir, 'fleet', 'actions.jsonl');

export interface ForwardServer {
  serve(frame: FleetAction, reply: (frame: MemberFrame) => void): Promise<void>;
}

export function forwardServer(services: RelayServices, machine: () => string | undefined): ForwardServer {
  const seen = new Map<string, Promise<Answer>>();

  async function apply(action: FleetAction, reply: (frame: MemberFrame) => void): Promise<Answer> {
    let frame: ForwardedFrame;
    try {
      frame = ownFrame(services, machine(), action.frame);
    } catch (error) {
      return failure(error instanceof CommandrError ? error : new CommandrError('E_BAD_FRAME', 'unreadable forwarded frame'));
    }
    const ctx: ActionContext = {
      services,
      device: action.device,
      client: { device: action.device, visible: false, state: new Map() },
      send: (part) => {
        if (part.type === 'task.diff.begin' || part.type === 'task.diff.chunk' || part.type === 'task.diff.end' || part.type === 'repo.tasks' || part.type === 'commander.output') {
          reply({ type: 'fleet.stream', rid: action.rid, frame: part });
        }
      },
    };
    const table = (isActionType(frame.type) ? actions : reads) as Record<string, Handler<unknown>>;
    try {
      return { ok: true, result: await table[frame.type]!(ctx, frame) };
    } catch (error) {
      if (error instanceof CommandrError) return failure(error);
      services.log.error(error, `handling a forwarded ${frame.type}`);
      return failure(new CommandrError('E_INTERNAL', `the member relay failed while handling ${frame.type}`));
    }
  }

  function audit(action: FleetAction, answer: Answer): void {
    const f = action.frame;
    const line = {
      at: new Date().toISOString(), via: 'home', device: action.device.id, name: action.device.name, type: f.type, id: f.id,
      ...auditFields(f), ...(answer.ok ? { ok: true } : { ok: false, code: answer.error.code }),
    };
    try {
      ensurePrivateDir(path.dirname(fleetAuditFile(services.dataDir)));
      fs.appendFileSync(fleetAuditFile(services.dataDir), `${JSON.stringify(line)}\n`, { mode: 0o600 });
    } catch (error) {
      services.log.error(error, 'recording a forwarded action');
    }
  }

  return {
    async serve(action, reply) {
      let answer: Answer;
      if (isActionType(action.frame.type)) {
        const key = `${action.device.id}\n${action.frame.id}`;
        let run = seen.get(key);
        if (!run) {
          run = apply(action, reply).then((a) => (audit(action, a), a));
          seen.set(key, run);
          if (seen.size > DEDUPE_KEEP) seen.delete(seen.keys().next().value!);
        }
        answer = await run;
      } else answer = await apply(action, reply);
      reply(answer.ok ? { type: 'fleet.result', rid: action.rid, ok: true, result: answer.result } : { type: 'fleet.result', rid: action.rid, ok: false, error: answer.error });
    },
  };
}

function failure(error: CommandrError): Answer {
  return { ok: false, error: { code: error.code, message: error.message } };
}
