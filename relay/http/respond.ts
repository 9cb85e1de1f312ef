// Answers for the relay's HTTP endpoints (HTTP-n): JSON bodies, error frames with
// a status that fits the code, and bounded body reads.
import type * as http from 'node:http';
import { CommandrError, type ErrorCode } from '../../protocol/wire/errors';
import { MAX_FRAME_BYTES } from '../../protocol/wire/frames';

const STATUS: Partial<Record<ErrorCode, number>> = {
  E_BAD_FRAME: 400, E_BAD_ID: 400, E_BAD_PATH: 400, E_PAIRING_CODE: 403,
  E_UNAUTHORIZED: 401, E_FORBIDDEN_ORIGIN: 403, E_FORBIDDEN: 403, E_REPLAY: 409, E_TOO_LARGE: 413, E_RATE_LIMITED: 429,
  E_UNKNOWN_REPO: 404, E_UNKNOWN_TASK: 404, E_NOT_FOUND: 404, E_NO_DIFF: 404,
  E_STALE_DIGEST: 409, E_CONFLICT: 409, E_EXPIRED: 410, E_UNAVAILABLE: 503, E_NOT_READY: 503, E_INTERNAL: 500,
};

export function statusFor(code: ErrorCode): number {
  return STATUS[code] ?? 400;
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** An `error` frame as the body, with the status its code maps to. */
export function sendError(res: http.ServerResponse, error: CommandrError, id?: string): void {
  sendJson(res, statusFor(error.code), { type: 'error', ...(id ? { id } : {}), error: { code: error.code, message: error.message } });
}

/** Reads the whole body, refusing more than `limit` bytes (E_TOO_LARGE) without buffering it. */
export function readBody(req: http.IncomingMessage, limit = MAX_FRAME_BYTES): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers['content-length']);
    if (Number.isFinite(declared) && declared > limit) {
      req.resume();
      reject(new CommandrError('E_TOO_LARGE', `body is over ${limit} bytes`));
      return;
    }
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.removeAllListeners('data');
        req.resume();
        reject(new CommandrError('E_TOO_LARGE', `body is over ${limit} bytes`));
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });
}

/** Parses a JSON body; junk becomes E_BAD_FRAME. */
export async function readJson(req: http.IncomingMessage, limit?: number): Promise<unknown> {
  const body = await readBody(req, limit);
  try {
    return JSON.parse(body.toString('utf8'));
  } catch {
    throw new CommandrError('E_BAD_FRAME', 'body is not JSON');
  }
}

type Parsed<T> = { success: true; data: T } | { success: false; error: { issues: readonly { path: readonly PropertyKey[]; message: string }[] } };

/** A JSON body checked by `schema`; what fails is E_BAD_FRAME naming `what`, the field and why. */
export async function readJsonAs<T>(req: http.IncomingMessage, schema: { safeParse(value: unknown): Parsed<T> }, what: string, limit?: number): Promise<T> {
  const parsed = schema.safeParse(await readJson(req, limit));
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  throw new CommandrError('E_BAD_FRAME', `${what}: ${issue?.path.join('.') || '(body)'}: ${issue?.message ?? 'invalid'}`);
}

/** Bearer token from the Authorization header, or undefined. */
export function bearerToken(req: http.IncomingMessage): string | undefined {
  const header = req.headers.authorization;
  const match = typeof header === 'string' ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return match?.[1];
}
