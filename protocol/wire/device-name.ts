// A device's name (DEVNAME-1): shown in `commandr devices list`, on every phone's
// Settings and as the author of approvals and notes, so it must be one visible line.
// Control characters (C0, DEL, C1), line/paragraph separators and bidi overrides or
// isolates could clear a terminal, forge a second line or reorder what is shown.
import * as z from 'zod/mini';

/** Characters a device name may not hold: C0, DEL, C1, U+2028/2029, U+202A–202E, U+2066–2069. */
export const UNSAFE_NAME_CHAR = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/;
export const DEVICE_NAME_MAX = 80;
export const DEVICE_NAME_RULE = `must be 1–${DEVICE_NAME_MAX} characters on one line, without control, line-separator or bidi-control characters`;

/** True when `name`, trimmed, is a name the relay stores. */
export function isDeviceName(name: string): boolean {
  const trimmed = name.trim();
  return trimmed.length >= 1 && trimmed.length <= DEVICE_NAME_MAX && !UNSAFE_NAME_CHAR.test(trimmed);
}

/** A device name on the wire; the relay stores it trimmed. */
export const DeviceName = z.string().check(z.maxLength(1024), z.refine(isDeviceName, DEVICE_NAME_RULE));

/**
 * `text` with every character UNSAFE_NAME_CHAR matches written as a visible `\uXXXX`, for a
 * terminal: a name stored before DEVNAME-1 can neither drive the terminal nor fake a line.
 */
export function escapeControls(text: string): string {
  return text.replace(new RegExp(UNSAFE_NAME_CHAR.source, 'g'), (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/**
 * JSON text with the characters JSON.stringify leaves raw (DEL, C1, separators, bidi
 * controls) written as `\uXXXX`: still the same JSON, but safe to print to a terminal.
 */
export function escapeJsonControls(json: string): string {
  return json.replace(/[\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
