// Stable error codes carried as {code, message} in `error` frames and HTTP
// error bodies (WIRE-ERR-n). The app maps each to a sentence for a person.
import * as z from 'zod/mini';

export const ERROR_CODES = [
  'E_BAD_FRAME', //        not JSON, not a known frame, or fields invalid
  'E_TOO_LARGE', //        frame or body over the limit
  'E_UNAUTHORIZED', //     no / wrong credential, bad signature, unknown or revoked device
  'E_FORBIDDEN_ORIGIN', // WebSocket Origin is not the relay's own
  'E_FORBIDDEN', //        this device may not do that (revoking or renaming another device without being an owner)
  'E_REPLAY', //           reused challenge, action timestamp outside ±30 s
  'E_RATE_LIMITED', //     too many attempts (pairing)
  'E_PAIRING_CODE', //     pairing code unknown, expired or already used
  'E_BAD_ID', //           an id outside the safe pattern
  'E_BAD_PATH', //         a path with .., absolute, or escaping its root
  'E_UNKNOWN_REPO',
  'E_UNKNOWN_TASK',
  'E_NOT_FOUND', //        commander, device, request… not found
  'E_STALE_DIGEST', //     approving/denying a digest that is no longer the current one
  'E_NO_DIFF', //          nothing to review for this task
  'E_CONFLICT', //         already decided / already exists
  'E_EXPIRED', //          a permission request that timed out
  'E_UNAVAILABLE', //      a feature not configured here (no transcriber, no push keys)
  'E_NOT_READY', //        the agent CLI (or the council's key) is not ready on that machine; the message says what to do (RUNREADY-n)
  'E_INTERNAL', //         unexpected failure; logged once by the relay
] as const;
export const ErrorCode = z.enum(ERROR_CODES);
export type ErrorCode = z.infer<typeof ErrorCode>;

export const WireError = z.object({ code: ErrorCode, message: z.string() });
export type WireError = z.infer<typeof WireError>;

/** An error a module throws; the relay's edge turns it into an `error` frame. */
export class CommandrError extends Error {
  constructor(
    readonly code: ErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'CommandrError';
  }
}
