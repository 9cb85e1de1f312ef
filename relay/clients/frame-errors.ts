// Turns a rejected client frame into one clear error (WIRE-2, WIRE-3): which
// field is wrong and why; a malformed id is E_BAD_ID, anything else E_BAD_FRAME.
import type * as z from 'zod/mini';
import { CommandrError } from '../../protocol/wire/errors';

const ID_FIELDS = new Set(['id', 'repo', 'task', 'commander', 'device', 'request', 'machine']);

type Issue = z.core.$ZodIssue;

export function frameError(value: unknown, issues: readonly Issue[]): CommandrError {
  const first = issues[0];
  if (!value || typeof value !== 'object' || Array.isArray(value)) return new CommandrError('E_BAD_FRAME', 'a frame must be a JSON object');
  if (first?.code === 'invalid_union' && first.path.join('.') === 'type') {
    const type = (value as { type?: unknown }).type;
    return new CommandrError('E_BAD_FRAME', typeof type === 'string' ? `unknown frame type ${JSON.stringify(type.slice(0, 64))}` : 'frame has no type');
  }
  const message = issues.slice(0, 3).map((i) => `${i.path.join('.') || '(frame)'}: ${i.message}`).join('; ');
  const badId = first?.code === 'invalid_format' && ID_FIELDS.has(String(first.path[0]));
  return new CommandrError(badId ? 'E_BAD_ID' : 'E_BAD_FRAME', message);
}

/** The id to put on an error frame: the frame's own id when it is a plausible one. */
export function echoId(value: unknown): string | undefined {
  const id = value && typeof value === 'object' ? (value as { id?: unknown }).id : undefined;
  return typeof id === 'string' && /^[A-Za-z0-9_-]{1,64}$/.test(id) ? id : undefined;
}
