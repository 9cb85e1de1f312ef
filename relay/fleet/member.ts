// The member's side of the fleet link (FLEET-n): an outbound WebSocket to the
// home (no inbound port needed), the mutual key proof — the home's key must
// match the pinned fingerprint and sign the welcome — then the member's bus
// frames flow to the home. `joinHome` is the one-time join the CLI runs.
import * as crypto from 'node:crypto';
import * as path from 'node:path';
import WebSocket from 'ws';
import { CommandrError, ErrorCode } from '../../protocol/wire/errors';
import { FLEET_PATH, HomeFrame, type HomeRecord, HomeRecord as HomeRecordSchema, homeProof, JoinCode, memberProof, type MemberFrame, removedProof } from '../../protocol/wire/fleet';
import type { Cursor } from '../../protocol/wire/views';
import { readJsonFile, writePrivateFile } from '../devices/files';
import { fingerprintOf, loadMachineKey, signWith, verifyWith } from './keys';
import { version } from '../../package.json';

export const homeFile = (dataDir: string) => path.join(dataDir, 'fleet', 'home.json');

export function readHome(dataDir: string): HomeRecord | undefined {
  const parsed = HomeRecordSchema.safeParse(readJsonFile(homeFile(dataDir)));
  return parsed.success ? parsed.data : undefined;
}

export function fleetUrl(homeUrl: string): string {
  const url = new URL(homeUrl);
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new CommandrError('E_BAD_FRAME', `the home URL must be http(s)://…, not ${homeUrl}`);
  // The key proof covers the handshake only: on a plain link anyone on the path could pass it through and then
  // send this member actions (or the home made-up state), so plain http is for loopback (a tunnel) alone (FLEET-1).
  if (url.protocol === 'http:' && !/^(127(\.\d{1,3}){3}|localhost|\[::1\])$/.test(url.hostname)) {
    throw new CommandrError('E_FORBIDDEN', `the home URL ${homeUrl} is plain http off this machine: anyone on the network could act on this machine through the link; use the home's https address (--tls-cert/--tls-key, or --public-origin behind Tailscale or a proxy), or http://127.0.0.1:<port> through an ssh tunnel`);
  }
  url.protocol = url.protocol === 'https:' ? 'wss:' : 'ws:';
  url.pathname = FLEET_PATH;
  url.search = '';
  url.hash = '';
  return url.toString();
}

/**
 * The home this member is joined to proved (signed with its pinned key, over this attempt's nonces) that it no
 * longer knows this machine: trying again cannot succeed, only a new join can (FLEETE-2).
 */
export class MachineRemoved extends CommandrError {
  constructor(readonly homeUrl: string, readonly machine: string) {
    super('E_UNAUTHORIZED', `the home at ${homeUrl} says this machine (${machine}) is an unknown or removed machine: it was removed from the home (or the home's data was reset), so this relay no longer links to it. To join again, run \`commandr machines add\` on the home, then here \`commandr join ${homeUrl} <code>\` with the code it prints`);
    this.name = 'MachineRemoved';
  }
}

export interface Welcomed {
  ws: WebSocket; machine: string; name: string;
  /** The home's cursor per repo of this member (FLEETR-1); absent from a home that does not resume. */
  resume?: Record<string, Cursor>;
}

/**
 * Opens the link and proves both keys: `join` spends a code (and pins the
 * fingerprint it carries), `auth` uses the record of an earlier join.
 */
