// `permission.decide` (PERM-3): a signed device decision on a pending request;
// the first valid one wins, later ones get E_CONFLICT. `permission.list` follows `subscribe`.
import { CommandrError } from '../../protocol/wire/errors';
import type { ActionFrame } from '../../protocol/wire/frames';
import type { RelayServices } from '../context';
import { PermissionService } from '../permissions/service';
import type { ActionContext } from './index';

type Decide = Extract<ActionFrame, { type: 'permission.decide' }>;

function permissionsOf(services: RelayServices): PermissionService {
  if (!(services.permissions instanceof PermissionService)) throw new CommandrError('E_UNAVAILABLE', 'permission requests are not available');
  return services.permissions;
}

export async function permissionDecide(ctx: ActionContext, frame: Decide): Promise<unknown> {
  const view = permissionsOf(ctx.services).decide(ctx.device, frame.request, frame.decision, frame.reason);
  return { request: view };
}

/** Wraps the `subscribe` read so the client also gets the open and recent requests. */
export function withPermissionList<F>(read: (ctx: ActionContext, frame: F) => Promise<unknown>): (ctx: ActionContext, frame: F) => Promise<unknown> {
  return async (ctx, frame) => {
    const result = await read(ctx, frame);
    const permissions = ctx.services.permissions;
    if (permissions instanceof PermissionService) ctx.send({ type: 'permission.list', requests: permissions.list() });
    return result;
  };
}
