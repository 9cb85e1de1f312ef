// Artifact files (ARTIFACT-n): a file an agent produced, accepted only from inside
// its task's worktree (real paths compared, so no `..` or symlink leaves it), only
// a regular file, only up to ARTIFACT_MAX_BYTES. Used by `commandr mcp` when it
// registers one and by the relay each time it serves one.
import * as crypto from 'node:crypto';
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { ArtifactKind } from '../protocol/bus/mcp-events';
import { BusError, errnoOf } from './errors';

export const ARTIFACT_MAX_BYTES = 10 * 1024 * 1024;

const MIME: Record<string, string> = {
  '.png': 'image/png', '.jpg': 'image/jpeg', '.jpeg': 'image/jpeg', '.gif': 'image/gif', '.webp': 'image/webp',
  '.md': 'text/markdown', '.markdown': 'text/markdown',
  '.txt': 'text/plain', '.log': 'text/plain', '.json': 'application/json', '.csv': 'text/csv', '.xml': 'text/plain', '.yaml': 'text/plain', '.yml': 'text/plain',
  '.ts': 'text/plain', '.tsx': 'text/plain', '.js': 'text/plain', '.py': 'text/plain', '.sh': 'text/plain', '.diff': 'text/plain', '.patch': 'text/plain',
};

export interface ArtifactFile {
  /** Real path of the file. */
  real: string;
  /** Path relative to the worktree's real path, `/`-separated. */
  relative: string;
  bytes: number;
  digest: string;
  mime: string;
  kind: ArtifactKind;
  data: Buffer;
}

/** The served MIME type: images and text by extension, anything else a download. */
export function artifactMime(file: string): string {
  return MIME[path.extname(file).toLowerCase()] ?? 'application/octet-stream';
}

/** The kind the file is shown as. A declared kind only narrows: a `.html` named `image` is still a download. */
export function artifactKind(file: string, declared?: ArtifactKind): ArtifactKind {
  const mime = artifactMime(file);
  const detected: ArtifactKind = mime.startsWith('image/') ? 'image' : mime === 'text/markdown' ? 'markdown' : mime === 'application/octet-stream' ? 'file' : 'text';
  if (!declared || declared === detected) return detected;
  if (declared === 'file') return 'file';
  if (declared === 'text' && detected === 'markdown') return 'text';
  return detected;
}

/** Reads `requested` (absolute, or relative to `worktree`) when it is a regular file inside the worktree and within the size cap. */
export function readArtifact(worktree: string, requested: string, declared?: ArtifactKind): ArtifactFile {
  let root: string;
  try {
    root = fs.realpathSync(worktree);
  } catch {
    throw new BusError('E_BAD_PATH', `the task's worktree ${worktree} does not exist`);
  }
  let real: string;
  try {
    real = fs.realpathSync(path.resolve(root, requested));
  } catch (error) {
    const code = errnoOf(error);
    throw new BusError(code === 'ENOENT' ? 'E_NOT_FOUND' : 'E_BAD_PATH', `${requested} does not exist${code === 'ENOENT' ? '' : ` (${code})`}`);
  }
  if (!real.startsWith(root + path.sep)) throw new BusError('E_BAD_PATH', `${requested} is outside the task's worktree ${root}; only files inside it can be artifacts`);
  const stat = fs.statSync(real);
  if (!stat.isFile()) throw new BusError('E_BAD_PATH', `${requested} is not a regular file`);
  if (stat.size > ARTIFACT_MAX_BYTES) throw new BusError('E_BAD_ARGS', `${requested} is ${stat.size} bytes; an artifact may be at most ${ARTIFACT_MAX_BYTES} bytes`);
  const data = fs.readFileSync(real);
  if (data.length > ARTIFACT_MAX_BYTES) throw new BusError('E_BAD_ARGS', `${requested} grew past ${ARTIFACT_MAX_BYTES} bytes while being read`);
  const relative = path.relative(root, real).split(path.sep).join('/');
  return {
    real, relative, bytes: data.length, data, mime: artifactMime(real), kind: artifactKind(real, declared),
    digest: `sha256:${crypto.createHash('sha256').update(data).digest('hex')}`,
  };
}
