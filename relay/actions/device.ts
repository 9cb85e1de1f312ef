// device.list / device.rename / device.revoke (DEV-n). A device may rename or
// revoke itself; others only when it is an owner (OWNER-1). Revocation itself (closing
// sockets, dropping push subscriptions) follows the device store's 'revoked' event,
// so a revoke from the CLI and one from a phone take the same path.
import type { ActionFrame, ReadFrame } from '../../protocol/wire/frames';
import type { DeviceView } from '../../protocol/wire/views';
import { DEVICE_ID_PATTERN } from '../devices/store';
import { CommandrError } from '../../protocol/wire/errors';
import type { ActionContext } from './index';

type Of<U, K> = Extract<U, { type: K }>;

function views(ctx: ActionContext): DeviceView[] {
  const { devices, push } = ctx.services;
  return devices.list().map((d) => devices.view(d, ctx.device.id, push?.hasDevice?.(d.id) ?? false));
}

function checkId(id: string): void {
  if (!DEVICE_ID_PATTERN.test(id)) throw new CommandrError('E_BAD_ID', 'device id must be d-<16 hex>');
}

export async function deviceList(ctx: ActionContext, _frame: Of<ReadFrame, 'device.list'>): Promise<{ devices: DeviceView[] }> {
  return { devices: views(ctx) };
}

/** OWNER-1: a stolen phone must not revoke or rename the owner's devices. */
function checkMayChange(ctx: ActionContext, target: string, what: string): void {
  if (target === ctx.device.id || ctx.services.devices.isOwner(ctx.device.id)) return;
  if (!ctx.services.devices.get(target)) return; // the store answers E_NOT_FOUND
  throw new CommandrError('E_FORBIDDEN', `only an owner device may ${what} another device; run \`commandr devices ${what} …\` on the relay's machine or mark this device with \`commandr devices owner ${ctx.device.id}\``);
}

export async function deviceRename(ctx: ActionContext, frame: Of<ActionFrame, 'device.rename'>): Promise<{ device: DeviceView }> {
  checkId(frame.device);
  checkMayChange(ctx, frame.device, 'rename');
  const record = ctx.services.devices.rename(frame.device, frame.name);
  return { device: ctx.services.devices.view(record, ctx.device.id) };
}

export async function deviceRevoke(ctx: ActionContext, frame: Of<ActionFrame, 'device.revoke'>): Promise<{ revoked: string }> {
  checkId(frame.device);
  checkMayChange(ctx, frame.device, 'revoke');
  ctx.services.devices.revoke(frame.device);
  return { revoked: frame.device };
}
