// `GET /api/artifacts?t=<token>` (ARTIFACT-4): serves the file a device was
// granted by `artifact.open`, re-checked (inside the worktree, size cap, same
// digest) at every read. Images and text inline, everything else as a download;
// `nosniff` and a sandboxing CSP so nothing served here can run as a page.
import type * as http from 'node:http';
import { readArtifact } from '../../bus/artifacts';
import { CommandrError } from '../../protocol/wire/errors';
import type { RelayServices } from '../context';
import { redeemToken } from './tokens';

export async function getArtifact(services: RelayServices, req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
  const token = new URL(req.url ?? '/', 'http://relay').searchParams.get('t') ?? '';
  const grant = /^[A-Za-z0-9_-]{43}$/.test(token) ? redeemToken(services, token) : undefined;
  if (!grant) throw new CommandrError('E_UNAUTHORIZED', 'artifact links are given to paired devices only and expire after a few minutes; open the artifact again from the app');
  if (!services.devices.list().some((d) => d.id === grant.device)) throw new CommandrError('E_UNAUTHORIZED', 'the device this link was given to is no longer paired');
  let file;
  try {
    file = readArtifact(grant.worktree, grant.path, grant.kind);
  } catch (error) {
    throw new CommandrError('E_NOT_FOUND', error instanceof Error ? error.message : 'the artifact is gone');
  }
  if (file.digest !== grant.digest) throw new CommandrError('E_CONFLICT', `${grant.path} changed since it was emitted`);
  const inline = grant.kind === 'image' || grant.kind === 'markdown' || grant.kind === 'text';
  const type = inline && grant.mime.startsWith('text/') ? `${grant.mime}; charset=utf-8` : grant.mime;
  res.writeHead(200, {
    'content-type': inline ? type : 'application/octet-stream',
    'content-length': file.bytes,
    'content-disposition': `${inline ? 'inline' : 'attachment'}; filename="${grant.name.replace(/[^A-Za-z0-9._-]/g, '_')}"`,
    'cache-control': 'private, max-age=300',
    'x-content-type-options': 'nosniff',
    'content-security-policy': "default-src 'none'; img-src 'self'; sandbox",
  });
  res.end(req.method === 'HEAD' ? undefined : file.data);
}
