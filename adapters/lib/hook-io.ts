// How every hook process starts and ends (HOOK-n): read a bounded JSON payload from
// stdin, run, swallow every error, exit 0. A hook can never fail or block its agent.
import * as fs from 'node:fs';

export const MAX_PAYLOAD_BYTES = 4 * 1024 * 1024;

/** What `readPayloadChecked` answers for stdin over MAX_PAYLOAD_BYTES (it is not read further). */
export const TOO_LARGE = 'too-large' as const;

/** The parsed stdin object, or undefined when stdin is empty, too big, or not a JSON object. */
export function readPayload(fd = 0): Record<string, unknown> | undefined {
  const payload = readPayloadChecked(fd);
  return payload === TOO_LARGE ? undefined : payload;
}

/** As `readPayload`, but says when stdin was too big to read (a permission step must not take that as "nothing to decide"). */
export function readPayloadChecked(fd = 0): Record<string, unknown> | undefined | typeof TOO_LARGE {
  try {
    const chunks: Buffer[] = [];
    let size = 0;
    const buffer = Buffer.alloc(64 * 1024);
    for (;;) {
      let n: number;
      try {
        n = fs.readSync(fd, buffer, 0, buffer.length, null);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'EAGAIN') continue;
        if ((error as NodeJS.ErrnoException).code === 'EOF') break;
        throw error;
      }
      if (n === 0) break;
      size += n;
      if (size > MAX_PAYLOAD_BYTES) return TOO_LARGE;
      chunks.push(Buffer.from(buffer.subarray(0, n)));
    }
    const value: unknown = JSON.parse(Buffer.concat(chunks).toString('utf8'));
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/**
 * Runs a hook body; whatever happens, the process ends with exit code 0. `tooLarge` runs
 * instead of the body when stdin is over MAX_PAYLOAD_BYTES (the permission hook answers then).
 */
export function runHook(body: (payload: Record<string, unknown>) => Promise<void> | void, tooLarge?: () => void): void {
  const finish = (error?: unknown) => {
    if (error !== undefined && process.env.COMMANDR_HOOK_DEBUG) {
      try { process.stderr.write(`commandr hook: ${error instanceof Error ? error.stack : String(error)}\n`); } catch { /* ignore */ }
    }
    process.exitCode = 0;
  };
  let payload: Record<string, unknown> | undefined | typeof TOO_LARGE;
  try {
    payload = readPayloadChecked();
    if (payload === TOO_LARGE) tooLarge?.();
  } catch (error) {
    finish(error);
    return;
  }
  if (payload === undefined || payload === TOO_LARGE) return finish();
  Promise.resolve()
    .then(() => body(payload))
    .then(() => finish(), finish);
}

export const stringField = (payload: Record<string, unknown>, key: string): string | undefined => {
  const value = payload[key];
  return typeof value === 'string' && value.length > 0 ? value : undefined;
};

export const objectField = (payload: Record<string, unknown>, key: string): Record<string, unknown> => {
  const value = payload[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : {};
};
