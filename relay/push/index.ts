// The push service as server.ts builds it (one line there, after the hub and the
// commanders): VAPID + subscriptions in the data dir, a device counts as "looking"
// while one of its sockets reports the app visible, and the triggers attached.
import type { RelayServices } from '../context';
import { Commanders } from '../commanders/service';
import { RepoHub } from '../watch/hub';
import { PushService } from './push-service';
import { PushTriggers } from './triggers';

export { PushService } from './push-service';

export function startPush(services: RelayServices): PushService {
  const push = new PushService({
    dataDir: services.dataDir,
    isVisible: (deviceId) => services.clients().some((c) => c.device.id === deviceId && c.visible),
    isPaired: (deviceId) => services.devices.get(deviceId) !== undefined,
  });
  const triggers = new PushTriggers((payload) => push.notify(payload), services.log);
  if (services.hub instanceof RepoHub) triggers.watchBus(services.hub);
  if (services.commanders instanceof Commanders) triggers.watchCommanders(services.commanders);
  push.triggers = triggers;
  return push;
}
