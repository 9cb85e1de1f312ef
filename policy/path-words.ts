// Every path a shell command may name (POLPATH-1…4): each argument and redirection
// target, the value of every `--opt=value` / `key=value` word, every attached short
// option value (`-oVALUE`, `-rf.git/config`), relative to the working directory and to
// each directory the line moves to (`git -C dir`, `make --directory=dir`, `cd dir`) —
// then resolved the way the kernel would: symbolic links followed one component at a
// time, `..` applied after them. A path through `/proc/<pid>/root|cwd|fd…` or `/dev/fd`
// names whatever another process sees, which the policy cannot know: it is `unsafe`.
import * as path from 'node:path';
import { type Invocation, programOf } from './command';
import { globToRegExp } from './glob';
import { type PathContext, expandWord } from './protected';

/** Reads a symbolic link; throws `EINVAL` for a file that is not one, `ENOENT` for none. */
export type Readlink = (file: string) => string;
/** Lists a directory's entry names; throws when it cannot. */
export type Readdir = (dir: string) => string[];

/** The file system as the policy may look at it (the hook passes node's; absent, paths stay lexical). */
export interface FsView {
  readlink?: Readlink;
  readdir?: Readdir;
  /** Paths still to be checked for this command; past it the command is asked, so a huge one cannot stall the hook. */
  budget?: { left: number };
}

/** Most paths one command's words may make (each word, value, suffix, base and glob match). */
export const PATH_BUDGET = 4096;

export interface NamedPath {
  /** The shell word (as written) the path came from. */
  word: string;
  /** The absolute paths to check: as written, and as the kernel would resolve it. */
  paths: string[];
  /** Why the path cannot be known here, when it cannot. */
  unsafe?: string;
}

/** Longest short-option word (`-rf.git/config`) whose every suffix is checked; a longer one is asked. */
const MAX_OPTION_WORD = 256;
const MAX_LINKS = 40;
/** Most files a glob word is expanded to; one matching more is checked only as written. */
const MAX_GLOB = 256;
/** A directory entry that is another process's view of the file system (or an open file). */
const PROC_VIEW = /^\/proc\/[^/]+\/(?:task\/[^/]+\/)?(?:root|cwd|fd|fdinfo|map_files|exe)(?:\/|$)|^\/dev\/fd(?:\/|$)/;
const PLAIN_DEVICES = new Set(['/dev/null', '/dev/stdin', '/dev/stdout', '/dev/stderr', '/dev/tty', '/dev/zero', '/dev/urandom', '/dev/random']);
/** The only `/proc` files a command may name unasked: the rest show processes' memory, environment (credentials) and files. */
const PLAIN_PROC = /^\/proc\/(cpuinfo|meminfo|version|loadavg|uptime|stat|filesystems|mounts|swaps|partitions)$|^\/proc$/;
/** Options (of git, make, tar, npm, …) whose value is the directory the other paths are relative to. */
const DIR_OPTIONS = /^(--directory|--chdir|--cwd|--prefix|--work-tree|--git-dir|--dir|--root)=/;

/** Most words one brace expansion may make; beyond it the word is checked as written only. */
const MAX_BRACES = 64;

/** The words bash's brace expansion makes of `text` (`{a,b}/x` → `a/x`, `b/x`), the text itself included. */
export function expandBraces(text: string, limit = MAX_BRACES): string[] {
  const open = text.indexOf('{');
  if (open < 0) return [text];
  let depth = 0;
  const commas: number[] = [];
  for (let i = open; i < text.length; i++) {
    const c = text[i];
    if (c === '{') depth++;
    else if (c === ',' && depth === 1) commas.push(i);
    else if (c === '}' && --depth === 0) {
      if (commas.length === 0) break;
      const cuts = [open, ...commas, i];
      const out = new Set<string>([text]);
      for (let k = 0; k + 1 < cuts.length && out.size <= limit; k++) {
        for (const tail of expandBraces(`${text.slice(0, open)}${text.slice(cuts[k]! + 1, cuts[k + 1])}${text.slice(i + 1)}`, limit)) out.add(tail);
      }
      return [...out].slice(0, limit + 1);
    }
  }
  const rest = expandBraces(text.slice(open + 1), limit);
  return [text, ...rest.slice(1).map((r) => `${text.slice(0, open + 1)}${r}`)];
}

/** Long options that name a file the program writes (`git log --output=`, `format-patch --output-directory`). */
const WRITING_LONG = /^--(output|output-directory|output-file|out-file|log-file)(=|$)/;

/**
 * The option word by which an invocation writes a file (POLPATH-1), if any: a command allowed
 * as a read (`git log`) that writes a file anywhere is a write, asked like `>` into a file.
 */
