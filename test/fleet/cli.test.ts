// Adding a second machine with the real CLIs as processes: `machines add` on the
// home prints a code, `join` on the other machine spends it; `machines list|remove`.
import { afterEach, describe, expect, it } from 'vitest';
import type { Relay } from '../../relay/server';
import { listMachines } from '../../relay/fleet/machines';
import { readHome } from '../../relay/fleet/member';
import { bundleCli, cleanEnv, run, TempDirs } from '../council/fixtures';
import { startRelay } from '../relay-watch/fixture';

const dirs = new TempDirs();
const relays: Relay[] = [];
afterEach(async () => {
  for (const r of relays.splice(0)) await r.close();
  dirs.cleanup();
});

describe('commandr machines / join', () => {
  it('FLEET-1 FLEET-6: machines add prints a one-time code, join spends it from another data dir, list shows the member, remove forgets it', async () => {
    const home = await startRelay([], { dataDir: dirs.make('fleet-home-') });
    relays.push(home);
    const memberDir = dirs.make('fleet-member-');
    const machines = await bundleCli('machines');
    const add = await run(machines, ['add', '--name', 'desktop', '--data', home.dataDir], { env: cleanEnv() });
    expect(add.code, add.stderr).toBe(0);
    const code = add.stdout.trim();
    expect(code).toMatch(/^[A-Za-z0-9_-]{43}\.[A-Za-z0-9_-]{43}$/);
    expect(add.stderr).toContain(`commandr join <this relay's URL> ${code}`);
    const join = await run(await bundleCli('join'), [home.url, code, '--name', 'desktop', '--data', memberDir], { env: cleanEnv() });
    expect(join.code, join.stderr).toBe(0);
    expect(join.stdout).toMatch(/^joined:m-[0-9a-f]{16} as desktop/);
    const again = await run(await bundleCli('join'), [home.url, code, '--data', dirs.make('fleet-member-')], { env: cleanEnv() });
    expect(again.code).toBe(1);
    expect(again.stderr).toContain('E_PAIRING_CODE');
    const [machine] = listMachines(home.dataDir);
    expect(machine).toMatchObject({ name: 'desktop', id: readHome(memberDir)!.machine });
    const list = await run(machines, ['list', '--json', '--data', home.dataDir], { env: cleanEnv() });
    expect(JSON.parse(list.stdout)).toEqual([machine]);
    expect((await run(machines, ['remove', machine!.id, '--data', home.dataDir], { env: cleanEnv() })).stdout).toBe(`removed:${machine!.id}\n`);
    expect(listMachines(home.dataDir)).toEqual([]);
    expect((await run(machines, ['remove', machine!.id, '--data', home.dataDir], { env: cleanEnv() })).code).toBe(1);
    expect((await run(machines, ['add', '--name', '../x', '--data', home.dataDir], { env: cleanEnv() })).code).toBe(2);
  });
});
