// What the task handlers share: their context (as relay/actions/index.ts passes
// it), the hub lookup, and resolving a frame's repo and task to a bus and a packet.
import * as path from 'node:path';
import { CommandrError } from '../../protocol/wire/errors';
import type { ServerFrame } from '../../protocol/wire/frames';
import type { TaskSummary } from '../../protocol/wire/views';
import { BusError } from '../../bus/errors';
import type { ClientInfo, RelayServices } from '../context';
import { RepoHub } from '../watch/hub';
import type { RepoModel } from '../watch/repo-model';

export interface TaskActionContext {
  services: RelayServices;
  device: { id: string; name: string };
  /** The connection the frame came on (absent for POST /api/action). */
  client?: ClientInfo;
  send(frame: ServerFrame): void;
}

export function hubOf(services: RelayServices): RepoHub {
  const hub = services.hub;
  if (!(hub instanceof RepoHub)) throw new CommandrError('E_UNAVAILABLE', 'the repo watcher is not running');
  return hub;
}

export interface TaskPlace {
  hub: RepoHub;
  model: RepoModel;
  bus: string;
  summary: TaskSummary;
  /** Absolute path of the task's packet file. */
  packet: string;
}

/** Resolves `repo` and `task` of a frame (ids already validated by the wire schema). */
export function taskPlace(services: RelayServices, repo: string, task: string): TaskPlace {
  const hub = hubOf(services);
  const model = hub.model(repo);
  if (!model) throw new CommandrError('E_UNKNOWN_REPO', `no repo ${repo} is watched by this relay`);
  const summary = model.summary(task);
  if (!summary) throw new CommandrError('E_UNKNOWN_TASK', `repo ${model.info.name} has no task ${task}`);
  return { hub, model, bus: model.bus, summary, packet: path.join(model.bus, summary.state, summary.file) };
}

/** Turns a bus library error into the wire error a client understands. */
export function wireError(error: unknown): unknown {
  if (!(error instanceof BusError)) return error;
  switch (error.code) {
    case 'E_BAD_ID': return new CommandrError('E_BAD_ID', error.message);
    case 'E_BAD_PATH': return new CommandrError('E_BAD_PATH', error.message);
    case 'E_BAD_ARGS': case 'E_BAD_DIGEST': return new CommandrError('E_BAD_FRAME', error.message);
    case 'E_EXISTS': return new CommandrError('E_CONFLICT', error.message);
    case 'E_NOT_FOUND': return new CommandrError('E_UNKNOWN_TASK', error.message);
    default: return new CommandrError('E_INTERNAL', error.message);
  }
}