export function openLink(dataDir: string, homeUrl: string, how: { join: string; name: string } | { auth: HomeRecord }, timeoutMs = 10_000): Promise<Welcomed> {
  const key = loadMachineKey(dataDir);
  let expected: string;
  let secret = '';
  if ('join' in how) {
    if (!JoinCode.safeParse(how.join).success) throw new CommandrError('E_BAD_FRAME', 'a join code looks like <43 characters>.<43 characters>; copy it whole from `commandr machines add`');
    [secret, expected] = how.join.split('.') as [string, string];
  } else expected = how.auth.fingerprint;
  const ws = new WebSocket(fleetUrl(homeUrl), { maxPayload: 4 << 20 });
  const nonce = crypto.randomBytes(32).toString('base64url');
  return new Promise<Welcomed>((resolve, reject) => {
    let homeNonce = '';
    let homeKey = '';
    const fail = (error: CommandrError) => {
      clearTimeout(timer);
      ws.terminate();
      reject(error);
    };
    const timer = setTimeout(() => fail(new CommandrError('E_UNAVAILABLE', `the home at ${homeUrl} did not answer within ${timeoutMs} ms`)), timeoutMs);
    ws.on('error', (error) => fail(new CommandrError('E_UNAVAILABLE', `cannot reach the home at ${homeUrl}: ${error.message}`)));
    ws.on('close', () => fail(new CommandrError('E_UNAVAILABLE', `the home at ${homeUrl} closed the link`)));
    ws.on('message', (data) => {
      let value: unknown;
      try { value = JSON.parse(String(data)); } catch { value = undefined; }
      const parsed = HomeFrame.safeParse(value);
      if (!parsed.success) return fail(new CommandrError('E_BAD_FRAME', 'the home sent something that is not a fleet frame'));
      const frame = parsed.data;
      if (frame.type === 'fleet.error') {
        // Only a refusal the pinned home signed for this very attempt stops the member for good (FLEETE-2).
        if ('auth' in how && frame.removed && homeKey && frame.removed.machine === how.auth.machine
          && verifyWith(homeKey, removedProof(nonce, homeNonce, how.auth.machine), frame.removed.sig)) {
          return fail(new MachineRemoved(homeUrl, how.auth.machine));
        }
        const code = ErrorCode.safeParse(frame.error.code);
        return fail(new CommandrError(code.success ? code.data : 'E_UNAUTHORIZED', frame.error.message));
      }
      if (frame.type === 'fleet.hello') {
        if (fingerprintOf(frame.home.key) !== expected) {
          return fail(new CommandrError('E_UNAUTHORIZED', `the relay at ${homeUrl} is not the home this code was made for (its key fingerprint is ${fingerprintOf(frame.home.key)}, expected ${expected}); nothing was sent`));
        }
        homeNonce = frame.nonce;
        homeKey = frame.home.key;
        const sig = signWith(key, memberProof(homeNonce, nonce, expected));
        const reply: MemberFrame = 'join' in how
          ? { type: 'fleet.join', secret, name: how.name, key: key.publicKey, nonce, sig, version }
          : { type: 'fleet.auth', machine: how.auth.machine, nonce, sig, version };
        ws.send(JSON.stringify(reply));
        return;
      }
      if (frame.type === 'fleet.action') return fail(new CommandrError('E_BAD_FRAME', 'the home sent an action before the link was authenticated'));
      if (!homeKey || !verifyWith(homeKey, homeProof(nonce, homeNonce, frame.machine), frame.sig)) {
        return fail(new CommandrError('E_UNAUTHORIZED', 'the home did not prove its key'));
      }
      clearTimeout(timer);
      ws.removeAllListeners();
      resolve({ ws, machine: frame.machine, name: frame.name, ...(frame.resume ? { resume: frame.resume } : {}) });
    });
  });
}

/** `commandr join <home-url> <code>`: joins once, records the home (pinned fingerprint), closes. */
export async function joinHome(dataDir: string, homeUrl: string, code: string, name: string): Promise<HomeRecord> {
  const link = await openLink(dataDir, homeUrl, { join: code, name });
  const record: HomeRecord = { url: homeUrl, fingerprint: code.split('.')[1]!, machine: link.machine, name: link.name };
  writePrivateFile(homeFile(dataDir), JSON.stringify(record, null, 2) + '\n');
  link.ws.close(1000, 'joined');
  return record;
}
