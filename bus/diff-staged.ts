// What is in a staged change, file by file (DIFF-4, DIFF-9..11): stats from git's
// -z outputs, sizes from the object store, which files are really binary (a NUL
// in their first 8000 bytes, as git decides) versus only marked `-diff`, and the
// view patch streamed from git with a cap, so a huge file never fills the heap.
import { gitBytes, gitStream } from './digest';
import { headerOnly, isGenerated, parseNumstat, type DiffLimits } from './diff-files';
import type { FileStat, FileStatus } from '../protocol/bus/diff';

export interface StagedFile {
  path: string;
  old_path?: string;
  status: FileStatus;
  additions: number;
  deletions: number;
  /** Real binary content: a NUL in the first 8000 bytes of either side. */
  binary: boolean;
  /** git called it binary only because of attributes (`-diff`, `binary`): shown as text. */
  declared_binary: boolean;
  /** Bytes of the new side (the old side for a deletion). */
  size: number;
  /** Too large to show at all (size over `maxFileBytes`). */
  too_large: boolean;
  /** git's modes of the two sides (`000000` for a side that does not exist). */
  old_mode: string;
  new_mode: string;
  /** Both sides are the same blob: only the mode changed. */
  same_content: boolean;
}

const STATUS: Record<string, FileStatus> = { A: 'added', D: 'deleted', M: 'modified', R: 'renamed', C: 'copied', T: 'type-changed' };
const ZERO = /^0+$/;
/** Bytes git inspects to decide that content is binary. */
const SNIFF_BYTES = 8000;
/** Bytes of an over-limit section kept: enough for its header lines. */
const HEADER_KEEP = 16 * 1024;

interface RawEntry { status: FileStatus; path: string; old_path?: string; src: string; dst: string; m1: string; m2: string }

/** `git diff --raw -z --no-abbrev`: `:m1 m2 src dst X\0path\0`, or `…R086\0old\0new\0`. */
export function parseRaw(out: string): RawEntry[] {
  const parts = out.split('\0');
  const entries: RawEntry[] = [];
  for (let i = 0; i + 1 < parts.length && parts[i]!.startsWith(':');) {
    const [m1, m2, src, dst, code] = parts[i]!.slice(1).split(' ');
    const letter = code![0]!;
    const status = STATUS[letter] ?? 'modified';
    const sides = { src: src!, dst: dst!, m1: m1!, m2: m2! };
    if (letter === 'R' || letter === 'C') {
      entries.push({ status, old_path: parts[i + 1]!, path: parts[i + 2]!, ...sides });
      i += 3;
    } else {
      entries.push({ status, path: parts[i + 1]!, ...sides });
      i += 2;
    }
  }
  return entries;
}

/** `--ignore-submodules=none`: a staged submodule bump is listed whatever `.gitmodules` or git's config say (DIGEST-5). */
const OPTS = ['--no-ext-diff', '--no-textconv', '--ignore-submodules=none', '-M'];
/**
 * What is compared: the staged change (`--cached`, the default), or two commits given as full
 * object ids (a committed change, TSTATE-3), so no argument can be read as an option.
 */
export type DiffRange = { base: string; tip: string };
const OID = /^[0-9a-f]{40}(?:[0-9a-f]{24})?$/;
function diffOpts(range?: DiffRange): string[] {
  if (!range) return ['--cached', ...OPTS];
  if (!OID.test(range.base) || !OID.test(range.tip)) throw new Error(`a diff range needs two commit ids, not ${JSON.stringify(range)}`);
  return [...OPTS, range.base, range.tip];
}

/** Every staged file (or every file changed in `range`) with its counts, size and binary verdict. */
export async function stagedFiles(worktree: string, limits: DiffLimits, range?: DiffRange): Promise<StagedFile[]> {
  const DIFF_OPTS = diffOpts(range);
  const [raw, numstat] = await Promise.all([
    gitBytes(worktree, ['diff', ...DIFF_OPTS, '--raw', '-z', '--no-abbrev']),
    gitBytes(worktree, ['diff', ...DIFF_OPTS, '--numstat', '-z']),
  ]);
  const entries = parseRaw(raw.toString('utf8'));
  const counts = parseNumstat(numstat.toString('utf8'));
  const sizes = await blobSizes(worktree, entries.flatMap((e) => [e.src, e.dst]));
  return Promise.all(entries.map(async (e, k) => {
    const count = counts[k] ?? { additions: 0, deletions: 0, binary: false };
    const size = sizes.get(ZERO.test(e.dst) ? e.src : e.dst) ?? 0;
    const gitBinary = count.binary;
    const binary = gitBinary && (await hasNul(worktree, e.src) || await hasNul(worktree, e.dst));
    return {
      path: e.path, ...(e.old_path !== undefined ? { old_path: e.old_path } : {}), status: e.status,
      additions: count.additions, deletions: count.deletions,
      binary, declared_binary: gitBinary && !binary, size,
      too_large: Math.max(sizes.get(e.src) ?? 0, sizes.get(e.dst) ?? 0) > limits.maxFileBytes,
      old_mode: e.m1, new_mode: e.m2, same_content: e.src === e.dst,
    };
  }));
}

