// Git unified-diff parser for the review screen (DIFFVIEW-1..3). Hand-written
// rather than jsdiff's parsePatch: that one throws on a hunk whose counts do not
// match (a budget-trimmed patch) and drops `similarity index` and `GIT binary patch`.

export type LineKind = 'context' | 'add' | 'del';

export interface DiffLine {
  kind: LineKind;
  text: string;
  oldNo: number | null;
  newNo: number | null;
  /** Followed by `\ No newline at end of file`. */
  noNewline: boolean;
}

export interface Hunk {
  header: string;
  oldStart: number;
  newStart: number;
  lines: DiffLine[];
}

export type ParsedStatus = 'added' | 'deleted' | 'modified' | 'renamed' | 'copied';

export interface DiffFile {
  /** Path after the change (the old path for a deleted file). */
  path: string;
  /** Path before a rename or copy, else null. */
  oldPath: string | null;
  status: ParsedStatus;
  /** `similarity index` of a rename/copy, in percent. */
  similarity: number | null;
  oldMode: string | null;
  newMode: string | null;
  binary: boolean;
  hunks: Hunk[];
  additions: number;
  deletions: number;
}

const HUNK_RE = /^@@ -(\d+)(?:,\d+)? \+(\d+)(?:,\d+)? @@/;

/** Parses a whole patch. Unknown lines between files are ignored; never throws. */
export function parseDiff(patch: string): DiffFile[] {
  const files: DiffFile[] = [];
  let file: DiffFile | null = null;
  let hunk: Hunk | null = null;
  let oldNo = 0;
  let newNo = 0;
  for (const line of patch.split('\n')) {
    if (line.startsWith('diff --git ')) {
      file = newFile(line.slice('diff --git '.length));
      files.push(file);
      hunk = null;
      continue;
    }
    if (!file) continue;
    const h = HUNK_RE.exec(line);
    if (h) {
      oldNo = Number(h[1]);
      newNo = Number(h[2]);
      hunk = { header: line, oldStart: oldNo, newStart: newNo, lines: [] };
      file.hunks.push(hunk);
      continue;
    }
    if (hunk) {
      const consumed = hunkLine(file, hunk, line, oldNo, newNo);
      if (consumed) {
        if (consumed !== 'add') oldNo++;
        if (consumed !== 'del') newNo++;
        continue;
      }
      if (line.startsWith('\\')) {
        const last = hunk.lines[hunk.lines.length - 1];
        if (last) last.noNewline = true;
        continue;
      }
    }
    extendedHeader(file, line);
  }
  return files;
}

function newFile(rest: string): DiffFile {
  const [oldPath, newPath] = splitGitHeader(rest);
  return {
    path: newPath, oldPath: oldPath === newPath ? null : oldPath, status: 'modified', similarity: null,
    oldMode: null, newMode: null, binary: false, hunks: [], additions: 0, deletions: 0,
  };
}

/** Adds one body line to the hunk; returns its kind, or null if it is not a body line. */
function hunkLine(file: DiffFile, hunk: Hunk, line: string, oldNo: number, newNo: number): LineKind | null {
  const mark = line[0];
  const kind: LineKind | null = mark === '+' ? 'add' : mark === '-' ? 'del' : mark === ' ' || line === '' ? 'context' : null;
  if (!kind) return null;
  if (line === '' && kind === 'context') {
    // A trailing empty string from split('\n') is not a line of the hunk.
    return null;
  }
  hunk.lines.push({
    kind, text: line.slice(1), noNewline: false,
    oldNo: kind === 'add' ? null : oldNo,
    newNo: kind === 'del' ? null : newNo,
  });
  if (kind === 'add') file.additions++;
  if (kind === 'del') file.deletions++;
  return kind;
}

