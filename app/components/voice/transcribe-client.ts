// The app side of `POST /api/transcribe` (VOICE-2, -4): the audio is signed
// with the device key over requestMessage(device, method, path, ts, sha256(body)).
// The wire's schemas and the client core are loaded when a recording is sent, not with
// every screen that offers voice input (LAZY-1).
import { clientError, toClientError, type ClientError } from '../../lib/errors';

export const TRANSCRIBE_PATH = '/api/transcribe';

/** Whether the relay has a transcriber; false when it cannot be asked. */
export async function transcriberAvailable(): Promise<boolean> {
  try {
    const res = await fetch(`${TRANSCRIBE_PATH}/status`, { cache: 'no-store' });
    if (!res.ok) return false;
    const body = (await res.json()) as { available?: unknown };
    return body.available === true;
  } catch {
    return false;
  }
}

function hex(buffer: ArrayBuffer): string {
  return Array.from(new Uint8Array(buffer), (b) => b.toString(16).padStart(2, '0')).join('');
}

/** Uploads `audio` and resolves with the text; rejects with a ClientError. */
export async function transcribe(audio: Blob): Promise<string> {
  const [{ DEVICE_HEADER, SIG_HEADER, TS_HEADER, TranscribeResponse }, { requestMessage }, { getClient }, { signText }] = await Promise.all([
    import('../../../protocol/wire/http'), import('../../../protocol/wire/signing'), import('../../lib/client'), import('../../lib/sign'),
  ]);
  const signer = await getClient()?.signer();
  if (!signer) throw clientError('E_NOT_PAIRED');
  const bytes = await audio.arrayBuffer();
  const ts = Date.now();
  const digest = hex(await crypto.subtle.digest('SHA-256', bytes));
  const sig = await signText(signer.privateKey, requestMessage(signer.deviceId, 'POST', TRANSCRIBE_PATH, ts, digest));
  let res: Response;
  try {
    res = await fetch(TRANSCRIBE_PATH, {
      method: 'POST',
      headers: { 'content-type': audio.type || 'audio/webm', [DEVICE_HEADER]: signer.deviceId, [TS_HEADER]: String(ts), [SIG_HEADER]: sig },
      body: bytes,
    });
  } catch {
    throw clientError('E_OFFLINE', 'The recording could not be sent: the relay is not reachable. Try again when you are back online.');
  }
  const body: unknown = await res.json().catch(() => null);
  if (!res.ok) throw toClientError(body);
  const parsed = TranscribeResponse.safeParse(body);
  if (!parsed.success) throw clientError('E_INTERNAL', 'The relay answered the recording with something that is not text.');
  return parsed.data.text;
}

export type { ClientError };
