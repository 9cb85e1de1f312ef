// What a home's devices may do about its member machines (FLEETUI-n): `machine.remove`,
// the phone's `commandr machines remove` (FLEET-6). Only an owner device may remove a
// machine (OWNER-1): a stolen phone must not cut a machine off the fleet.
import * as os from 'node:os';
import { CommandrError } from '../../protocol/wire/errors';
import type { ActionFrame } from '../../protocol/wire/frames';
import { MachineName } from '../../protocol/wire/machines';
import type { ActionContext } from '../actions/index';
import { fleetHomeOf } from './home';
import { removeMachine } from './machines';

/** This relay's machine name for the app's labels: the host name as `commandr join` makes it, else `home`. */
export function homeName(): string {
  const name = os.hostname().replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 63);
  return MachineName.safeParse(name).success ? name : 'home';
}

export async function machineRemove(ctx: ActionContext, frame: Extract<ActionFrame, { type: 'machine.remove' }>): Promise<{ removed: string }> {
  // Owner first: a device that may not remove learns nothing about which machines exist.
  if (!ctx.services.devices.isOwner(ctx.device.id)) {
    throw new CommandrError('E_FORBIDDEN', `only an owner device may remove a machine; run \`commandr machines remove ${frame.machine}\` on the home, or mark this device with \`commandr devices owner ${ctx.device.id}\``);
  }
  if (!removeMachine(ctx.services.dataDir, frame.machine)) {
    throw new CommandrError('E_NOT_FOUND', `no machine ${frame.machine} is joined to this home (already removed?)`);
  }
  // Its link closes and its repos go now, not at the next sweep.
  fleetHomeOf(ctx.services)?.forgetRemoved();
  return { removed: frame.machine };
}
