// Superseded by the one git runner (bus/git/run.ts, GITRUN-1), which hardens every run and strips
// location variables unless a caller passes its environment. Kept for code not yet moved over.
import { FIXED_CONFIG, runEnv } from './git/hardening';

/** The fixed part of the runner's hardening as `-c` pairs; the runner itself does more. */
export const UNTRUSTED_GIT_CONFIG = ['-c', 'core.fsmonitor=false', '-c', 'core.hooksPath=/dev/null'];

/** This process's environment for a git run in `top`, as the runner would make it (location variables stripped). */
export function untrustedGitEnv(top: string): NodeJS.ProcessEnv {
  return runEnv(undefined, top, FIXED_CONFIG);
}
