// The permission service as server.ts builds it (one line there): requests in
// the data dir, frames to every device, a push per request (replaced quietly once it is
// settled: PERM-UI-5), a timeline line per outcome.
import type { RelayServices } from '../context';
import { permissionMessage, settledPermissionMessage } from '../push/messages';
import { RepoHub } from '../watch/hub';
import { PermissionService } from './service';

export { PermissionService } from './service';

export function startPermissions(services: RelayServices): PermissionService {
  return new PermissionService({
    dataDir: services.dataDir,
    broadcast: (frame) => services.broadcast(frame),
    notify: (view) => {
      try {
        services.push?.notify?.(view.status === 'pending' ? permissionMessage(view) : settledPermissionMessage(view));
      } catch (error) {
        services.log.error(error, 'push for a permission request');
      }
    },
    timeline: (event) => {
      const stored = services.live.record(event);
      services.broadcast({ type: 'live.event', at: stored.at, event: stored.event }, undefined, { ephemeral: true });
    },
    repoOf: (cwd) => {
      const hub = services.hub;
      if (!(hub instanceof RepoHub)) return null;
      const repo = hub.repos().find((r) => cwd === r.path || cwd.startsWith(`${r.path}/`));
      return repo ? repo.id : null;
    },
  });
}
