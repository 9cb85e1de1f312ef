// Per-file facts of a git diff for the review screen (DIFF-3..6): stats from
// git's -z outputs, the patch split per file, and untracked files rendered as
// additions. bus/diff.ts decides which change to show; this says what is in it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { FileStat, FileStatus } from '../protocol/bus/diff';

export interface DiffLimits {
  /** A file with more changed lines than this is `huge` (hunks omitted). */
  hugeLines: number;
  /** A file whose patch or content is larger than this is `huge`. */
  hugeBytes: number;
  /** The whole patch text stays under this; later hunks are omitted. */
  maxPatchBytes: number;
  /** At most this many untracked files are shown. */
  maxUntracked: number;
}

export const DEFAULT_LIMITS: DiffLimits = { hugeLines: 5000, hugeBytes: 1 << 20, maxPatchBytes: 8 << 20, maxUntracked: 500 };

const STATUS: Record<string, FileStatus> = { A: 'added', D: 'deleted', M: 'modified', R: 'renamed', C: 'copied', T: 'type-changed' };

const GENERATED = [
  /(^|\/)(package-lock\.json|npm-shrinkwrap\.json|yarn\.lock|pnpm-lock\.yaml|bun\.lockb?|Cargo\.lock|Gemfile\.lock|poetry\.lock|Pipfile\.lock|composer\.lock|go\.sum|uv\.lock|flake\.lock)$/,
  /(^|\/)(dist|build|out|\.next|coverage|vendor|node_modules)\//,
  /\.min\.(js|css|mjs)$/,
  /\.(js|css)\.map$/,
];

export function isGenerated(file: string): boolean {
  return GENERATED.some((re) => re.test(file));
}

interface RawEntry { status: FileStatus; path: string; old_path?: string }
interface CountEntry { additions: number; deletions: number; binary: boolean }

/** `git diff --name-status -z`: `X\0path\0`, or `R086\0old\0new\0` for renames and copies. */
export function parseNameStatus(out: string): RawEntry[] {
  const parts = out.split('\0');
  const entries: RawEntry[] = [];
  for (let i = 0; i + 1 < parts.length && parts[i] !== '';) {
    const letter = parts[i]![0]!;
    const status = STATUS[letter] ?? 'modified';
    if (letter === 'R' || letter === 'C') {
      entries.push({ status, old_path: parts[i + 1]!, path: parts[i + 2]! });
      i += 3;
    } else {
      entries.push({ status, path: parts[i + 1]! });
      i += 2;
    }
  }
  return entries;
}

/** `git diff --numstat -z`: `A\tD\tpath\0`, or `A\tD\t\0old\0new\0`; `-` counts mean binary. */
export function parseNumstat(out: string): CountEntry[] {
  const parts = out.split('\0');
  const entries: CountEntry[] = [];
  for (let i = 0; i < parts.length && parts[i] !== '';) {
    const [adds, dels, name] = parts[i]!.split('\t');
    const binary = adds === '-';
    entries.push({ additions: binary ? 0 : Number(adds), deletions: binary ? 0 : Number(dels), binary });
    i += name === '' ? 3 : 1;
  }
  return entries;
}

/** Splits a patch at its `diff --git` headers (hunk lines always carry a prefix, so none can match). */
export function splitPatch(patch: string): string[] {
  const starts: number[] = [];
  for (let at = patch.indexOf('diff --git '); at !== -1; at = patch.indexOf('\ndiff --git ', at + 1)) {
    starts.push(patch[at] === '\n' ? at + 1 : at);
  }
  return starts.map((s, k) => patch.slice(s, starts[k + 1] ?? patch.length));
}

/** The header of one file's section: everything before its first hunk. */
export function headerOnly(section: string): string {
  const hunk = section.search(/^@@ /m);
  return hunk === -1 ? section : section.slice(0, hunk);
}

