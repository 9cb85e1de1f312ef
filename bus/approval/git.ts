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

/** `cat-file --batch-check` of each name, one process for all: its id and type, undefined when missing. */
async function batchCheck(cwd: string, names: readonly string[]): Promise<(ObjectInfo | undefined)[]> {
  const lines = (await gitRun(cwd, ['cat-file', '--batch-check=%(objectname) %(objecttype)'], names.map((n) => `${n}\n`).join(''))).toString('utf8').split('\n');
  return names.map((_, i) => {
    const [oid, type] = (lines[i] ?? '').split(' ');
    return type && type !== 'missing' ? { oid: oid!, type } : undefined;
  });
}

/**
 * What each name is: its object id and type, and the commit it peels to; undefined for a
 * missing object. Only a tag is peeled (`<tag id>^{commit}`, a second process). Peeling makes
 * git read the object, and git dies ("loose object … is corrupt") when an object it did not
 * find is there a moment later: in `pre-receive`, a commit in the verified set whose own push
 * is still moving it out of its quarantine (RVERIFY-3). A plain id's type never dies: the
 * object is present or missing.
 */
export async function describeObjects(cwd: string, names: readonly string[]): Promise<{ object?: ObjectInfo; commit?: string }[]> {
  if (names.length === 0) return [];
  const objects = await batchCheck(cwd, names);
  const tags = objects.filter((o) => o?.type === 'tag').map((o) => o!.oid);
  const peeled = new Map<string, string>();
  if (tags.length > 0) {
    const commits = await batchCheck(cwd, tags.map((oid) => `${oid}^{commit}`));
    tags.forEach((oid, i) => { if (commits[i]?.type === 'commit') peeled.set(oid, commits[i]!.oid); });
  }
  return objects.map((object) => {
    if (object === undefined) return {};
    const commit = object.type === 'commit' ? object.oid : peeled.get(object.oid);
    return { object, ...(commit ? { commit } : {}) };
  });
}
