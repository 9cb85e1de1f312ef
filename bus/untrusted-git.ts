// Running git in a repository whose config we did not write (REPORTGIT-1, NOTE-4): the repo's own
// config must not make git run a command, and the caller's git location variables must not
// send it to another repository or index.
import * as path from 'node:path';

/** `core.fsmonitor` is run by every index read (`git status`, `git ls-files`); no hook may run either. */
export const UNTRUSTED_GIT_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];

/** Variables that would point git at another repository, index or object store than `top`'s. */
const LOCATION_VARS = [
  'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE', 'GIT_COMMON_DIR', 'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES', 'GIT_NAMESPACE', 'GIT_DISCOVERY_ACROSS_FILESYSTEM', 'GIT_PREFIX',
];

/**
 * This process's environment for a git run in the work tree `top`: no location override (a hook
 * inherits GIT_DIR / GIT_INDEX_FILE from a git hook it runs under), and discovery stops at `top`.
 */
export function untrustedGitEnv(top: string, base: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...base };
  for (const name of LOCATION_VARS) delete env[name];
  env.GIT_CEILING_DIRECTORIES = path.dirname(top);
  return env;
}
