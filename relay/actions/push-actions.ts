// push.subscribe / push.unsubscribe / push.prefs (PUSH-2): a signed action stores,
// drops or re-tunes the Web Push subscription of the device that signed it — a
// device can only ever change its own.
import type { ActionFrame } from '../../protocol/wire/frames';
import { CommandrError } from '../../protocol/wire/errors';
import type { PushPrefs } from '../../protocol/wire/views';
import type { RelayServices } from '../context';
import { PushService } from '../push/push-service';
import type { ActionContext } from './index';

type Of<K> = Extract<ActionFrame, { type: K }>;

export function pushOf(services: RelayServices): PushService {
  const push = services.push;
  if (!(push instanceof PushService)) throw new CommandrError('E_UNAVAILABLE', 'push notifications are not available on this relay');
  return push;
}

export async function pushSubscribe(ctx: ActionContext, frame: Of<'push.subscribe'>): Promise<{ subscribed: true; prefs: PushPrefs }> {
  pushOf(ctx.services).subscribe(ctx.device.id, frame.subscription, frame.prefs);
  return { subscribed: true, prefs: frame.prefs };
}

export async function pushUnsubscribe(ctx: ActionContext, _frame: Of<'push.unsubscribe'>): Promise<{ subscribed: false }> {
  pushOf(ctx.services).forgetDevice(ctx.device.id);
  return { subscribed: false };
}

export async function pushPrefs(ctx: ActionContext, frame: Of<'push.prefs'>): Promise<{ prefs: PushPrefs }> {
  if (!pushOf(ctx.services).setPrefs(ctx.device.id, frame.prefs)) {
    throw new CommandrError('E_NOT_FOUND', 'this device has no push subscription; turn notifications on first');
  }
  return { prefs: frame.prefs };
}
