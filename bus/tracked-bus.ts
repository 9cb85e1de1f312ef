// Bus files a repository's git index tracks that are not meant to be shared (DOCTOR-2): only
// packets in inbox/ and done/, the .gitkeep files and registry.json travel with a repository
// (LAYOUT-4, the .gitignore lines of INIT-n). A tracked note, approval, verdict or event log came
// with whoever committed it — a clone of a hostile repository brings notes posing as the person's.
import { execFileSync } from 'node:child_process';
import * as path from 'node:path';
import { UNTRUSTED_GIT_CONFIG, untrustedGitEnv } from './untrusted-git';

const SHARED = /^\.agents\/((inbox|done)\/[^/]+\.md|(inbox|claimed|done|approvals|council|annotations)\/\.gitkeep|registry\.json)$/;

/** The paths under `.agents/` that `repo`'s index tracks and should not; throws when git cannot tell. */
export function unsharedTrackedBusFiles(repo: string): string[] {
  const top = path.resolve(repo);
  // Hardened like every git run on a repository we did not write (REPORTGIT-1): ls-files reads the index only.
  const out = execFileSync('git', [...UNTRUSTED_GIT_CONFIG, '--no-optional-locks', 'ls-files', '-z', '--', ':(top,icase,literal).agents'], {
    cwd: top, env: untrustedGitEnv(top), encoding: 'utf8', timeout: 10_000, maxBuffer: 64 * 1024 * 1024, stdio: ['ignore', 'pipe', 'pipe'],
  });
  return out.split('\0').filter((p) => p && !SHARED.test(p));
}

/** The bus entries to untrack, for the fix: `.agents/annotations` for every note under it, and so on. */
export function untrackTargets(files: string[]): string[] {
  return [...new Set(files.map((f) => f.split('/').slice(0, 2).join('/')))].sort();
}
