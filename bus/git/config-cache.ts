// The repository's effective config, read once and kept while no file it came from (or could come
// from) has changed (GITRUN-5). Reading it costs a git process; approve runs `write-tree`, which
// needs it, on every tap. Kept only when every file's last change (ctime, which no one can set
// back, unlike mtime) is older than the read by a margin: a rewrite within one timestamp tick
// (the kernel's coarse clock) cannot then look unchanged (git's own "racily clean" idea).
import { statSync } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import type { ConfigEntry } from './hardening';

/** A file changed less than this before a read makes the read uncacheable (coarse clock ticks are ≤ 10 ms). */
export const RACY_MS = 100;
const MAX_ENTRIES = 256;

/**
 * Identity of a path now: absent, or inode, size, and both change times to the nanosecond. A
 * directory (a `.git` that is not a gitfile) only by identity: git changes it on every write.
 */
function stamp(file: string): string {
  try {
    const s = statSync(file, { bigint: true });
    if (s.isDirectory()) return `d:${s.dev}:${s.ino}`;
    return `${s.dev}:${s.ino}:${s.size}:${s.mtimeNs}:${s.ctimeNs}`;
  } catch {
    return '-';
  }
}

function changedAt(file: string): bigint {
  try {
    const s = statSync(file, { bigint: true });
    return s.isDirectory() ? 0n : s.ctimeNs;
  } catch {
    return 0n;
  }
}

interface Entry<T> { files: Map<string, string>; value: T }

/** Everything of the environment that decides which config files git reads and how. */
export function cacheKey(cwd: string, top: string | undefined, env: NodeJS.ProcessEnv): string {
  const parts = [path.resolve(cwd), top ?? ''];
  for (const [k, v] of Object.entries(env).sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (k.startsWith('GIT_') || k === 'HOME' || k === 'XDG_CONFIG_HOME' || k === 'PREFIX') parts.push(`${k}=${v}`);
  }
  return parts.join('\0');
}

/** Where the repository is: from `git rev-parse --absolute-git-dir --git-common-dir --show-cdup`. */
export interface RepoPlace { gitDir: string; commonDir: string; top: string | undefined }

export function parsePlace(cwd: string, out: string): RepoPlace {
  // Each value ends in a newline; a bare repository prints no cdup line (an empty one is the top itself).
  const lines = out.split('\n');
  const gitDir = lines[0]!;
  const commonDir = path.resolve(cwd, lines[1] ?? gitDir);
  const top = lines.length >= 4 ? path.resolve(cwd, lines[2]!) : undefined;
  return { gitDir, commonDir, top };
}

function expandHome(p: string, env: NodeJS.ProcessEnv): string {
  return p.startsWith('~/') ? path.join(env.HOME ?? os.homedir(), p.slice(2)) : p;
}

/**
 * Every path whose change could change the config git reads here: the repository's config files
 * (present or not), the person's and the system's, every file an entry came from, every file an
 * include names (present or not), and each `.git` between cwd and the top (a new one moves discovery).
 */
export function watchedFiles(cwd: string, place: RepoPlace, entries: readonly (ConfigEntry & { origin: string })[], env: NodeJS.ProcessEnv): string[] {
  const home = env.HOME ?? os.homedir();
  const files = new Set<string>([
    path.join(place.gitDir, 'config'), path.join(place.gitDir, 'config.worktree'),
    path.join(place.commonDir, 'config'), path.join(place.commonDir, 'config.worktree'),
    env.GIT_CONFIG_GLOBAL ?? path.join(home, '.gitconfig'),
    path.join(env.XDG_CONFIG_HOME ?? path.join(home, '.config'), 'git', 'config'),
    env.GIT_CONFIG_SYSTEM ?? '/etc/gitconfig',
  ]);
  const base = place.top ?? path.resolve(cwd);
  for (const e of entries) {
    if (!e.origin.startsWith('file:')) continue;
    const from = path.resolve(base, expandHome(e.origin.slice(5), env));
    files.add(from);
    if (/^include(if\..*)?\.path$/i.test(e.key) && e.value !== '') files.add(path.resolve(path.dirname(from), expandHome(e.value, env)));
  }
  if (place.top) {
    for (let dir = path.resolve(cwd); ; dir = path.dirname(dir)) {
      files.add(path.join(dir, '.git'));
      if (dir === place.top || path.dirname(dir) === dir || !dir.startsWith(place.top)) break;
    }
  }
  return [...files];
}

/** A small map from cacheKey to a value read from config, valid while its files stay as they were. */
export class ConfigCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  /** How many lookups found a valid entry (for tests and benches). */
  hits = 0;

  get(key: string): T | undefined {
    const e = this.entries.get(key);
    if (!e) return undefined;
    for (const [file, was] of e.files) {
      if (stamp(file) !== was) {
        this.entries.delete(key);
        return undefined;
      }
    }
    this.hits++;
    return e.value;
  }

  /** Whether a read that started at `startedMs` could be kept: no existing file changed within RACY_MS of it. */
  static cacheable(files: readonly string[], startedMs: number): boolean {
    const limit = BigInt(Math.floor(startedMs - RACY_MS)) * 1_000_000n;
    return files.every((f) => changedAt(f) < limit);
  }

  /**
   * Keeps `value`, read from config in a run that began at `startedMs`, if every file is older than
   * that by RACY_MS once stamped: a file changed after the read is then seen as younger, so a kept
   * value is always the files' content as stamped. Returns whether it was kept.
   */
  set(key: string, files: readonly string[], startedMs: number, value: T): boolean {
    const stamps = new Map(files.map((f) => [f, stamp(f)]));
    if (!ConfigCache.cacheable(files, startedMs)) return false;
    if (this.entries.size >= MAX_ENTRIES) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(key, { files: stamps, value });
    return true;
  }

  clear(): void {
    this.entries.clear();
  }
}
