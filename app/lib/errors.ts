// Turns any failure into a sentence for a person: wire codes (protocol/wire/errors.ts)
// plus the few client-side codes (offline, timeout) the app itself produces.
//
// API:
//   type ClientErrorCode = ErrorCode | 'E_OFFLINE' | 'E_TIMEOUT' | 'E_NOT_PAIRED'
//   interface ClientError { code: ClientErrorCode; message: string }
//   clientError(code, message)           → ClientError (a plain object, safe to store)
//   toClientError(unknown)               → ClientError (from an error frame, a thrown Error, anything)
//   sentence(errorOrCode)                → string: what happened and what to do
//   isDefinitive(error)                  → true when the relay answered (retrying the same id cannot change it)
// Types only from the protocol: this module is on every screen, Pair included, and the
// protocol's error module builds zod schemas the Pair screen must not download (LAZY-1).
import type { ErrorCode, WireError } from '../../protocol/wire/errors';

export type ClientErrorCode = ErrorCode | 'E_OFFLINE' | 'E_TIMEOUT' | 'E_NOT_PAIRED';
export interface ClientError {
  code: ClientErrorCode;
  message: string;
}

const SENTENCES: Record<ClientErrorCode, string> = {
  E_BAD_FRAME: 'The relay did not understand that request. Reload the app; if it keeps happening, update the relay and the app together.',
  E_TOO_LARGE: 'That was too large to send. Shorten it and try again.',
  E_UNAUTHORIZED: 'This device is not paired with the relay (or was revoked). Pair it again with a new code from `commandr pair`.',
  E_FORBIDDEN_ORIGIN: 'The relay refused this page’s address. Open the app from the relay’s own address.',
  E_FORBIDDEN: 'Only an owner device may do that. Mark this device as an owner with `commandr devices owner <id>` on the relay’s machine.',
  E_REPLAY: 'This device’s clock is too far from the relay’s. Set the time automatically and try again.',
  E_RATE_LIMITED: 'Too many attempts. Wait a minute and try again.',
  E_PAIRING_CODE: 'That pairing code is unknown, expired or already used. Run `commandr pair` for a new one.',
  E_BAD_ID: 'That id is not valid. Go back to the inbox and open the item again.',
  E_BAD_PATH: 'That path is not allowed. Choose a path inside the allowed folders.',
  E_UNKNOWN_REPO: 'The relay no longer watches that repository. Go back to the inbox.',
  E_UNKNOWN_TASK: 'That task no longer exists. Go back to the inbox.',
  E_NOT_FOUND: 'That item no longer exists. Go back and refresh the list.',
  E_STALE_DIGEST: 'The change was updated after you looked at it. Review the new diff and approve again.',
  E_NO_DIFF: 'There is nothing to review for this task yet.',
  E_CONFLICT: 'That cannot be done in the current state. Check the latest state and try something else.',
  E_EXPIRED: 'This request timed out before you answered. The agent will ask again if it still needs to.',
  E_UNAVAILABLE: 'This feature is not set up on this relay.',
  E_NOT_READY: 'The agent is not ready on that machine. Run `commandr doctor` there to see what is missing.',
  E_INTERNAL: 'The relay hit an unexpected problem. Try again; if it keeps happening, check the relay’s log.',
  E_OFFLINE: 'You are offline. Actions are queued and sent when the connection is back.',
  E_TIMEOUT: 'The relay did not answer in time. Check the connection and try again.',
  E_NOT_PAIRED: 'This device is not paired yet. Open the pairing link from `commandr pair`.',
};

// SENTENCES names every code exactly once (its type is a Record over ClientErrorCode).
const CLIENT_CODES = new Set<string>(Object.keys(SENTENCES));

export function isClientErrorCode(code: unknown): code is ClientErrorCode {
  return typeof code === 'string' && CLIENT_CODES.has(code);
}

export function clientError(code: ClientErrorCode, message: string = SENTENCES[code]): ClientError {
  return { code, message };
}

/** Normalises an error frame's `error`, a thrown value or anything else into a ClientError. */
export function toClientError(value: unknown): ClientError {
  if (value && typeof value === 'object') {
    const v = value as { code?: unknown; message?: unknown; error?: unknown };
    if (v.error && typeof v.error === 'object') return toClientError(v.error);
    if (isClientErrorCode(v.code)) return clientError(v.code, typeof v.message === 'string' ? v.message : SENTENCES[v.code]);
  }
  return clientError('E_INTERNAL', value instanceof Error ? value.message : String(value));
}

/** A sentence for a person: what happened and what to do. Never a stack. */
export function sentence(error: ClientError | WireError | ClientErrorCode | unknown): string {
  if (typeof error === 'string' && isClientErrorCode(error)) return SENTENCES[error];
  const e = toClientError(error);
  // A conflict has many causes (already decided, still in the inbox, a job running…): the
  // relay's own words say which, so "someone already decided" is said only when true (UX-9).
  // Likewise "unavailable": a machine of the fleet being offline is not "not set up" (FLEETUI-2).
  // Not ready: the relay's sentence already says what is missing and what to do (RUNREADY-2).
  if (e.code === 'E_NOT_READY' && /^[A-Z]/.test(e.message) && e.message !== SENTENCES[e.code]) return oneLine(e.message) + '.';
  // "Offline" in general means an action waits in the outbox; what never enters it (pairing, a
  // recording to transcribe) says in its own sentence that nothing was queued (QUEUE-1).
  if (e.code === 'E_OFFLINE' && /^[A-Z]/.test(e.message) && e.message !== SENTENCES[e.code]) return oneLine(e.message) + '.';
  if ((e.code === 'E_CONFLICT' || e.code === 'E_UNAVAILABLE') && e.message && e.message !== SENTENCES[e.code]) {
    // "not merged: …" already says it was not done: capitalised, not "Not done: not merged: …" (QUEUE-4).
    const words = oneLine(e.message);
    return /^not\b/i.test(words) ? `N${words.slice(1)}.` : `Not done: ${words}.`;
  }
  return SENTENCES[e.code];
}

function oneLine(message: string): string {
  return message.replace(/\s+/g, ' ').trim().replace(/[.;:]+$/, '').slice(0, 300);
}

/** True when the relay itself answered with this error: retrying the same action id returns it again. */
export function isDefinitive(error: ClientError): boolean {
  return error.code !== 'E_OFFLINE' && error.code !== 'E_TIMEOUT' && error.code !== 'E_NOT_PAIRED';
}
