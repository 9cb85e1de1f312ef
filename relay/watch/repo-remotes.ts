// Whether a task's branch has a remote to go to (FINISH-10): the one `task.push` and `task.pr` would
// use (relay/actions/task-push.ts remoteOf: the branch's upstream remote, else origin, with a URL), so
// the app never offers Push or Open pull request the relay would refuse. One `git config --list` per
// change of the repository's config files (GITRUN-5's cache), not one per task.
import { ConfigCache, cacheKey, parsePlace, watchedFiles } from '../../bus/git/config-cache';
import { parseConfigList } from '../../bus/git/hardening';
import { gitResultSync } from '../../bus/git/run';

const cache = new ConfigCache<Map<string, string>>();

function configOf(repo: string): Map<string, string> {
  const key = `remotes\0${cacheKey(repo, undefined, process.env)}`;
  const cached = cache.get(key);
  if (cached) return cached;
  const startedMs = Date.now();
  const list = gitResultSync(['config', '--list', '-z', '--show-scope', '--show-origin'], { cwd: repo, env: process.env });
  const entries = list.code === 0 ? parseConfigList(list.stdout, true) : [];
  const values = new Map(entries.map((e) => [e.key, e.value]));
  const place = gitResultSync(['rev-parse', '--absolute-git-dir', '--git-common-dir', '--show-cdup'], { cwd: repo, env: process.env });
  if (list.code === 0 && place.code === 0) {
    const withOrigin = entries.filter((e): e is typeof e & { origin: string } => e.origin !== undefined);
    cache.set(key, watchedFiles(repo, parsePlace(repo, place.stdout.toString('utf8')), withOrigin, process.env), startedMs, values);
  }
  return values;
}

/**
 * The remotes a task's branch goes to, in the order tried: its upstream's remote (`branch.<b>.remote`,
 * as given), else `origin`; never `.` (the repository itself) nor a name git would read as an option.
 */
export function remoteCandidates(upstream: string): string[] {
  return [upstream, 'origin'].filter((r) => r !== '' && r !== '.' && !r.startsWith('-'));
}

/** True when `branch` has a remote with a URL to go to; undefined when git could not say (the app then offers as before). */
export function hasRemote(repo: string, branch: string): boolean | undefined {
  let config: Map<string, string>;
  try {
    config = configOf(repo);
  } catch {
    return undefined;
  }
  return remoteCandidates(config.get(`branch.${branch}.remote`) ?? '').some((r) => (config.get(`remote.${r}.url`) ?? '') !== '');
}
