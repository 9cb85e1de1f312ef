// Reference paths (CMDR-REF-n): what a commander operates ON. Each must be an
// absolute path to an existing directory that resolves (symlinks followed)
// inside one of the roots the person allowed; `..` segments are refused outright.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { CommandrError } from '../../protocol/wire/errors';

/** Real paths of the allowed roots that exist; the rest are dropped. */
export function resolveRoots(roots: string[]): string[] {
  const out: string[] = [];
  for (const root of roots) {
    try {
      const real = fs.realpathSync(path.resolve(root));
      if (fs.statSync(real).isDirectory() && !out.includes(real)) out.push(real);
    } catch {
      // A root that does not exist allows nothing.
    }
  }
  return out;
}

function inside(child: string, root: string): boolean {
  if (child === root) return true;
  const rel = path.relative(root, child);
  return rel !== '' && !rel.startsWith('..') && !path.isAbsolute(rel);
}

/** Returns the canonical (real) path, or throws E_BAD_PATH naming what is wrong. */
export function checkReferencePath(input: string, roots: string[]): string {
  const bad = (why: string) => new CommandrError('E_BAD_PATH', `reference path ${JSON.stringify(input)} ${why}`);
  if (input.length === 0) throw bad('is empty');
  if (/[\0\r\n]/.test(input)) throw bad('contains a control character');
  if (!path.isAbsolute(input)) throw bad('must be absolute');
  if (input.split(/[\\/]/).includes('..')) throw bad('must not contain ".." segments');
  let real: string;
  try {
    real = fs.realpathSync(input);
  } catch {
    throw bad('does not exist');
  }
  if (!fs.statSync(real).isDirectory()) throw bad('is not a directory');
  if (roots.length === 0) throw bad('cannot be allowed: no allowed roots are configured (serve with --allow-root <dir>)');
  if (!roots.some((root) => inside(real, root))) {
    throw bad(`resolves to ${real}, outside the allowed roots (${roots.join(', ')})`);
  }
  return real;
}
