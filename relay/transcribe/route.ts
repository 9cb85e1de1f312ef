// `POST /api/transcribe` and `GET /api/transcribe/status` (VOICE-4..6): a
// paired device uploads recorded audio, signed like an action; the relay runs
// the configured transcriber on a private temp file and answers the text.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs/promises';
import * as path from 'node:path';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { CommandrError } from '../../protocol/wire/errors';
import { ACTION_WINDOW_MS } from '../../protocol/wire/frames';
import { DEVICE_HEADER, SIG_HEADER, TS_HEADER } from '../../protocol/wire/http';
import { requestMessage } from '../../protocol/wire/signing';
import { readBody, sendJson } from '../http/respond';
import { commandArgv, TRANSCRIBE_TIMEOUT_MS, Transcribers } from './run';

export const TRANSCRIBE_PATH = '/api/transcribe';
export const TRANSCRIBE_STATUS_PATH = '/api/transcribe/status';
/** Ten minutes of opus is ~5 MiB; more is not a dictated note. */
export const MAX_AUDIO_BYTES = 10 * 1024 * 1024;

export interface TranscribeOptions {
  dataDir: string;
  /** Verification key of a paired device; undefined for unknown or revoked ones. */
  publicKey(deviceId: string): crypto.KeyObject | undefined;
  /** The command line; default `$COMMANDR_TRANSCRIBE_CMD`. */
  command?: string;
  timeoutMs?: number;
  /** The relay's running transcribers (its close ends them). */
  transcribers: Transcribers;
}

/** The relay's options for the routes: its data dir and device store; the command from the environment. */
export function transcribeOptions(services: { dataDir: string; devices: { publicKey(id: string): crypto.KeyObject | undefined }; transcribers?: Transcribers }): TranscribeOptions {
  return { dataDir: services.dataDir, publicKey: (id) => services.devices.publicKey(id), transcribers: services.transcribers ?? new Transcribers() };
}

function argvOf(options: TranscribeOptions): string[] {
  return commandArgv(options.command ?? process.env.COMMANDR_TRANSCRIBE_CMD);
}

/** `GET /api/transcribe/status` → `{available}` (VOICE-6). */
export function getTranscribeStatus(options: TranscribeOptions, res: ServerResponse): void {
  sendJson(res, 200, { available: argvOf(options).length > 0 });
}

/** `POST /api/transcribe` → `{text}`; failures throw CommandrError for the relay's one error answer. */
export async function postTranscribe(options: TranscribeOptions, req: IncomingMessage, res: ServerResponse): Promise<void> {
  try {
    const text = await transcribe(req, argvOf(options), options);
    sendJson(res, 200, { text });
  } catch (error) {
    // Drain what the client is still sending so it reads our answer.
    req.resume();
    throw error;
  }
}

async function transcribe(req: IncomingMessage, argv: string[], options: TranscribeOptions): Promise<string> {
  if (argv.length === 0) throw new CommandrError('E_UNAVAILABLE', 'no transcriber is configured on the relay (COMMANDR_TRANSCRIBE_CMD)');
  const { device, ts, sig } = signedHeaders(req);
  const contentType = audioType(req.headers['content-type']);
  // Unknown devices are refused before their body is read.
  const key = options.publicKey(device);
  if (!key) throw new CommandrError('E_UNAUTHORIZED', 'this device is not paired with the relay (or was revoked)');
  const body = await readBody(req, MAX_AUDIO_BYTES).catch((error: unknown) => {
    throw error instanceof CommandrError && error.code === 'E_TOO_LARGE'
      ? new CommandrError('E_TOO_LARGE', 'audio is larger than 10 MiB; record a shorter note')
      : error;
  });
  verify(key, device, ts, sig, body);
  const dir = path.join(options.dataDir, 'transcribe');
  await fs.mkdir(dir, { recursive: true, mode: 0o700 });
  const file = path.join(dir, `${crypto.randomBytes(9).toString('hex')}.${EXTENSIONS[contentType] ?? 'audio'}`);
  await fs.writeFile(file, body, { mode: 0o600, flag: 'wx' });
  try {
    return await options.transcribers.run(argv, file, options.timeoutMs ?? TRANSCRIBE_TIMEOUT_MS);
  } finally {
    await fs.rm(file, { force: true });
  }
}

function signedHeaders(req: IncomingMessage): { device: string; ts: number; sig: string } {
  const device = header(req, DEVICE_HEADER);
  const tsText = header(req, TS_HEADER);
  const sig = header(req, SIG_HEADER);
  if (!device || !tsText || !sig) {
    throw new CommandrError('E_UNAUTHORIZED', `a signed upload needs the ${DEVICE_HEADER}, ${TS_HEADER} and ${SIG_HEADER} headers`);
  }
  const ts = Number(tsText);
  if (!Number.isInteger(ts)) throw new CommandrError('E_BAD_FRAME', `${TS_HEADER} must be a time in milliseconds`);
  return { device, ts, sig };
}

function verify(key: crypto.KeyObject, device: string, ts: number, sig: string, body: Buffer): void {
  const digest = crypto.createHash('sha256').update(body).digest('hex');
  const message = Buffer.from(requestMessage(device, 'POST', TRANSCRIBE_PATH, ts, digest));
  const ok = crypto.verify('sha256', message, { key, dsaEncoding: 'ieee-p1363' }, Buffer.from(sig, 'base64url'));
  if (!ok) throw new CommandrError('E_UNAUTHORIZED', 'the upload signature does not match this device');
  if (Math.abs(Date.now() - ts) > ACTION_WINDOW_MS) {
    throw new CommandrError('E_REPLAY', 'the upload was signed more than 30 s away from the relay clock; check the phone clock and retry');
  }
}

const EXTENSIONS: Record<string, string> = {
  'audio/webm': 'webm', 'audio/ogg': 'ogg', 'audio/wav': 'wav', 'audio/x-wav': 'wav', 'audio/wave': 'wav',
  'audio/mp4': 'm4a', 'audio/mpeg': 'mp3', 'audio/aac': 'aac', 'audio/flac': 'flac',
};

/** The media type without parameters; only audio is accepted. */
function audioType(raw: string | undefined): string {
  const type = (raw ?? '').split(';')[0].trim().toLowerCase();
  if (!type.startsWith('audio/')) throw new CommandrError('E_BAD_FRAME', `the body must be audio (Content-Type audio/…), not "${type || 'missing'}"`);
  return type;
}

function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
