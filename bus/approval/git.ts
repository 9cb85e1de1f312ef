// The git that `commandr verify` runs (RVERIFY-n): in a server's bare repo or a
// person's checkout, with the repository's hooks and fsmonitor switched off, and
// long revision lists fed on stdin so no command line outgrows the OS limit.
import { git } from '../git/run';

/**
 * Flags every verify git call carries: a repository's config must not run a command in the
 * checker's name, and a pushed `refs/replace/*` must not make git show the checker another
 * commit's message and tree in place of the one the push brings.
 */
export const HARDENED = ['--no-replace-objects', '-c', 'core.hooksPath=/dev/null', '-c', 'core.fsmonitor=false'];

/**
 * Runs `git <HARDENED> <args>` in `cwd`, writing `input` to stdin, and returns stdout.
 * The environment is inherited on purpose: inside `pre-receive` it names the
 * quarantine where the pushed objects wait (GIT_OBJECT_DIRECTORY, GIT_QUARANTINE_PATH).
 */
export function gitRun(cwd: string, args: readonly string[], input?: string, env?: NodeJS.ProcessEnv): Promise<Buffer> {
  // Through the one hardened runner (GITRUN-1), which adds these and more.
  return git([...HARDENED, ...args], { cwd, env: env ?? process.env, input: input ?? '' });
}

export interface ObjectInfo { oid: string; type: string }

/**
 * What each name is (`cat-file --batch-check`, one process for all): its object id and
 * type, and the commit it peels to (`<name>^{commit}`); undefined for a missing object.
 */
export async function describeObjects(cwd: string, names: readonly string[]): Promise<{ object?: ObjectInfo; commit?: string }[]> {
  if (names.length === 0) return [];
  const input = names.map((n) => `${n}\n${n}^{commit}\n`).join('');
  const lines = (await gitRun(cwd, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], input)).toString('utf8').split('\n');
  return names.map((_, i) => {
    const [oid, type] = (lines[2 * i] ?? '').split(' ');
    const [peeled, peeledType] = (lines[2 * i + 1] ?? '').split(' ');
    return {
      ...(type && type !== 'missing' ? { object: { oid: oid!, type } } : {}),
      ...(peeledType === 'commit' ? { commit: peeled! } : {}),
    };
  });
}
