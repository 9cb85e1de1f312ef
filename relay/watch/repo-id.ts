// A repo's wire id (`<basename>-<8 hex of sha256(realpath)>`, RepoId in protocol/wire):
// stable across restarts, distinct for two repos with the same name, safe as a file name.
import { createHash } from 'node:crypto';
import * as path from 'node:path';

export function repoIdOf(realPath: string): string {
  const hash = createHash('sha256').update(realPath).digest('hex').slice(0, 8);
  return `${safeName(path.basename(realPath))}-${hash}`;
}

/** The base name reduced to the RepoId alphabet; `repo` when nothing usable is left. */
function safeName(base: string): string {
  const cleaned = base.replace(/[^A-Za-z0-9._-]/g, '-').replace(/^[^A-Za-z0-9]+/, '').slice(0, 80);
  return cleaned.length > 0 ? cleaned : 'repo';
}
