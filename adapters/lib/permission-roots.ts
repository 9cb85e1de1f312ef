// Where a headless job or commander may edit (GUARD-8): its working directory
// (AGENT_CWD — the job's worktree, the commander's own directory) plus the
// commander's reference paths (AGENT_EDIT_ROOTS, path-delimiter separated),
// compared by real path so a symlink inside the worktree cannot lead outside it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { Env } from './env';

/** Real paths of every root a job may edit; empty outside a job. */
export function editRoots(env: Env = process.env): string[] {
  if (!env.AGENT_MODE?.trim()) return [];
  const listed = [env.AGENT_CWD?.trim() || '', ...(env.AGENT_EDIT_ROOTS ?? '').split(path.delimiter)].filter(Boolean);
  return [...new Set(listed.map((dir) => realpathOrSelf(path.resolve(dir))))];
}

/** The real path of a file, or of its nearest existing parent plus the rest (a file about to be made). */
export function realTarget(file: string): string {
  const tail: string[] = [];
  let dir = path.resolve(file);
  for (;;) {
    try {
      return path.join(fs.realpathSync(dir), ...tail.reverse());
    } catch {
      const parent = path.dirname(dir);
      if (parent === dir) return path.resolve(file);
      tail.push(path.basename(dir));
      dir = parent;
    }
  }
}

function realpathOrSelf(dir: string): string {
  try {
    return fs.realpathSync(dir);
  } catch {
    return dir;
  }
}

const EDIT_FIELDS = ['file_path', 'filePath', 'notebook_path', 'path'] as const;

/**
 * For an edit tool in a job: undefined when every file it names is inside a root,
 * else the sentence that refuses it.
 */
export function outsideRoots(input: Record<string, unknown>, cwd: string, roots: string[]): string | undefined {
  if (roots.length === 0) return undefined;
  const files = EDIT_FIELDS.map((k) => input[k]).filter((v): v is string => typeof v === 'string' && v.length > 0);
  for (const file of files) {
    const real = realTarget(path.resolve(cwd, file));
    if (!roots.some((root) => real === root || real.startsWith(`${root}${path.sep}`))) {
      return `${file} is outside this job's worktree (${roots.join(', ')}): a headless job may only edit files there`;
    }
  }
  return undefined;
}

/**
 * A job's say on an edit before the policy's answer is used: `deny` outside its roots;
 * `intent` when the policy only asks because the file is outside a task scope — inside
 * the job's roots the launch intent (the person who started the job) already decided.
 */
export function jobEdit(tool: string, input: Record<string, unknown>, cwd: string, editTools: string[], rule: string, env: Env = process.env):
  { kind: 'deny'; reason: string } | { kind: 'intent' } | undefined {
  const roots = editRoots(env);
  if (roots.length === 0 || !editTools.some((t) => t.toLowerCase() === tool.toLowerCase())) return undefined;
  const outside = outsideRoots(input, cwd, roots);
  if (outside) return { kind: 'deny', reason: `Commandr (GUARD-8): ${outside}` };
  return rule === 'scope' ? { kind: 'intent' } : undefined;
}
