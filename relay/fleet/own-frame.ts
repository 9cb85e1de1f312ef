// The member's reading of a forwarded frame (FLEET-20, FLEETX-3..6): the device's
// labelled ids turned back into THIS machine's own — a repo it watches, or a
// request, job or commander id carrying its own prefix. Anything else is refused:
// the home can route only what this member announced, and never the home's own or
// another member's objects.
import { CommandrError } from '../../protocol/wire/errors';
import type { ForwardedFrame } from '../../protocol/wire/fleet';
import type { RelayServices } from '../context';
import { RepoHub } from '../watch/hub';
import { labelRepo } from './home';
import { unlabelId } from './labels';

export function ownFrame(services: RelayServices, machine: string | undefined, frame: ForwardedFrame): ForwardedFrame {
  if (!machine) throw new CommandrError('E_UNAVAILABLE', 'this member has no link to its home');
  const own = (labelled: string, what: string) => {
    const id = unlabelId(machine, labelled);
    if (id === undefined) throw new CommandrError('E_NOT_FOUND', `no ${what} ${labelled} on this machine`);
    return id;
  };
  if ('repo' in frame) {
    const hub = services.hub instanceof RepoHub ? services.hub : undefined;
    const repo = hub?.repos().find((r) => labelRepo(machine, r.id) === frame.repo);
    if (!repo) throw new CommandrError('E_UNKNOWN_REPO', `no repo ${frame.repo} is watched by this machine`);
    return { ...frame, repo: repo.id };
  }
  switch (frame.type) {
    case 'permission.decide': return { ...frame, request: own(frame.request, 'permission request') };
    case 'job.stop': return { ...frame, job: own(frame.job, 'job') };
    case 'commander.create': {
      if (frame.machine !== machine) throw new CommandrError('E_NOT_FOUND', `commander.create for machine ${frame.machine ?? '(the home)'} reached ${machine}`);
      const { machine: _m, ...rest } = frame;
      return rest;
    }
    default: return { ...frame, commander: own(frame.commander, 'commander') };
  }
}

/** The object a forwarded frame names, for the member's audit line. */
export function auditFields(frame: ForwardedFrame): Record<string, string> {
  if ('repo' in frame) return { repo: frame.repo, ...('task' in frame ? { task: frame.task } : {}) };
  switch (frame.type) {
    case 'permission.decide': return { request: frame.request };
    case 'job.stop': return { job: frame.job };
    case 'commander.create': return { machine: frame.machine ?? '' };
    default: return { commander: frame.commander };
  }
}
