// Bus files a repository's git index tracks that are not meant to be shared (DOCTOR-2): only
// packets in inbox/ and done/, the .gitkeep files and registry.json travel with a repository
// (LAYOUT-4, the .gitignore lines of INIT-n). A tracked note, approval, verdict or event log came
// with whoever committed it — a clone of a hostile repository brings notes posing as the person's.
import * as path from 'node:path';
import { gitSync } from './git/run';

const SHARED = /^\.agents\/((inbox|done)\/[^/]+\.md|(inbox|claimed|done|approvals|council|annotations)\/\.gitkeep|registry\.json)$/;

/** The paths under `.agents/` that `repo`'s index tracks and should not; throws when git cannot tell. */
export function unsharedTrackedBusFiles(repo: string): string[] {
  const top = path.resolve(repo);
  // Through the hardened runner (GITRUN-1), discovery stopped at the work tree: ls-files reads the index only.
  const out = gitSync(['--no-optional-locks', 'ls-files', '-z', '--', ':(top,icase,literal).agents'], { cwd: top, top, timeoutMs: 10_000 }).toString('utf8');
  return out.split('\0').filter((p) => p && !SHARED.test(p));
}

/** The bus entries to untrack, for the fix: `.agents/annotations` for every note under it, and so on. */
export function untrackTargets(files: string[]): string[] {
  return [...new Set(files.map((f) => f.split('/').slice(0, 2).join('/')))].sort();
}
