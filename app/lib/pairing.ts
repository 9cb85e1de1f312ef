// Pairing this browser with a relay: make the device key, POST /api/pair with the
// one-time code, and store the identity. Nothing is stored unless the relay accepted it.
//
// API:
//   codeFromHash(hash)               → the code in '#code=…' or null
//   pairDevice({ code, name, origin?, fetchImpl? }) → DeviceView (throws ClientError)
import { PairResponse, type PairRequest } from '../../protocol/wire/http';
import type { DeviceView } from '../../protocol/wire/views';
import { saveDevice, createDeviceKey } from './device-key';
import { clientError, toClientError } from './errors';
import { markPaired } from './prepaint';
import { PAIR_UNREACHABLE } from './pair-link';

export { codeFromHash } from './pair-link';

export async function pairDevice(opts: { code: string; name: string; origin?: string; fetchImpl?: typeof fetch }): Promise<DeviceView> {
  const { privateKey, publicJwk } = await createDeviceKey();
  const body: PairRequest = { code: opts.code.trim(), name: opts.name.trim(), publicKey: publicJwk };
  let response: Response;
  try {
    response = await (opts.fetchImpl ?? fetch)(new URL('/api/pair', opts.origin ?? location.origin), {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
  } catch {
    throw clientError('E_OFFLINE', PAIR_UNREACHABLE);
  }
  const json: unknown = await response.json().catch(() => null);
  if (!response.ok) throw toClientError(json ?? { code: 'E_INTERNAL', message: `pairing failed with HTTP ${response.status}` });
  const parsed = PairResponse.safeParse(json);
  if (!parsed.success) throw clientError('E_BAD_FRAME', 'The relay answered pairing in a form this app does not understand.');
  const device = parsed.data.device;
  await saveDevice({ deviceId: device.id, name: device.name, privateKey, publicJwk, pairedAt: new Date().toISOString() });
  markPaired(); // the next visit paints the screen asked for, not Pair (FASTPAIR-2)
  return device;
}
