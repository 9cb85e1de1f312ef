// The watch service as server.ts builds it: a started RepoHub over the registry,
// --repo paths and (when there are none) the demo workspace, delivering to subscribers.
import type { RelayServices } from '../context';
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
  await hub.start();
  return hub;
}
