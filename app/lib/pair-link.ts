// The pairing code in the link `commandr pair` shows (`/pair#code=…`). Apart from
// lib/pairing so the Pair screen reads it without downloading the pairing request's
// schemas before the person presses Pair (LAZY-1).
//
//   codeFromHash(hash)      → the code in '#code=…' or null
//   pairingCodeFrom(typed)  → the code in what was typed or pasted: the code itself, or the whole
//                             link (its #code= or ?code=); whitespace anywhere is dropped
//   isPairingCode(code)     → true for 43 base64url characters (32 bytes, PAIR-1)
export function codeFromHash(hash: string): string | null {
  const params = new URLSearchParams(hash.replace(/^#/, ''));
  const code = params.get('code')?.trim();
  return code ? code : null;
}

export function pairingCodeFrom(typed: string): string {
  const text = typed.replace(/\s+/g, '');
  const inLink = /[#?&]code=([^&#]*)/.exec(text)?.[1];
  if (inLink === undefined) return text;
  try {
    return decodeURIComponent(inLink);
  } catch {
    return inLink;
  }
}

export function isPairingCode(code: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(code);
}

/** What the Pair screen says, without asking the relay, about something that is not a code. */
export const NOT_A_CODE = 'That is not a pairing code: it is the 43 characters after code= in the link `commandr pair` prints. Paste the whole link or just those characters.';

/**
 * What the Pair screen says when the relay cannot be reached — for the pairing request itself, or for
 * the code that sends it, which is loaded from the relay only when Pair is pressed (LAZY-1). Pairing is
 * never queued: nothing was sent and the code is still good (QUEUE-1).
 */
export const PAIR_UNREACHABLE = 'Could not reach the relay, so this device is not paired. Check that the relay is running and that this phone can reach it, then press Pair again.';
