// `POST /api/pair` (PAIR-n): a phone redeems a one-time code and registers its
// public key. Failed attempts are rate limited per address and in total.
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { PairRequest } from '../../protocol/wire/http';
import type { RelayServices } from '../context';
import { readJson, sendJson } from '../http/respond';
import { redeemPairingCode } from './pairing';
import type { FailureLimiter } from './rate-limit';

export async function postPair(services: RelayServices, limiter: FailureLimiter, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const remote = req.socket.remoteAddress ?? 'unknown';
  if (limiter.blocked(remote)) {
    req.resume();
    throw new CommandrError('E_RATE_LIMITED', 'too many failed pairing attempts; wait a minute');
  }
  try {
    const parsed = PairRequest.safeParse(await readJson(req, 16 * 1024));
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CommandrError('E_BAD_FRAME', `pair request: ${issue?.path.join('.') || '(body)'}: ${issue?.message ?? 'invalid'}`);
    }
    redeemPairingCode(services.dataDir, parsed.data.code);
    const record = services.devices.add(parsed.data.name, parsed.data.publicKey);
    sendJson(res, 201, { device: services.devices.view(record, record.id) });
  } catch (error) {
    limiter.fail(remote);
    throw error;
  }
}
