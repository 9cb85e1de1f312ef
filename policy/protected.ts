// Paths only a person may read or change (GUARD-4): the policy's globs made
// absolute (`~/…` under the home, `$COMMANDR_HOME/…` under Commandr's data dir,
// anything else under the repo), and a test of a file, a directory or a shell word
// (globs included: `~/.c*/h*`) against them, segment by segment.
import * as path from 'node:path';
import { globToRegExp } from './glob';

export interface PathContext {
  cwd: string;
  root: string;
  home?: string;
  commandrHome?: string;
}

/** The glob as an absolute pattern, or undefined when it names `~` and no home is known. */
export function absoluteGlob(glob: string, ctx: PathContext): string | undefined {
  const g = glob.replace(/^\.\//, '');
  if (g === '~' || g.startsWith('~/')) return ctx.home ? path.join(ctx.home, g.slice(1)) : undefined;
  if (g.startsWith('$COMMANDR_HOME')) return ctx.commandrHome ? path.join(ctx.commandrHome, g.slice(14)) : undefined;
  return path.isAbsolute(g) ? g : path.join(ctx.root, g);
}

/** Expands `~` at the start of a shell word and `$HOME`, `${HOME}`, `$COMMANDR_HOME` anywhere in it (`/proc/self/root$HOME/…`). */
export function expandWord(word: string, ctx: PathContext): string {
  const home = ctx.home ?? '~';
  return word
    .replace(/^~(?=\/|$)/, home)
    .replace(/\$\{HOME\}|\$HOME(?![A-Za-z0-9_])/g, home)
    .replace(/\$\{COMMANDR_HOME\}|\$COMMANDR_HOME(?![A-Za-z0-9_])/g, ctx.commandrHome ?? '$COMMANDR_HOME');
}

const segments = (p: string) => p.split('/').filter(Boolean);
const trailing = /\/\*\*$|\/\*$|\/$/;

/** One glob segment against one name, with the shell's rule that `*` never matches a leading dot. */
function segmentMatches(pattern: string, name: string): boolean {
  if (!/[*?[{]/.test(pattern)) return pattern === name;
  if (name.startsWith('.') && !pattern.startsWith('.') && /[*?[]/.test(pattern)) return false;
  return globToRegExp(pattern.replace(/\[[^\]]*\]/g, '?')).test(name);
}

/**
 * True when `target` (absolute; may hold glob characters) names the protected
 * area `glob` (absolute) or something inside it; with `ancestors`, also a directory
 * holding it (a recursive read of `~` reaches `~/.commandr`).
 */
export function touches(target: string, glob: string, ancestors: boolean): boolean {
  const stem = segments(glob.replace(trailing, ''));
  const parts = segments(path.normalize(target));
  for (let i = 0; i < Math.min(stem.length, parts.length); i++) {
    const part = parts[i]!;
    if (part === '**') return true;
    const s = stem[i]!;
    const hit = /[*?[{]/.test(s) ? globToRegExp(s).test(part) || segmentMatches(part, s) : segmentMatches(part, s);
    if (!hit) return false;
  }
  if (parts.length >= stem.length) return true;
  return ancestors;
}

/** The first protected glob `target` touches (made absolute with ctx), if any. */
export function protectedBy(target: string, globs: string[], ctx: PathContext, options: { ancestors?: boolean } = {}): string | undefined {
  for (const glob of globs) {
    const abs = absoluteGlob(glob, ctx);
    if (!abs) continue;
    // A recursive read of a directory holding the area reaches it — except the project
    // itself, whose reads (`grep -r x .`) leave git's own dot-directories out.
    const outsideRoot = !(abs === ctx.root || abs.startsWith(`${ctx.root}/`));
    if (touches(target, abs, Boolean(options.ancestors) && outsideRoot)) return glob;
  }
  return undefined;
}
