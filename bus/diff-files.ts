// Per-file facts of a git diff for the review screen (DIFF-3..6): the limits,
// git's -z stat outputs parsed, generated-file detection, a section's header.
// bus/diff.ts decides which change to show; bus/diff-staged.ts reads it.
import type { FileStatus } from '../protocol/bus/diff';

export interface DiffLimits {
  /** A file with more changed lines than this is `huge` (hunks omitted). */
  hugeLines: number;
  /** A file whose patch or content is larger than this is `huge`. */
  hugeBytes: number;
  /** The whole patch text stays under this; later hunks are omitted. */
  maxPatchBytes: number;
  /** A file whose old or new content is larger than this is not diffed at all ("too large to show"). */
  maxFileBytes: number;
}

export const DEFAULT_LIMITS: DiffLimits = { hugeLines: 5000, hugeBytes: 1 << 20, maxPatchBytes: 8 << 20, maxFileBytes: 16 << 20 };

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

/** The header of one file's section: everything before its first hunk. */
export function headerOnly(section: string): string {
  const hunk = section.search(/^@@ /m);
  return hunk === -1 ? section : section.slice(0, hunk);
}
