// Finds the bus (`<main checkout>/.agents`) from any directory of a repo or of
// one of its linked worktrees by reading `.git` files, without spawning git (LAYOUT-1).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitSync } from './git/run';
import { BusError } from './errors';
import { readPlainText } from './plain-file';

/** Environment variables as read here (a plain record, so callers may pass `{}`). */
export type Env = Record<string, string | undefined>;

export interface GitPlace {
  /** The top of the work tree that holds `cwd` (the committing worktree). */
  worktree: string;
  /** This worktree's private git dir (`.git` or `.git/worktrees/<name>`). */
  gitDir: string;
  /** The repository's common git dir, real path. */
  commonDir: string;
  /** `dirname(commonDir) + '/.agents'`. */
  bus: string;
}

/** Where the `.git` entry of the nearest enclosing work tree is, or undefined. */
function findDotGit(start: string): string | undefined {
  let dir = path.resolve(start);
  for (;;) {
    const candidate = path.join(dir, '.git');
    if (fs.existsSync(candidate)) return candidate;
    const parent = path.dirname(dir);
    if (parent === dir) return undefined;
    dir = parent;
  }
}

/** `.git` is a directory (main checkout) or a file `gitdir: <path>` (worktree, submodule). */
function gitDirOf(dotGit: string): string | undefined {
  const stat = fs.statSync(dotGit);
  if (stat.isDirectory()) return dotGit;
  // A FIFO (or anything but a plain file) is never opened to wait for a writer (GITREAD-1).
  const text = readPlainText(dotGit, 64 * 1024);
  if (text === undefined) return undefined;
  const match = /^gitdir:\s*(.+?)\s*$/m.exec(text);
  return match ? path.resolve(path.dirname(dotGit), match[1]!) : undefined;
}

/** `<gitdir>/commondir` names the shared dir (relative to gitdir); absent = gitdir itself. */
function commonDirOf(gitDir: string): string {
  try {
    const rel = readPlainText(path.join(gitDir, 'commondir'), 64 * 1024)?.trim();
    if (rel === undefined) return fs.realpathSync(gitDir);
    return fs.realpathSync(path.resolve(gitDir, rel));
  } catch {
    return fs.realpathSync(gitDir);
  }
}

function placeFromGit(worktree: string, gitDir: string): GitPlace {
  const commonDir = commonDirOf(gitDir);
  return { worktree, gitDir, commonDir, bus: path.join(path.dirname(commonDir), '.agents') };
}

/** Odd layouts (bare repos, GIT_DIR without a work tree): ask git itself. */
function placeFromGitProcess(cwd: string): GitPlace | undefined {
  try {
    // This process's environment whole: GIT_DIR / GIT_WORK_TREE are how a hook names an odd layout.
    const out = gitSync(['rev-parse', '--absolute-git-dir', '--git-common-dir', '--show-toplevel'], { cwd, env: process.env }).toString('utf8');
    const [gitDir, common, top] = out.split('\n');
    if (!gitDir || !common) return undefined;
    const commonDir = fs.realpathSync(path.resolve(cwd, common));
    return { worktree: top || cwd, gitDir, commonDir, bus: path.join(path.dirname(commonDir), '.agents') };
  } catch {
    return undefined;
  }
}

/**
 * The git place of `cwd`. Honours GIT_DIR / GIT_WORK_TREE (set inside git hooks)
 * before walking up for `.git`. Throws E_NO_REPO outside any git work tree.
 */
export function locateGit(cwd: string = process.cwd(), env: Env = process.env, spawnFallback = true): GitPlace {
  const dotGit = findDotGit(cwd);
  const envGitDir = env.GIT_DIR?.trim();
  if (envGitDir) {
    const gitDir = path.resolve(cwd, envGitDir);
    const worktree = env.GIT_WORK_TREE?.trim() ? path.resolve(cwd, env.GIT_WORK_TREE) : dotGit ? path.dirname(dotGit) : cwd;
    if (fs.existsSync(gitDir)) return placeFromGit(worktree, gitDir);
  }
  if (dotGit) {
    const gitDir = gitDirOf(dotGit);
    if (gitDir && fs.existsSync(gitDir)) return placeFromGit(path.dirname(dotGit), gitDir);
  }
  const viaGit = spawnFallback ? placeFromGitProcess(cwd) : undefined;
  if (viaGit) return viaGit;
  throw new BusError('E_NO_REPO', `${path.resolve(cwd)} is not inside a git work tree`);
}

/** The bus of the repo holding `cwd`. */
export function locateBus(cwd: string = process.cwd(), env: Env = process.env): string {
  return locateGit(cwd, env).bus;
}

/** The bus for a repo path in the index fold: a git repo's bus, else `<dir>/.agents`. */
export function busOfDirectory(dir: string): string {
  try {
    return locateGit(dir, {}, false).bus;
  } catch {
    return path.join(path.resolve(dir), '.agents');
  }
}
