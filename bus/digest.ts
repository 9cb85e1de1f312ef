// The digest of a worktree's staged change (DIGEST-n): the one value an approval
// is bound to, so the gate, the relay and the diff view must all compute it here.
// The patch is streamed through the hash, never held whole (a 200 MB file stays
// in git's pipe, not in the relay's heap).
import { createHash } from 'node:crypto';
import { GIT_OUTPUT_LIMIT, git, gitStream as runStream } from './git/run';

export interface StagedDigest {
  /** `sha256:` + 64 lowercase hex digits of the patch bytes. */
  digest: string;
  /** Number of files in the staged change (one per `diff --git` header). */
  files: number;
  /** Bytes of the patch that were hashed. */
  bytes: number;
}

/**
 * Git's defaults for every setting that changes how a patch is written (DIGEST-6), given on the
 * command line so that no config file can change them: the relay (perhaps its own OS user, THREAT-2)
 * and the agent's gate each read their own `~/.gitconfig`, and `diff.algorithm = histogram` or
 * `diff.noprefix` on one side only would make them disagree about the same staged bytes. With git's
 * default config these change no byte: the digest is the contract's command's.
 */
const PINNED_PATCH_FORMAT = {
  config: ['-c', 'core.abbrev=auto', '-c', 'core.quotePath=true', '-c', 'diff.suppressBlankEmpty=false', '-c', 'core.attributesFile=/dev/null'],
  options: ['--src-prefix=a/', '--dst-prefix=b/', '-U3', '--inter-hunk-context=0', '--indent-heuristic', '--diff-algorithm=myers', '-M', '-l1000', '-O/dev/null', '--no-relative', '--submodule=short'],
} as const;

/**
 * The git arguments whose stdout bytes are digested: the contract's, and `--ignore-submodules=none`
 * (DIGEST-5), without which `submodule.<name>.ignore` in the working tree's own `.gitmodules` (never
 * staged) or `diff.ignoreSubmodules` would leave a staged submodule bump out of the digest and the
 * view while `git write-tree` and the commit keep it; `--no-textconv`, so a `diff.<driver>.textconv`
 * command the repository's config names is never run by the relay or the gate, and never stands in
 * for the staged bytes; and the pinned patch format (DIGEST-6). For any other change the bytes are the same.
 */
export const STAGED_DIFF_ARGS = [
  ...PINNED_PATCH_FORMAT.config,
  'diff', '--cached', '--binary', '--no-color', '--no-ext-diff', '--no-textconv', '--ignore-submodules=none',
  ...PINNED_PATCH_FORMAT.options,
] as const;

/** Small git outputs (stats, names) only: anything bigger is a caller's bug or hostile input. */
export { GIT_OUTPUT_LIMIT };

export function digestOf(patch: Buffer): string {
  return 'sha256:' + createHash('sha256').update(patch).digest('hex');
}

/** Counts file headers; hunk and base85 lines can never start with `diff --git `. */
export function countPatchFiles(patch: Buffer): number {
  const counter = new HeaderCounter();
  counter.push(patch);
  return counter.count;
}

const HEADER = Buffer.from('\ndiff --git ');

/** Counts `diff --git ` at line starts across chunk boundaries of a stream. */
export class HeaderCounter {
  count = 0;
  private tail = Buffer.from('\n');
  push(chunk: Buffer): void {
    const joined = Buffer.concat([this.tail, chunk]);
    for (let at = joined.indexOf(HEADER); at !== -1; at = joined.indexOf(HEADER, at + 1)) {
      // A header already wholly inside the kept tail was counted with the previous chunk.
      if (at + HEADER.length > this.tail.length) this.count++;
    }
    this.tail = joined.subarray(Math.max(0, joined.length - (HEADER.length - 1)));
  }
}

/**
 * Runs git in `worktree` through the hardened runner and inherits this process's environment on
 * purpose: inside a pre-commit hook GIT_INDEX_FILE names the index being committed.
 * For bounded outputs only (GIT_OUTPUT_LIMIT); patches are streamed with `gitStream`.
 */
export function gitBytes(worktree: string, args: readonly string[], input?: Buffer, env?: NodeJS.ProcessEnv): Promise<Buffer> {
  return git(args, { cwd: worktree, env: env ?? process.env, input });
}

/** Streams git's stdout to `onChunk` (a false return stops git early); rejects E_GIT on failure. */
export function gitStream(worktree: string, args: readonly string[], onChunk: (chunk: Buffer) => boolean | void, env?: NodeJS.ProcessEnv): Promise<void> {
  return runStream(args, { cwd: worktree, env: env ?? process.env }, onChunk);
}

/** Digest of any patch-producing git command, streamed. */
export async function streamedDigest(worktree: string, args: readonly string[], env?: NodeJS.ProcessEnv): Promise<StagedDigest> {
  const hash = createHash('sha256');
  const counter = new HeaderCounter();
  let bytes = 0;
  await gitStream(worktree, args, (chunk) => {
    hash.update(chunk);
    counter.push(chunk);
    bytes += chunk.length;
  }, env);
  return { digest: 'sha256:' + hash.digest('hex'), files: counter.count, bytes };
}

/** `env` (default: this process's) lets a caller name another index with GIT_INDEX_FILE, as the gate's hook does. */
export function stagedDigest(worktree: string, env?: NodeJS.ProcessEnv): Promise<StagedDigest> {
  return streamedDigest(worktree, STAGED_DIFF_ARGS, env);
}