async function blobSizes(worktree: string, oids: string[]): Promise<Map<string, number>> {
  const wanted = [...new Set(oids.filter((o) => !ZERO.test(o)))];
  const sizes = new Map<string, number>();
  if (wanted.length === 0) return sizes;
  const out = await gitBytes(worktree, ['cat-file', '--batch-check=%(objectname) %(objectsize)'], Buffer.from(wanted.join('\n') + '\n'));
  for (const line of out.toString('utf8').split('\n')) {
    const [oid, size] = line.split(' ');
    if (oid && size && /^\d+$/.test(size)) sizes.set(oid, Number(size));
  }
  return sizes;
}

/** git's own test: a NUL in the first 8000 bytes. Reads no more than that. */
async function hasNul(worktree: string, oid: string): Promise<boolean> {
  if (ZERO.test(oid)) return false;
  const head: Buffer[] = [];
  let bytes = 0;
  await gitStream(worktree, ['cat-file', 'blob', oid], (chunk) => {
    head.push(chunk);
    bytes += chunk.length;
    return bytes < SNIFF_BYTES;
  });
  return Buffer.concat(head).subarray(0, SNIFF_BYTES).includes(0);
}

/**
 * The view patch: `git diff --cached --text` (so `-diff` files show their text)
 * over every file that is neither really binary nor too large, streamed into per-file
 * sections; an over-limit section keeps its header only. Binary and too-large
 * files get a header line saying so, and their size is in their stats.
 */
/** A patch view as the task diff carries it: its files, their totals, its size, whether it was cut. */
export function patchFields(view: { files: FileStat[]; patch: string; truncated: boolean }) {
  return {
    files: view.files,
    additions: view.files.reduce((n, f) => n + f.additions, 0),
    deletions: view.files.reduce((n, f) => n + f.deletions, 0),
    patch_bytes: Buffer.byteLength(view.patch),
    truncated: view.truncated,
    patch: view.patch,
  };
}

export async function stagedPatch(worktree: string, files: StagedFile[], limits: DiffLimits, range?: DiffRange): Promise<{ files: FileStat[]; patch: string; truncated: boolean }> {
  const DIFF_OPTS = diffOpts(range);
  const shown = files.filter((f) => !f.binary && !f.too_large);
  const hidden = files.filter((f) => f.binary || f.too_large).flatMap((f) => [f.path, ...(f.old_path ? [f.old_path] : [])]);
  const sink = new SectionSink(limits);
  if (shown.length > 0) {
    const args = ['-c', 'core.quotePath=false', 'diff', ...DIFF_OPTS, '--text', '--no-color', '--src-prefix=a/', '--dst-prefix=b/', '--',
      ...hidden.map((p) => `:(exclude,literal,top)${p}`)];
    await gitStream(worktree, args, (chunk) => sink.push(chunk));
  }
  const sections = sink.end();
  const paired = sections.length === shown.length;
  const out: FileStat[] = [];
  const texts: string[] = [];
  let next = 0;
  for (const f of files) {
    const base = {
      path: f.path, ...(f.old_path !== undefined ? { old_path: f.old_path } : {}), status: f.status,
      additions: f.additions, deletions: f.deletions, binary: f.binary, generated: isGenerated(f.path), untracked: false, size: f.size,
    };
    if (f.binary || f.too_large) {
      out.push({ ...base, huge: f.too_large, hunks_omitted: true, ...(f.too_large ? { too_large: true } : {}) });
      texts.push(placeholder(f));
      continue;
    }
    const section = paired ? sections[next++] : undefined;
    if (!section) {
      out.push({ ...base, huge: false, hunks_omitted: true });
      continue;
    }
    const text = section.bytes.toString('utf8');
    const counts = f.declared_binary ? countLines(text) : { additions: f.additions, deletions: f.deletions };
    const huge = section.over || counts.additions + counts.deletions > limits.hugeLines;
    const omitted = huge || section.budget;
    out.push({ ...base, ...counts, huge, hunks_omitted: omitted });
    texts.push(omitted ? headerOnly(text) : text);
  }
  if (!paired) texts.push(...sections.map((s) => s.bytes.toString('utf8')));
  return { files: out, patch: texts.join(''), truncated: sink.truncated };
}

