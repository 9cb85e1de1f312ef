// The watch service as server.ts builds it: a started RepoHub over the registry,
// --repo paths and (when there are none) the demo workspace, delivering to subscribers.
import type { RelayServices } from '../context';
import { DEMO_REVIEW_TASK, commitApprovedDemo } from '../demo/agent';
import { type DemoCommanders, dismissDemoCommanders } from '../demo/commander';
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
  // DEMO-5: the demo's agent commits once the person approved its change; closing the relay waits for it.
  hub.on('bus-event', (repo, event) => {
    if (!repo.demo || event.event !== 'approval_granted' || (event as { task?: string }).task !== DEMO_REVIEW_TASK) return;
    hub.track(commitApprovedDemo(repo.path).catch((error: unknown) => services.log.error(error, 'demo agent commit')));
  });
  await hub.start();
  // DEMO-6: demo commanders leave with the demo — when it steps aside, or at a start without it.
  const demoIds = new Set(hub.repos().filter((r) => r.demo).map((r) => r.id));
  hub.on('added', (id) => void (hub.model(id)?.info.demo && demoIds.add(id)));
  const dismiss = (): void => {
    const commanders = services.commanders as (DemoCommanders & object) | undefined;
    if (!commanders || typeof (commanders as Partial<DemoCommanders>).list !== 'function') return;
    void dismissDemoCommanders(commanders).catch((error: unknown) => services.log.error(error, 'removing demo commanders'));
  };
  hub.on('removed', (id) => {
    if (demoIds.delete(id)) dismiss();
  });
  // server.ts builds the commanders service right after this resolves, before the next turn.
  if (demoIds.size === 0) setImmediate(dismiss);
  return hub;
}
