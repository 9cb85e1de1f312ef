// The digest of a worktree's staged change (DIGEST-n): the one value an approval
// is bound to, so the gate, the relay and the diff view must all compute it here.
import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { BusError } from './errors';

export interface StagedDigest {
  /** `sha256:` + 64 lowercase hex digits of `patch`. */
  digest: string;
  /** Number of files in the staged change (one per `diff --git` header). */
  files: number;
  /** The exact bytes of `git diff --cached --binary --no-color --no-ext-diff`. */
  patch: Buffer;
}

/** The git arguments whose stdout bytes are digested; fixed by the contract. */
export const STAGED_DIFF_ARGS = ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'] as const;

export function digestOf(patch: Buffer): string {
  return 'sha256:' + createHash('sha256').update(patch).digest('hex');
}

/** Counts file headers; hunk and base85 lines can never start with `diff --git `. */
export function countPatchFiles(patch: Buffer): number {
  let count = 0;
  const header = Buffer.from('diff --git ');
  let at = patch.indexOf(header);
  while (at !== -1) {
    if (at === 0 || patch[at - 1] === 0x0a) count++;
    at = patch.indexOf(header, at + header.length);
  }
  return count;
}

/**
 * Runs git in `worktree` without a shell and inherits the environment on
 * purpose: inside a pre-commit hook GIT_INDEX_FILE names the index being committed.
 */
export function gitBytes(worktree: string, args: readonly string[], input?: Buffer): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const child = execFile('git', [...args], { cwd: worktree, encoding: 'buffer', maxBuffer: Infinity }, (error, stdout, stderr) => {
      if (error) {
        const detail = Buffer.isBuffer(stderr) ? stderr.toString('utf8').trim() : '';
        reject(new BusError('E_GIT', `git ${args.join(' ')} failed in ${worktree}: ${detail || error.message}`, { cause: error }));
        return;
      }
      resolve(stdout);
    });
    if (input !== undefined) child.stdin?.end(input);
  });
}

export async function stagedDigest(worktree: string): Promise<StagedDigest> {
  const patch = await gitBytes(worktree, STAGED_DIFF_ARGS);
  return { digest: digestOf(patch), files: countPatchFiles(patch), patch };
}
