// Which relay answers a device's frame about a repo (FLEET-20): the home's own
// repos are answered here; a repo id a member announced (machine-labelled) goes
// over that member's link. relay/actions/index.ts wraps the repo-scoped handlers.
import type { ForwardedFrame } from '../../protocol/wire/fleet';
import type { ServerFrame } from '../../protocol/wire/frames';
import type { RelayServices } from '../context';
import { RepoHub } from '../watch/hub';
import { fleetHomeOf } from './home';

interface Ctx { services: RelayServices; device: { id: string; name: string }; send(frame: ServerFrame): void }

export function viaFleet<F extends ForwardedFrame, C extends Ctx>(local: (ctx: C, frame: F) => Promise<unknown>): (ctx: C, frame: F) => Promise<unknown> {
  return async (ctx, frame) => {
    const home = fleetHomeOf(ctx.services);
    // A repo this relay watches itself is always its own, whatever a member announced.
    const own = ctx.services.hub instanceof RepoHub && ctx.services.hub.model(frame.repo) !== undefined;
    const route = own ? undefined : home?.route(frame.repo);
    if (!home || !route) return local(ctx, frame);
    return home.forward(route, { device: { id: ctx.device.id, name: ctx.device.name }, send: (f) => ctx.send(f) }, frame);
  };
}