export function trackedStats(nameStatus: string, numstat: string): Omit<FileStat, 'huge' | 'hunks_omitted'>[] {
  const raw = parseNameStatus(nameStatus);
  const counts = parseNumstat(numstat);
  return raw.map((r, k) => ({
    path: r.path,
    ...(r.old_path !== undefined ? { old_path: r.old_path } : {}),
    status: r.status,
    additions: counts[k]?.additions ?? 0,
    deletions: counts[k]?.deletions ?? 0,
    binary: counts[k]?.binary ?? false,
    generated: isGenerated(r.path),
    untracked: false,
  }));
}

/** An untracked file as git would show it added; binary when a NUL is in its first 8000 bytes, as git decides. */
export function untrackedSection(worktree: string, file: string, limits: DiffLimits): { stat: FileStat; section: string } {
  const full = path.join(worktree, file);
  // lstat, never stat: a symlink's content is its target text, as git records it; following it could leak files outside the repo.
  const info = fs.lstatSync(full);
  if (info.isSymbolicLink()) return symlinkSection(file, fs.readlinkSync(full));
  const size = info.isFile() ? info.size : 0;
  const base: FileStat = {
    path: file, status: 'added', additions: 0, deletions: 0, binary: false, huge: size > limits.hugeBytes,
    generated: isGenerated(file), untracked: true, hunks_omitted: false,
  };
  const header = `diff --git a/${file} b/${file}\nnew file mode ${info.mode & 0o111 ? '100755' : '100644'}\n`;
  // Only regular files are read: a FIFO or socket would block or fail.
  if (!info.isFile()) return { stat: { ...base, hunks_omitted: true }, section: header };
  if (base.huge) return { stat: { ...base, hunks_omitted: true }, section: header };
  const bytes = fs.readFileSync(full);
  if (bytes.subarray(0, 8000).includes(0)) {
    return { stat: { ...base, binary: true, hunks_omitted: true }, section: `${header}Binary files /dev/null and b/${file} differ\n` };
  }
  const text = bytes.toString('utf8');
  const lines = text.length === 0 ? [] : text.replace(/\n$/, '').split('\n');
  const stat = { ...base, additions: lines.length, huge: lines.length > limits.hugeLines };
  if (stat.huge || lines.length === 0) return { stat: { ...stat, hunks_omitted: stat.huge }, section: header };
  const noEol = text.endsWith('\n') ? '' : '\\ No newline at end of file\n';
  const body = lines.map((l) => `+${l}\n`).join('');
  return { stat, section: `${header}--- /dev/null\n+++ b/${file}\n@@ -0,0 +1,${lines.length} @@\n${body}${noEol}` };
}

function symlinkSection(file: string, target: string): { stat: FileStat; section: string } {
  const stat: FileStat = {
    path: file, status: 'added', additions: 1, deletions: 0, binary: false, huge: false,
    generated: isGenerated(file), untracked: true, hunks_omitted: false,
  };
  return { stat, section: `diff --git a/${file} b/${file}\nnew file mode 120000\n--- /dev/null\n+++ b/${file}\n@@ -0,0 +1 @@\n+${target}\n\\ No newline at end of file\n` };
}

/**
 * Joins stats and sections into the patch a phone gets: huge files and anything
 * past the byte budget keep their header only. Sections pair with stats by order,
 * as git emits both in one diff-queue order; a count mismatch keeps every hunk.
 */
export function assemble(stats: (Omit<FileStat, 'huge' | 'hunks_omitted'> & { huge?: boolean })[], sections: string[], limits: DiffLimits) {
  const paired = sections.length === stats.length;
  const files: FileStat[] = [];
  const kept: string[] = [];
  let bytes = 0;
  let truncated = false;
  stats.forEach((s, k) => {
    const section = sections[k] ?? '';
    const size = Buffer.byteLength(section);
    const huge = s.huge === true || s.additions + s.deletions > limits.hugeLines || size > limits.hugeBytes;
    const overBudget = bytes + size > limits.maxPatchBytes;
    const omit = paired && (huge || overBudget || s.binary);
    if (paired && overBudget && !huge && !s.binary) truncated = true;
    const text = omit ? headerOnly(section) : section;
    files.push({ ...s, huge, hunks_omitted: omit });
    kept.push(text);
    bytes += Buffer.byteLength(text);
  });
  const patch = paired ? kept.join('') : sections.join('');
  return { files, patch, truncated };
}