function countLines(section: string): { additions: number; deletions: number } {
  let additions = 0;
  let deletions = 0;
  for (const line of section.split('\n')) {
    if (line.startsWith('+++ ') || line.startsWith('--- ')) continue;
    if (line.startsWith('+')) additions++;
    else if (line.startsWith('-')) deletions++;
  }
  return { additions, deletions };
}

/**
 * A header a diff parser reads as this file, saying why its lines are not there, with git's own
 * mode lines (an executable bit set on a file the view cannot show is still shown, DIFFVIEW-2);
 * a mode-only change says nothing about content that did not change.
 */
function placeholder(f: StagedFile): string {
  const a = quote(`a/${f.old_path ?? f.path}`);
  const b = quote(`b/${f.path}`);
  const modes = f.status === 'added' ? `new file mode ${f.new_mode}\n`
    : f.status === 'deleted' ? `deleted file mode ${f.old_mode}\n`
      : f.old_mode !== f.new_mode ? `old mode ${f.old_mode}\nnew mode ${f.new_mode}\n` : '';
  const head = `diff --git ${a} ${b}\n${modes}`;
  const from = f.status === 'added' ? '/dev/null' : a;
  const to = f.status === 'deleted' ? '/dev/null' : b;
  return f.binary && !f.same_content ? `${head}Binary files ${from} and ${to} differ\n` : head;
}

/** git's C-style quoting, only when a path needs it. */
function quote(p: string): string {
  if (!/["\\\x00-\x1f\x7f]/.test(p)) return p;
  return '"' + p.replace(/[\\"]/g, (c) => '\\' + c).replace(/\n/g, '\\n').replace(/\t/g, '\\t').replace(/[\x00-\x1f\x7f]/g, (c) => '\\' + c.charCodeAt(0).toString(8).padStart(3, '0')) + '"';
}

interface Section { bytes: Buffer; over: boolean; budget: boolean }

const HEADER = Buffer.from('\ndiff --git ');

/** Splits a streamed patch at `diff --git` line starts, keeping bounded bytes per section and in all. */
class SectionSink {
  truncated = false;
  private done: Section[] = [];
  private parts: Buffer[] = [];
  private size = 0;
  private kept = 0;
  private over = false;
  private budget = false;
  private carry = Buffer.alloc(0);
  private total = 0;
  constructor(private readonly limits: DiffLimits) {}

  push(chunk: Buffer): void {
    let data = this.carry.length > 0 ? Buffer.concat([this.carry, chunk]) : chunk;
    for (let at = data.indexOf(HEADER, 1); at !== -1; at = data.indexOf(HEADER, 1)) {
      this.append(data.subarray(0, at + 1));
      this.close();
      data = data.subarray(at + 1);
    }
    const keep = Math.min(data.length, HEADER.length - 1);
    this.append(data.subarray(0, data.length - keep));
    this.carry = Buffer.from(data.subarray(data.length - keep));
  }

  end(): Section[] {
    this.append(this.carry);
    this.carry = Buffer.alloc(0);
    this.close();
    return this.done;
  }

  private append(bytes: Buffer): void {
    if (bytes.length === 0) return;
    this.size += bytes.length;
    if (this.size > this.limits.hugeBytes) this.over = true;
    if (this.total + this.size > this.limits.maxPatchBytes && !this.over) this.budget = true;
    const room = (this.over || this.budget ? HEADER_KEEP : this.limits.hugeBytes) - this.kept;
    if (room <= 0) return;
    const piece = bytes.subarray(0, room);
    this.parts.push(Buffer.from(piece));
    this.kept += piece.length;
  }

  private close(): void {
    if (this.size === 0) return;
    const bytes = Buffer.concat(this.parts);
    if (this.budget) this.truncated = true;
    this.done.push({ bytes, over: this.over, budget: this.budget });
    if (!this.over && !this.budget) this.total += bytes.length;
    this.parts = [];
    this.size = 0;
    this.kept = 0;
    this.over = false;
    this.budget = false;
  }
}
