// The watch service as server.ts builds it: a started RepoHub over the registry,
// --repo paths and (when there are none) the demo workspace, delivering to subscribers.
import type { RelayServices } from '../context';
import { DEMO_REVIEW_TASK, commitApprovedDemo } from '../demo/agent';
import { ensureDemo } from '../demo/workspace';
import { RepoHub } from './hub';
import { deliverHub } from './subscribe';

export { RepoHub } from './hub';
export { subscribe } from './subscribe';

export async function startWatch(services: RelayServices): Promise<RepoHub> {
  const { options } = services;
  const hub = new RepoHub({
    dataDir: options.dataDir,
    repos: options.repos,
    registryFile: options.registryFile,
    demo: options.demo,
    log: services.log,
    ensureDemo,
  });
  deliverHub(services, hub);
  // DEMO-5: the demo's agent commits once the person approved its change.
  hub.on('bus-event', (repo, event) => {
    if (!repo.demo || event.event !== 'approval_granted' || (event as { task?: string }).task !== DEMO_REVIEW_TASK) return;
    void commitApprovedDemo(repo.path).catch((error: unknown) => services.log.error(error, 'demo agent commit'));
  });
  await hub.start();
  return hub;
}
