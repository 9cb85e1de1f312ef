// Which repos the relay watches: the user's registry file (one path a line,
// blank and `#` lines skipped), `--repo` paths, and the demo workspace when there are none.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { busOfDirectory } from '../../bus/locate';
import type { RepoInfo } from '../../protocol/wire/views';
import { repoIdOf } from './repo-id';

export interface RepoPlace {
  info: RepoInfo;
  bus: string;
}

/** Paths listed in the registry file; a missing file lists none. */
export function readRegistry(file: string): string[] {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return [];
  }
  return text.split(/\r?\n/).map((l) => l.trim()).filter((l) => l !== '' && !l.startsWith('#'));
}

/** The repo at `dir` (real path), or an error sentence when it cannot be watched. */
export function placeOf(dir: string, demo = false): RepoPlace | string {
  let real: string;
  try {
    real = fs.realpathSync(dir);
  } catch {
    return `repo ${dir} does not exist`;
  }
  const bus = busOfDirectory(real);
  if (!fs.existsSync(bus)) return `repo ${real} has no .agents/ bus (run \`commandr init\` there)`;
  const top = path.dirname(bus);
  return { info: { id: repoIdOf(top), name: path.basename(top), path: top, demo }, bus };
}