function extendedHeader(file: DiffFile, line: string): void {
  let m: RegExpExecArray | null;
  if ((m = /^rename from (.*)$/.exec(line))) { file.oldPath = unquote(m[1]); file.status = 'renamed'; }
  else if ((m = /^rename to (.*)$/.exec(line))) { file.path = unquote(m[1]); file.status = 'renamed'; }
  else if ((m = /^copy from (.*)$/.exec(line))) { file.oldPath = unquote(m[1]); file.status = 'copied'; }
  else if ((m = /^copy to (.*)$/.exec(line))) { file.path = unquote(m[1]); file.status = 'copied'; }
  else if ((m = /^(?:similarity|dissimilarity) index (\d+)%$/.exec(line))) file.similarity = Number(m[1]);
  else if ((m = /^new file mode (\d+)$/.exec(line))) { file.status = 'added'; file.newMode = m[1]; }
  else if ((m = /^deleted file mode (\d+)$/.exec(line))) { file.status = 'deleted'; file.oldMode = m[1]; }
  else if ((m = /^old mode (\d+)$/.exec(line))) file.oldMode = m[1];
  else if ((m = /^new mode (\d+)$/.exec(line))) file.newMode = m[1];
  else if (/^Binary files .* differ$/.test(line) || line === 'GIT binary patch') file.binary = true;
  else if ((m = /^--- (.*)$/.exec(line))) setSidePath(file, m[1], 'a/', 'old');
  else if ((m = /^\+\+\+ (.*)$/.exec(line))) setSidePath(file, m[1], 'b/', 'new');
}

function setSidePath(file: DiffFile, raw: string, prefix: string, side: 'old' | 'new'): void {
  const name = unquote(raw.replace(/\t.*$/, ''));
  if (name === '/dev/null') return;
  const path = name.startsWith(prefix) ? name.slice(prefix.length) : name;
  if (side === 'new') file.path = path;
  else if (file.status === 'deleted') file.path = path;
  else if (path !== file.path) file.oldPath = path;
}

/** `a/<p> b/<q>` where either side may be C-quoted; unquoted paths may hold spaces. */
function splitGitHeader(rest: string): [string, string] {
  if (rest.startsWith('"')) {
    const end = quotedEnd(rest);
    const first = unquote(rest.slice(0, end + 1));
    const second = unquote(rest.slice(end + 2));
    return [stripPrefix(first, 'a/'), stripPrefix(second, 'b/')];
  }
  if (rest.endsWith('"')) {
    const start = rest.lastIndexOf(' "');
    return [stripPrefix(rest.slice(0, start), 'a/'), stripPrefix(unquote(rest.slice(start + 1)), 'b/')];
  }
  // Same path on both sides (the usual case): "a/P b/P" splits in the middle.
  const mid = (rest.length - 1) / 2;
  if (Number.isInteger(mid) && rest[mid] === ' ' && rest.slice(2, mid) === rest.slice(mid + 3)) {
    return [rest.slice(2, mid), rest.slice(mid + 3)];
  }
  const at = rest.indexOf(' b/');
  if (at < 0) return [rest, rest];
  return [stripPrefix(rest.slice(0, at), 'a/'), rest.slice(at + 3)];
}

function stripPrefix(s: string, prefix: string): string {
  return s.startsWith(prefix) ? s.slice(prefix.length) : s;
}

function quotedEnd(s: string): number {
  for (let i = 1; i < s.length; i++) {
    if (s[i] === '\\') i++;
    else if (s[i] === '"') return i;
  }
  return s.length - 1;
}

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', '"': '"', '\\': '\\', a: '\x07', b: '\b', f: '\f', r: '\r', v: '\v' };

/** Undoes git's C-style quoting (octal escapes are UTF-8 bytes). */
export function unquote(s: string): string {
  if (!(s.length >= 2 && s.startsWith('"') && s.endsWith('"'))) return s;
  const bytes: number[] = [];
  const body = s.slice(1, -1);
  for (let i = 0; i < body.length; i++) {
    const c = body[i];
    if (c !== '\\') {
      bytes.push(...new TextEncoder().encode(c));
      continue;
    }
    const next = body[++i];
    if (/[0-7]/.test(next)) {
      bytes.push(parseInt(body.slice(i, i + 3), 8));
      i += 2;
    } else {
      bytes.push((ESCAPES[next] ?? next).charCodeAt(0));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}
