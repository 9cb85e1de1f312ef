// The MCP tests' per-test world, apart from fixture.ts because the benches load
// fixture.ts under tsx, where vitest (and so its hooks) cannot be imported.
import { afterEach, beforeEach } from 'vitest';
import type { DeviceClient } from '../helpers/device';
import { type McpWorld, worldWithPhone } from './fixture';

/** For each test: a fresh `worldWithPhone()`, its phone and then the world closed after the test. */
export function eachWorldWithPhone(): { world: McpWorld; phone: DeviceClient } {
  const fx = {} as { world: McpWorld; phone: DeviceClient };
  beforeEach(async () => {
    Object.assign(fx, await worldWithPhone());
  });
  afterEach(async () => {
    await fx.phone.close();
    await fx.world.close();
  });
  return fx;
}
