// `POST /api/pair` (PAIR-n): a phone redeems a one-time code and registers its
// public key. Failed attempts are limited per address, per code and in total
// (PAIR-4), but a live code always pairs (PAIR-4).
import type * as http from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { PairRequest } from '../../protocol/wire/http';
import type { RelayServices } from '../context';
import { readJsonAs, sendJson } from '../http/respond';
import { codeKey, pairingCodeIsLive, redeemPairingCode } from './pairing';
import type { FailureLimiter } from './rate-limit';

export async function postPair(services: RelayServices, limiter: FailureLimiter, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  // The socket's address, never X-Forwarded-For: a stranger could write any address there.
  // Behind a local proxy every client shares this key, which PAIR-4's live-code rule makes harmless.
  const remote = req.socket.remoteAddress ?? 'unknown';
  // Every refused body, unreadable or malformed, counts as a failed attempt.
  const { code, name, publicKey } = await readJsonAs(req, PairRequest, 'pair request', 16 * 1024).catch((error: unknown) => {
    limiter.fail(remote);
    throw error;
  });
  // PAIR-4: a live code (256 random bits, issued by `commandr pair`) is never refused by the
  // limits, so strangers failing from the owner's address or from everywhere cannot lock the owner out.
  if (!pairingCodeIsLive(services.dataDir, code) && (limiter.blocked(remote) || limiter.blocked(codeKey(code)))) {
    throw new CommandrError('E_RATE_LIMITED', 'too many failed pairing attempts; wait a minute or run `commandr pair` for a new code');
  }
  try {
    redeemPairingCode(services.dataDir, code);
  } catch (error) {
    limiter.fail(remote);
    limiter.fail(codeKey(code));
    throw error;
  }
  const record = services.devices.add(name, publicKey);
  sendJson(res, 201, { device: services.devices.view(record, record.id) });
}
