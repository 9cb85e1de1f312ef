// The approval a commit carries (VERIFY-1): one `Commandr-Approval: <json>` trailer
// holding the signed approval, so the record travels with the commit to any remote.
export const TRAILER_KEY = 'Commandr-Approval';

/** The trailer line for a signed approval (one line: JSON never holds a raw newline). */
export function trailerLine(approval: object): string {
  return `${TRAILER_KEY}: ${JSON.stringify(approval)}`;
}

/** The value of the last `Commandr-Approval:` line of a commit message, parsed; undefined when absent, null when not JSON. */
export function approvalOfMessage(message: string): unknown {
  const prefix = `${TRAILER_KEY}: `;
  const lines = message.split('\n').filter((l) => l.startsWith(prefix));
  const last = lines[lines.length - 1];
  if (last === undefined) return undefined;
  try {
    return JSON.parse(last.slice(prefix.length)) as unknown;
  } catch {
    return null;
  }
}

/** Appends the trailer to a message (replacing an earlier one), as its own trailer paragraph when needed. */
export function withTrailer(message: string, approval: object): string {
  const prefix = `${TRAILER_KEY}: `;
  const kept = message.replace(/\s+$/, '').split('\n').filter((l) => !l.startsWith(prefix));
  const body = kept.join('\n').replace(/\s+$/, '');
  const lastLine = kept[kept.length - 1] ?? '';
  const inTrailerBlock = /^[A-Za-z0-9-]+: /.test(lastLine) && kept.length > 1 && body.includes('\n\n');
  return `${body}${body.length === 0 ? '' : inTrailerBlock ? '\n' : '\n\n'}${trailerLine(approval)}\n`;
}