export function writingOption(inv: Invocation): string | undefined {
  const program = programOf(inv);
  const words = inv.argv.slice(1).map((w) => w.text);
  // `-o` writes for `git format-patch` and `sort`; elsewhere it means other things (`git commit -o`, `grep -o`).
  const shortO = program === 'sort' || (program === 'git' && words.includes('format-patch'));
  for (let i = 0; i < words.length; i++) {
    const w = words[i]!;
    if (w === '--') break;
    const long = WRITING_LONG.exec(w);
    const short = shortO && /^-o/.test(w);
    if (!long && !short) continue;
    const attached = long ? long[2] === '=' : w.length > 2;
    const value = attached ? w.slice(long ? w.indexOf('=') + 1 : 2) : words[i + 1];
    if (value !== '/dev/null') return w;
  }
  return undefined;
}

/** The texts a word may hand a program as a path. */
function pathTexts(word: string, plausible: (suffix: string) => boolean): string[] {
  return [...new Set(expandBraces(word).flatMap((text) => optionTexts(text, plausible)))];
}

/** The word, its `=` value, and each suffix of a short-option word that could name a file. */
function optionTexts(text: string, plausible: (suffix: string) => boolean): string[] {
  const out = [text];
  const eq = text.indexOf('=');
  if (eq > 0) out.push(text.slice(eq + 1));
  if (/^-[^-]/.test(text) && text.length <= MAX_OPTION_WORD) {
    for (let k = 2; k < text.length; k++) if (plausible(text.slice(k))) out.push(text.slice(k));
  }
  return out.filter(Boolean);
}

/**
 * Whether an attached option value (`-fVALUE`) could name a protected file: an absolute or
 * home path, a dot name (`.git`, `..`), or a name that exists in a base directory (a link).
 * Checking only these keeps a long bundle of flags (`-la`) cheap.
 */
function plausibleSuffix(bases: string[], readdir: Readdir | undefined): (suffix: string) => boolean {
  const names = new Map<string, Set<string>>();
  const entries = (dir: string) => {
    let set = names.get(dir);
    if (!set) {
      try { set = new Set(readdir ? readdir(dir) : []); } catch { set = new Set(); }
      names.set(dir, set);
    }
    return set;
  };
  return (suffix) => /^[/.~$]/.test(suffix) || bases.some((base) => entries(base).has(suffix.split('/', 1)[0]!));
}

/** Directories the line's relative paths may be relative to: the cwd, `-C dir`, `--directory=dir`, `cd dir`. */
export function baseDirs(parts: Invocation[], ctx: PathContext): string[] {
  const bases = new Set([ctx.cwd]);
  const add = (dir: string | undefined) => {
    const expanded = dir === undefined ? '' : expandWord(dir, ctx);
    if (expanded && !expanded.includes('$')) bases.add(path.resolve(ctx.cwd, expanded));
  };
  for (const inv of parts) {
    const words = inv.argv.map((w) => w.text);
    if (/^(cd|pushd)$/.test(programOf(inv))) add(words.slice(1).find((w) => !w.startsWith('-')) ?? ctx.home);
    words.forEach((w, i) => {
      if (w === '-C' || /^--(directory|chdir|cwd|prefix|work-tree|git-dir)$/.test(w)) add(words[i + 1]);
      else if (/^-C./.test(w)) add(w.slice(2));
      else if (DIR_OPTIONS.test(w)) add(w.slice(w.indexOf('=') + 1));
    });
  }
  return [...bases];
}

/** Every path an invocation's words and redirections may name. */
export function namedPaths(inv: Invocation, bases: string[], ctx: PathContext, view: FsView = {}): NamedPath[] {
  const words = [...inv.argv.slice(1), ...inv.redirects.flatMap((r) => (r.target ? [r.target] : []))];
  const out: NamedPath[] = [];
  const plausible = plausibleSuffix(bases, view.readdir);
  for (const word of words) {
    if (/^-[^-]/.test(word.text) && word.text.length > MAX_OPTION_WORD) {
      out.push({ word: word.text, paths: [], unsafe: `an option word of ${word.text.length} characters is too long to check` });
      continue;
    }
    for (const text of pathTexts(word.text, plausible)) {
      const expanded = expandWord(text, ctx);
      // bash expands `~name` at a word's start and after `=` of an assignment-like word (`x=~name`).
      if (/^~[^/]/.test(expanded) && (text === word.text || new RegExp(`^[A-Za-z_][A-Za-z0-9_]*=${escape(text)}$`).test(word.text))) {
        out.push({ word: word.text, paths: [], unsafe: `${text} names another user's home or a directory stack entry` });
        continue;
      }
      if (expanded.includes('$') || expanded.startsWith('~')) continue;
      // Joined as text, not path.join: `..` must apply after the links before it (`link/../x`).
      for (const base of path.isAbsolute(expanded) ? [''] : bases) {
        const written = `${base}/${expanded}`;
        if (view.budget && --view.budget.left < 0) return [...out, { word: word.text, paths: [], unsafe: `the command names more than ${PATH_BUDGET} paths, too many to check` }];
        out.push(resolveNamed(word.text, written, view.readlink));
        // The shell expands a glob before the program sees it: `src/cre*/key` may go through a link.
        if (word.glob && view.readdir) for (const file of expandGlob(written, view.readdir)) out.push(resolveNamed(word.text, file, view.readlink));
      }
    }
  }
  return out;
}

