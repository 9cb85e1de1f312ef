// What a device signs (AUTH-n). Both sides build the bytes with these
// functions, so the relay, the app and the service worker can never disagree.

/** Socket authentication: the device signs the relay's one-time nonce. */
export function authMessage(nonce: string): string {
  return `commandr-auth:v1:${nonce}`;
}

/** JSON with object keys sorted at every depth: a stable byte form to sign. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** An action frame is signed over its canonical JSON without `sig`, bound to the device. */
export function actionMessage(device: string, frame: Record<string, unknown>): string {
  const { sig: _sig, ...rest } = frame;
  return `commandr-action:v1:${device}:${canonicalJson(rest)}`;
}

/** HTTP uploads (audio for transcription) are signed over method, path, ts and the body's sha256. */
export function requestMessage(device: string, method: string, path: string, ts: number, bodySha256Hex: string): string {
  return `commandr-request:v1:${device}:${method.toUpperCase()}:${path}:${ts}:${bodySha256Hex}`;
}
