// `artifact.open` (ARTIFACT-3): a paired device (the socket is authenticated) asks
// for an artifact a task emitted; the relay finds its `artifact_emitted` event,
// checks the worktree belongs to this repo and the file is still inside it and
// unchanged, and answers a short-lived URL. Anyone else has no way to ask.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { readArtifact } from '../../bus/artifacts';
import { BusError } from '../../bus/errors';
import { readEvents } from '../../bus/event-log';
import { locateGit } from '../../bus/locate';
import { ArtifactEmitted } from '../../protocol/bus/mcp-events';
type Emitted = import('zod/mini').infer<typeof ArtifactEmitted>;
import { CommandrError } from '../../protocol/wire/errors';
import type { ReadFrame } from '../../protocol/wire/frames';
import type { ArtifactOpenResult } from '../../protocol/wire/questions';
import type { ActionContext } from '../actions/index';
import { RepoHub } from '../watch/hub';
import { grantToken, TOKEN_MS } from './tokens';

type Open = Extract<ReadFrame, { type: 'artifact.open' }>;

export async function artifactOpen(ctx: ActionContext, frame: Open): Promise<ArtifactOpenResult> {
  const hub = ctx.services.hub;
  const bus = hub instanceof RepoHub ? hub.model(frame.repo)?.bus : undefined;
  if (!bus) throw new CommandrError('E_UNKNOWN_REPO', `no repo ${frame.repo}`);
  const event = findEmitted(bus, frame.task, frame.artifact);
  if (!event) throw new CommandrError('E_NOT_FOUND', `task ${frame.task} emitted no artifact ${frame.artifact}`);
  if (!sameBus(event.worktree, bus)) throw new CommandrError('E_BAD_PATH', `artifact ${frame.artifact} names a worktree outside this repo`);
  let file;
  try {
    file = readArtifact(event.worktree, event.path, event.kind);
  } catch (error) {
    if (error instanceof BusError) throw new CommandrError(error.code === 'E_NOT_FOUND' ? 'E_NOT_FOUND' : 'E_BAD_PATH', error.message);
    throw error;
  }
  if (file.digest !== event.digest) throw new CommandrError('E_CONFLICT', `${event.path} changed since it was emitted; ask the agent to emit it again`);
  const expires = Date.now() + TOKEN_MS;
  const token = grantToken(ctx.services, {
    worktree: event.worktree, path: event.path, digest: event.digest, kind: file.kind, mime: file.mime,
    name: path.basename(file.real), device: ctx.device.id, expires,
  });
  return { artifact: frame.artifact, url: `/api/artifacts?t=${token}`, kind: file.kind, mime: file.mime, bytes: file.bytes, expiresAt: new Date(expires).toISOString() };
}

function findEmitted(bus: string, task: string, artifact: string): Emitted | undefined {
  let found: Emitted | undefined;
  for (const event of readEvents(bus).events) {
    if (event.event !== 'artifact_emitted') continue;
    const parsed = ArtifactEmitted.safeParse(event);
    if (parsed.success && parsed.data.task === task && parsed.data.artifact === artifact) found = parsed.data;
  }
  return found;
}

/** The worktree must be a checkout of the repo whose bus this is (a forged event cannot point at `/`). */
export function sameBus(worktree: string, bus: string): boolean {
  try {
    if (!path.isAbsolute(worktree)) return false;
    return fs.realpathSync(locateGit(worktree, {}, false).bus) === fs.realpathSync(bus) && fs.realpathSync(locateGit(worktree, {}, false).worktree) === fs.realpathSync(worktree);
  } catch {
    return false;
  }
}

