// The one error type the bus library throws: a stable `E_*` code plus a sentence
// naming what is wrong. Only entry points (cli/, the relay) print these.

export type BusErrorCode =
  | 'E_NO_REPO'
  | 'E_NO_BUS'
  | 'E_BUS_MISSING_DIR'
  | 'E_BAD_ID'
  | 'E_BAD_PATH'
  | 'E_BAD_NOTE'
  | 'E_BAD_PACKET'
  | 'E_BAD_EVENT'
  | 'E_BAD_ARGS'
  | 'E_BAD_TOKEN'
  | 'E_BAD_DIGEST'
  | 'E_NOT_FOUND'
  | 'E_NOT_CLAIMED'
  | 'E_EXISTS'
  | 'E_SHORT_WRITE'
  | 'E_SEQ_EXHAUSTED'
  | 'E_HOOK_EXISTS'
  | 'E_INDEX_IN_BUS'
  | 'E_IO'
  | 'E_GIT'
  | 'E_LEASE_LOST'
  | 'E_NOT_HELD';

export class BusError extends Error {
  readonly code: BusErrorCode;
  constructor(code: BusErrorCode, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'BusError';
    this.code = code;
  }
}

/** The errno code of a Node system error, or undefined. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/** Wraps a file-system failure into an E_IO that names the path and the reason. */
export function ioError(what: string, path: string, error: unknown): BusError {
  const reason = errnoOf(error) ?? (error instanceof Error ? error.message : String(error));
  return new BusError('E_IO', `cannot ${what} ${path}: ${reason}`, { cause: error });
}
