// The jobs world, fresh for each test: a bus repo with a first commit and the
// given inbox packets, a relay fixture (the fake adapter installed) watching it,
// and a phone connected and subscribed.
import * as fs from 'node:fs';
import { afterEach, beforeEach } from 'vitest';
import { repoIdOf } from '../../relay/watch/repo-id';
import { type BusRepo, busRepo } from '../helpers/bus-repo';
import { connectDevice, type DeviceClient } from '../helpers/device';
import { startRelayFixture, type RelayFixture } from '../commanders/relay-fixture';

export interface JobsWorld extends BusRepo { fx: RelayFixture; phone: DeviceClient; repoId: string }

/** A minimal valid packet for task `id`. */
export const packet = (id: string): string => `---\nid: ${id}\ntype: implementation\nscope: src/**\n---\n# ${id}\n\n## Context\nall fine\n`;

/**
 * Registers the beforeEach and afterEach; the fields are the running test's. `inbox`: each packet's text by id.
 * `adapter`, read when each test starts: another adapter than the fake one (e.g. a probe made in beforeAll).
 */
export function jobsWorld(prefix: string, inbox: Record<string, string>, adapter?: () => { adapterDir: string; adapterName: string }): JobsWorld {
  const world = {} as JobsWorld;
  beforeEach(async () => {
    Object.assign(world, busRepo(prefix, { commit: true, inbox }));
    world.repoId = repoIdOf(world.repo);
    world.fx = await startRelayFixture({ repos: [world.repo], ...(adapter ? adapter() : {}) });
    world.phone = await connectDevice(world.fx.relay);
    await world.phone.request({ type: 'subscribe' });
  });
  afterEach(async () => {
    await world.phone.close();
    await world.fx.cleanup();
    fs.rmSync(world.dir, { recursive: true, force: true });
  });
  return world;
}
