// Which relay answers a device's frame about a repo (FLEET-20): the home's own
// repos are answered here; a repo id a member announced (machine-labelled) goes
// over that member's link. relay/actions/index.ts wraps the repo-scoped handlers.
import type { RepoForwardedFrame } from '../../protocol/wire/fleet';
import type * as z from 'zod/mini';
import type { ServerFrame, Subscribe } from '../../protocol/wire/frames';
import type { ClientInfo, RelayServices } from '../context';
import { RepoHub } from '../watch/hub';
import { fleetHomeOf } from './home';
import { markFleetSubscribed } from './resume';
import { labelRunAck } from './forward-objects';

interface Ctx { services: RelayServices; device: { id: string; name: string }; client?: ClientInfo; send(frame: ServerFrame): void }

export function viaFleet<F extends RepoForwardedFrame, C extends Ctx>(local: (ctx: C, frame: F) => Promise<unknown>): (ctx: C, frame: F) => Promise<unknown> {
  return async (ctx, frame) => {
    const home = fleetHomeOf(ctx.services);
    // A repo this relay watches itself is always its own, whatever a member announced.
    const own = ctx.services.hub instanceof RepoHub && ctx.services.hub.model(frame.repo) !== undefined;
    const route = own ? undefined : home?.route(frame.repo);
    if (!home || !route) return local(ctx, frame);
    const how = frame.type === 'task.run' ? { labelled: frame.repo, result: (value: unknown) => labelRunAck(route.machine, value) } : undefined;
    return home.forward(route, { device: { id: ctx.device.id, name: ctx.device.name }, send: (f) => ctx.send(f) }, frame, how);
  };
}

type SubscribeFrame = z.infer<typeof Subscribe>;

/**
 * `subscribe` on a home (FLEET-22): the home's own repos as usual (a cursor of a
 * member repo is not mistaken for a repo that is gone), then each member repo's
 * last known state and each machine's `machine.state`.
 */
export function withFleetState<C extends Ctx>(read: (ctx: C, frame: SubscribeFrame) => Promise<unknown>): (ctx: C, frame: SubscribeFrame) => Promise<unknown> {
  return async (ctx, frame) => {
    const home = fleetHomeOf(ctx.services);
    if (!home) return read(ctx, frame);
    const cursors = frame.cursors && Object.fromEntries(Object.entries(frame.cursors).filter(([repo]) => !home.route(repo)));
    // No live member frame reaches this client until its replay below: what it missed and what follows meet exactly (FLEETR-2).
    markFleetSubscribed(ctx.client, false);
    const result = await read(ctx, { ...frame, ...(cursors ? { cursors } : {}) });
    const members = home.replay((f) => ctx.send(f), frame.cursors);
    markFleetSubscribed(ctx.client, true);
    const repos = (result as { repos?: unknown } | undefined)?.repos;
    return Array.isArray(repos) ? { ...(result as object), repos: [...repos, ...members] } : result;
  };
}