/** The existing files a glob path names, as the shell would expand it (dot files only by a dot pattern). */
export function expandGlob(written: string, readdir: Readdir): string[] {
  let found = [''];
  for (const segment of written.split('/').filter(Boolean)) {
    if (!/[*?[]/.test(segment)) { found = found.map((dir) => `${dir}/${segment}`); continue; }
    const pattern = globToRegExp(segment.replace(/\[[^\]]*\]/g, '?'));
    const next: string[] = [];
    for (const dir of found) {
      let names: string[];
      try { names = readdir(dir || '/'); } catch { continue; }
      for (const name of names) {
        if (name.startsWith('.') && !segment.startsWith('.')) continue;
        if (pattern.test(name)) next.push(`${dir}/${name}`);
      }
    }
    if (next.length > MAX_GLOB) return [];
    found = next;
  }
  return found;
}

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** `readlink` remembered for one command: a word's every suffix resolves the same directories again. */
export function memoReadlink(readlink: Readlink | undefined): Readlink | undefined {
  if (!readlink) return undefined;
  const known = new Map<string, { target?: string; error?: unknown }>();
  return (file) => {
    let hit = known.get(file);
    if (!hit) {
      try { hit = { target: readlink(file) }; } catch (error) { hit = { error }; }
      known.set(file, hit);
    }
    if (hit.error !== undefined) throw hit.error;
    return hit.target!;
  };
}

/** A path as written (absolute, `..` unresolved) → the paths to check, or why it cannot be known. */
export function resolveNamed(word: string, written: string, readlink?: Readlink): NamedPath {
  const lexical = path.normalize(written);
  if (PLAIN_DEVICES.has(lexical)) return { word, paths: [lexical] };
  // As written too (`.` and `//` dropped, `..` kept): `/proc/1/cwd/../x` goes through `cwd` first.
  const asWritten = `/${written.split('/').filter((s) => s && s !== '.').join('/')}`;
  if (PROC_VIEW.test(lexical) || PROC_VIEW.test(asWritten) || (/^\/(proc|dev)\//.test(lexical) && /[*?[]/.test(lexical))) {
    return { word, paths: [lexical], unsafe: `${lexical} goes through another process's view of the files` };
  }
  if ((/^\/proc(\/|$)/.test(lexical) || /^\/proc(\/|$)/.test(asWritten)) && !PLAIN_PROC.test(lexical)) {
    return { word, paths: [lexical], unsafe: `${lexical} shows a process's memory, environment or files` };
  }
  if (!readlink) return { word, paths: [lexical] };
  const real = kernelPath(written, readlink);
  if ('unsafe' in real) return { word, paths: [lexical], unsafe: real.unsafe };
  return { word, paths: [...new Set([lexical, real.path])] };
}

/** Resolves `abs` one component at a time as the kernel would; past the first missing component, lexically. */
export function kernelPath(abs: string, readlink: Readlink): { path: string } | { unsafe: string } {
  const pending = abs.split('/').filter(Boolean);
  let current = '/';
  let links = 0;
  let missing = false;
  while (pending.length > 0) {
    const name = pending.shift()!;
    if (name === '.') continue;
    if (name === '..') { current = path.dirname(current); continue; }
    const next = path.join(current, name);
    if (PROC_VIEW.test(next)) return { unsafe: `${abs} goes through ${next}, another process's view of the files` };
    if (/^\/proc\/[^/]+$/.test(next) && !PLAIN_PROC.test(next)) return { unsafe: `${abs} goes through ${next}, a process's memory, environment or files` };
    if (missing) { current = next; continue; }
    let target: string | undefined;
    try {
      target = readlink(next);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code;
      if (code === 'ENOENT' || code === 'ENOTDIR') missing = true;
      else if (code !== 'EINVAL') return { unsafe: `${next} cannot be resolved (${code ?? 'error'})` };
      current = next;
      continue;
    }
    if (++links > MAX_LINKS) return { unsafe: `${abs} has too many symbolic links to resolve` };
    pending.unshift(...target.split('/').filter(Boolean));
    if (target.startsWith('/')) current = '/';
  }
  return { path: current };
}
