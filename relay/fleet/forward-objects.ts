// Which relay answers a device's frame about a permission request, a job or a
// commander (FLEETX-3..5): an id without a machine prefix is the home's own and is
// handled here as always; a labelled id goes to the member that announced it (its
// route comes only from that member's frames, FLEETX-2). The home's dispatch has
// already checked the device, signature, freshness and at-most-once (FLEET-20).
import { CommandrError } from '../../protocol/wire/errors';
import type { ForwardedFrame } from '../../protocol/wire/fleet';
import type { ServerFrame } from '../../protocol/wire/frames';
import type { CommanderView, PermissionRequestView } from '../../protocol/wire/views';
import type { RelayServices } from '../context';
import { fleetHomeOf, labelRepo, type FleetHome } from './home';
import { labelId, type ObjectKind } from './labels';

interface Ctx { services: RelayServices; device: { id: string; name: string }; send(frame: ServerFrame): void }
type Of<K extends ForwardedFrame['type']> = Extract<ForwardedFrame, { type: K }>;
type ObjectFrame = Of<'permission.decide' | 'job.stop' | 'commander.message' | 'commander.replace' | 'commander.addReference' | 'commander.delete' | 'commander.output'>;

const KIND: Record<ObjectFrame['type'], ObjectKind> = {
  'permission.decide': 'permission', 'job.stop': 'job', 'commander.message': 'commander', 'commander.replace': 'commander',
  'commander.addReference': 'commander', 'commander.delete': 'commander', 'commander.output': 'commander',
};

function idOf(frame: ObjectFrame): string {
  if (frame.type === 'permission.decide') return frame.request;
  if (frame.type === 'job.stop') return frame.job;
  return frame.commander;
}

const caller = (ctx: Ctx) => ({ device: { id: ctx.device.id, name: ctx.device.name }, send: (f: ServerFrame) => ctx.send(f) });
const nameOf = (home: FleetHome, machine: string) => home.states().find((m) => m.id === machine)?.name ?? machine;

/** A member's ack as the device sees it: its own ids labelled (FLEETX-1). */
function relabelAck(home: FleetHome, machine: string, value: unknown): unknown {
  if (!value || typeof value !== 'object') return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  const commander = out.commander as CommanderView | undefined;
  if (commander && typeof commander === 'object' && typeof commander.id === 'string') {
    out.commander = { ...commander, id: labelId(machine, commander.id), name: `${nameOf(home, machine)}/${commander.name}`.slice(0, 80) };
  }
  const request = out.request as PermissionRequestView | undefined;
  if (request && typeof request === 'object' && typeof request.id === 'string') {
    out.request = { ...request, id: labelId(machine, request.id), repo: request.repo === null ? null : labelRepo(machine, request.repo) };
  }
  for (const key of ['job', 'deleted'] as const) if (typeof out[key] === 'string') out[key] = labelId(machine, out[key] as string);
  return out;
}

/** A device's frame about a request, job or commander: the member's when its id is labelled and announced, else the home's own. */
export function viaMember<F extends ObjectFrame, C extends Ctx>(local: (ctx: C, frame: F) => Promise<unknown>): (ctx: C, frame: F) => Promise<unknown> {
  return async (ctx, frame) => {
    const home = fleetHomeOf(ctx.services);
    const labelled = idOf(frame);
    if (!home || !labelled.includes('.')) return local(ctx, frame);
    const route = home.feeds.route(KIND[frame.type], labelled);
    if (!route) throw new CommandrError('E_NOT_FOUND', `no ${KIND[frame.type] === 'permission' ? 'permission request' : KIND[frame.type]} ${labelled} was announced by a member machine`);
    return home.forward({ machine: route.machine, repo: route.own }, caller(ctx), frame, {
      labelled, result: (value) => relabelAck(home, route.machine, value),
    });
  };
}

/** `commander.create` with `machine`: created on that member (FLEETX-5); without, on the home. */
export function createOnMember<C extends Ctx>(local: (ctx: C, frame: Of<'commander.create'>) => Promise<unknown>): (ctx: C, frame: Of<'commander.create'>) => Promise<unknown> {
  return async (ctx, frame) => {
    if (frame.machine === undefined) return local(ctx, frame);
    const home = fleetHomeOf(ctx.services);
    const machine = home?.states().find((m) => m.id === frame.machine);
    if (!home || !machine) throw new CommandrError('E_NOT_FOUND', `no member machine ${frame.machine} has joined this relay`);
    return home.forward({ machine: machine.id, repo: '' }, caller(ctx), frame, {
      labelled: '', result: (value) => relabelAck(home, machine.id, value),
    });
  };
}

/** `task.run`'s ack names the member's job: labelled so `job.stop` finds it (FLEETX-4). */
export function labelRunAck(machine: string, value: unknown): unknown {
  if (!value || typeof value !== 'object' || typeof (value as { job?: unknown }).job !== 'string') return value;
  return { ...(value as object), job: labelId(machine, (value as { job: string }).job) };
}
