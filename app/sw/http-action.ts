// The service worker's one way to send a signed action: `POST /api/action` with
// the device header. Used by the outbox flush and by notification buttons alike.
import type { ActionFrame } from '../../protocol/wire/frames';
import { DEVICE_HEADER } from '../../protocol/wire/http';
import { clientError, toClientError } from '../lib/errors';

/** Resolves with the ack's result; rejects with a ClientError (E_OFFLINE when the relay is unreachable). */
export async function sendActionOverHttp(frame: ActionFrame, deviceId: string): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch('/api/action', {
      method: 'POST',
      headers: { 'content-type': 'application/json', [DEVICE_HEADER]: deviceId },
      body: JSON.stringify(frame),
    });
  } catch {
    throw clientError('E_OFFLINE');
  }
  const body = (await response.json().catch(() => null)) as { type?: string; result?: unknown; error?: unknown } | null;
  if (response.ok && body?.type === 'ack') return body.result;
  throw toClientError(body ?? { code: response.status >= 500 ? 'E_INTERNAL' : 'E_BAD_FRAME', message: `HTTP ${response.status}` });
}
