// `POST /api/action` (HTTP-3): the service worker sends a signed action (e.g. an
// approve tapped on a notification) without a socket. Same validation,
// signature check and dedupe as the socket; the answer is the ack/error frame.
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { isActionType } from '../../protocol/wire/frames';
import { DEVICE_HEADER } from '../../protocol/wire/http';
import type { RelayServices } from '../context';
import { readJson, sendJson, statusFor } from '../http/respond';
import type { Dispatcher } from './dispatch';
import { echoId } from './frame-errors';

export async function postAction(services: RelayServices, dispatcher: Dispatcher, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const deviceId = req.headers[DEVICE_HEADER];
  const record = typeof deviceId === 'string' ? services.devices.get(deviceId) : undefined;
  if (!record) {
    req.resume();
    throw new CommandrError('E_UNAUTHORIZED', `unknown device; send the paired device id in ${DEVICE_HEADER}`);
  }
  const body = await readJson(req);
  const type = body && typeof body === 'object' ? (body as { type?: unknown }).type : undefined;
  if (!isActionType(type)) {
    sendJson(res, 400, { type: 'error', ...(echoId(body) ? { id: echoId(body) } : {}), error: { code: 'E_BAD_FRAME', message: 'only signed actions may be posted here' } });
    return;
  }
  const device = { id: record.id, name: record.name };
  const client = { device, visible: false, state: new Map<string, unknown>() };
  const reply = await dispatcher.answer({ device, client, send: () => undefined }, body);
  sendJson(res, reply.type === 'ack' ? 200 : statusFor(reply.error.code), reply);
}
