// The macOS sandbox: a generated sandbox-exec (SBPL) profile. NOT TESTED here (Linux CI): kept
// small so it can be reviewed by eye. SBPL: the last matching rule wins, so allow-default comes
// first, then the denials, then the paths given back.
const quote = (p: string): string => JSON.stringify(p);

export interface ProfileInput {
  dataDir: string;
  writable: string[];
  readOnly: string[];
  hidden: string[];
}

export function sandboxExecProfile(input: ProfileInput): string {
  const lines = ['(version 1)', '(allow default)'];
  for (const p of [input.dataDir, ...input.hidden]) lines.push(`(deny file-read* file-write* (subpath ${quote(p)}))`);
  for (const w of input.writable) lines.push(`(allow file-read* file-write* (subpath ${quote(w)}))`);
  for (const r of input.readOnly) lines.push(`(deny file-write* (subpath ${quote(r)}))`);
  // Other processes: no signals or inspection outside the sandbox.
  lines.push('(deny process-info* (target others))', '(deny signal (target others))');
  return lines.join('\n');
}
