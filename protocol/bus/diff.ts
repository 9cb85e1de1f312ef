// The task's diff as a phone reviews it (DIFF-n): per-file stats and the summary
// the relay sends before streaming the patch. Built by bus/diff.ts.
import * as z from 'zod/mini';
import { Sha256Digest } from './events';
import { TaskId } from './ids';

export const FileStatus = z.enum(['added', 'deleted', 'modified', 'renamed', 'copied', 'type-changed']);
export type FileStatus = z.infer<typeof FileStatus>;

export const FileStat = z.object({
  path: z.string(),
  /** The path before a rename or copy. */
  old_path: z.optional(z.string()),
  status: FileStatus,
  additions: z.int().check(z.minimum(0)),
  deletions: z.int().check(z.minimum(0)),
  binary: z.boolean(),
  /** Over the size limits: stats kept, hunks left out of the patch. */
  huge: z.boolean(),
  /** A lock file, build output or minified file: the UI may fold it. */
  generated: z.boolean(),
  /** Not yet known to git. Always false now: only the staged change is shown (DIFF-2). */
  untracked: z.boolean(),
  /** Bytes of the new content (the old one for a deletion), from the object store. */
  size: z.optional(z.int().check(z.minimum(0))),
  /** Over the per-file limit: not diffed at all, listed with its size only. */
  too_large: z.optional(z.boolean()),
  /** This file's hunks are not in the patch (huge, binary, or past the patch budget). */
  hunks_omitted: z.boolean(),
});
export type FileStat = z.infer<typeof FileStat>;

/** `commit`: no change is staged, the task's committed work is shown: agent/<task> against its merge base with the default branch (TSTATE-3). */
export const DiffSource = z.enum(['approval', 'branch', 'commit', 'none']);
export type DiffSource = z.infer<typeof DiffSource>;

export const TaskDiffSummary = z.object({
  task: TaskId,
  /** approval: the worktree a pending approval named; branch: the agent/<task> worktree; none: nothing found. Either way only the staged change is shown. */
  source: DiffSource,
  worktree: z.optional(z.string()),
  branch: z.optional(z.string()),
  /** The commit the staged change sits on (the worktree's HEAD; 40 zeros before the first commit): an approval is bound to it. */
  base: z.optional(z.string()),
  /**
   * The approvable digest: the staged digest of `worktree` (DIGEST-1), the one
   * value the gate checks. Absent when nothing is staged or source is none.
   */
  digest: z.optional(Sha256Digest),
  /** Files in the staged change that `digest` covers. */
  staged_files: z.int().check(z.minimum(0)),
  files: z.array(FileStat),
  additions: z.int().check(z.minimum(0)),
  deletions: z.int().check(z.minimum(0)),
  /** Bytes of the (possibly reduced) patch text. */
  patch_bytes: z.int().check(z.minimum(0)),
  /** Some hunks were left out to keep the patch within its budget. */
  truncated: z.boolean(),
  /** source commit: the branch's tip commit shown (the base is `base`). */
  commit: z.optional(z.string()),
});
export type TaskDiffSummary = z.infer<typeof TaskDiffSummary>;
