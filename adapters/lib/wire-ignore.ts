// Keeping the files `wire` writes for this machine out of commits (WIREPATH-1): the repo's
// `.gitignore` gets a line for each unless git already ignores it.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { gitResultSync } from '../../bus/git/run';
import { WireError, type WireLine } from './wire-report';

/** Whether git ignores `rel` in `root`; undefined when `root` is not in a git work tree. */
function ignored(root: string, rel: string): boolean | undefined {
  let code: number;
  try {
    code = gitResultSync(['check-ignore', '-q', '--no-index', '--', rel], { cwd: root, env: process.env }).code;
  } catch {
    return undefined; // git could not run
  }
  return code === 0 ? true : code === 1 ? false : undefined;
}

/**
 * Refuses a `.gitignore` that is a symlink (a cloned repo can track one pointing anywhere, and
 * git itself does not read it): wire would append to the file it names. Call before writing anything.
 */
export function assertIgnoreFile(root: string): void {
  const file = path.join(root, '.gitignore');
  let link = false;
  try {
    link = fs.lstatSync(file).isSymbolicLink();
  } catch {
    return;
  }
  if (link) throw new WireError('E_BAD_SETTINGS', `${file} is a symlink; git does not read it and wire will not write through it: replace it with a regular file and run wire again — nothing was changed`);
}

/** Adds `/<rel>` to `<root>/.gitignore` unless git ignores it already (no line outside a git work tree). */
export function ensureIgnored(root: string, rel: string, dryRun: boolean): WireLine | undefined {
  assertIgnoreFile(root);
  if (ignored(root, rel) !== false) return undefined;
  const file = path.join(root, '.gitignore');
  let text = '';
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw new WireError('E_IO', `cannot read ${file}: ${(error as Error).message}`);
  }
  if (!dryRun) {
    const prefix = text.length > 0 && !text.endsWith('\n') ? '\n' : '';
    try {
      fs.appendFileSync(file, `${prefix}/${rel}\n`);
    } catch (error) {
      throw new WireError('E_IO', `cannot write ${file}: ${(error as Error).message}`);
    }
  }
  return { file, status: dryRun ? 'would fix' : 'fixed', detail: `ignores /${rel}` };
}
