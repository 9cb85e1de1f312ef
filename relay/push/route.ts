// `GET /api/push/key` (PUSH-1): the relay's VAPID public key, which the app passes
// to `PushManager.subscribe` as applicationServerKey. Public by design.
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import type { PushKeyResponse } from '../../protocol/wire/push';
import type { RelayServices } from '../context';
import { sendJson } from '../http/respond';
import { PushService } from './push-service';

export function getPushKey(services: RelayServices, res: http.ServerResponse): void {
  if (!(services.push instanceof PushService)) throw new CommandrError('E_UNAVAILABLE', 'push notifications are not available on this relay');
  sendJson(res, 200, { publicKey: services.push.publicKey } satisfies PushKeyResponse);
}
