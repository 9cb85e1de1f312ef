// The macOS sandbox: a generated sandbox-exec (SBPL) profile with the Linux layering (SANDBOX-15).
// SBPL applies the LAST matching rule, so the order below is the order of the bwrap binds: the
// root read-only, the writable paths given back, the data dir hidden after them (a workspace or
// HOME that contains it cannot show it again), what inside it must be seen given back, then the
// read-only paths on top. Checked here by an evaluator of that rule (test/sandbox/macos-profile);
// never run by sandbox-exec on this project's Linux CI: see protocol/spec/sandbox.md.
const quote = (p: string): string => JSON.stringify(p);

export interface ProfileInput {
  dataDir: string;
  writable: string[];
  readOnly: string[];
  hidden: string[];
  /** Files inside the data dir shown read-only (policy.yaml, checks: SANDBOX-14). */
  shown?: string[];
}

/** Written by every process on macOS: the user's temp dirs (real paths) and the terminal devices. */
export const MACOS_SCRATCH = ['/private/tmp', '/private/var/folders'];
const DEVICES = ['/dev/null', '/dev/zero', '/dev/tty', '/dev/dtracehelper', '/dev/random', '/dev/urandom'];

const within = (child: string, parent: string): boolean => child === parent || child.startsWith(parent.endsWith('/') ? parent : `${parent}/`);

export function sandboxExecProfile(input: ProfileInput): string {
  const lines = ['(version 1)', '(allow default)', '(deny file-write*)'];
  lines.push(`(allow file-write* ${DEVICES.map((d) => `(literal ${quote(d)})`).join(' ')} (regex #"^/dev/fd/") (regex #"^/dev/ttys[0-9]+$"))`);
  for (const w of [...MACOS_SCRATCH, ...input.writable]) lines.push(`(allow file-write* (subpath ${quote(w)}))`);
  for (const h of [input.dataDir, ...input.hidden]) lines.push(`(deny file-read* file-write* (subpath ${quote(h)}))`);
  for (const s of input.shown ?? []) if (within(s, input.dataDir)) lines.push(`(allow file-read* (subpath ${quote(s)}))`);
  for (const w of input.writable) if (within(w, input.dataDir)) lines.push(`(allow file-read* file-write* (subpath ${quote(w)}))`);
  for (const r of input.readOnly) lines.push(`(deny file-write* (subpath ${quote(r)}))`);
  // Other processes: no signals or inspection outside the sandbox.
  lines.push('(deny process-info* (target others))', '(deny signal (target others))');
  return lines.join('\n');
}
