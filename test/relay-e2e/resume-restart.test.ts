// RESUME-1/2 across a relay restart: the phone leaves with its cursors, the relay
// stops, packets arrive (atomic rename, and a slow write still half-done when the
// relay comes back), and the resumed phone sees them all. Real child relay, real files.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packet } from '../conformance/harness';
import { pairDevice } from '../helpers/device';
import { repoIdFor } from '../relay-watch/fixture';
import { childRelayWorld } from './fixture';

const world = childRelayWorld('relay-resume-restart-', ['R-1']);

describe('resume across a relay restart', () => {
  it('RESUME-1: packets added while relay and phone were away (atomic rename; a slow write finished after the restart) show on resume', async () => {
    const first = await world.start();
    const repoId = repoIdFor(world.repo);
    const phone = await pairDevice(first, 'phone');
    const before = await world.connect(first, phone);
    const cursor = await before.until(() => before.cursors[repoId], 'first snapshot');
    expect(before.tasks.has(`${repoId}/R-2`)).toBe(false);
    first.child.kill('SIGTERM');
    await first.exited;

    const tmp = path.join(world.bus, '.R-2.md.tmp');
    fs.writeFileSync(tmp, packet({ id: 'R-2' }));
    fs.renameSync(tmp, path.join(world.bus, 'inbox', 'R-2.md'));
    const slow = fs.openSync(path.join(world.bus, 'inbox', 'R-3.md'), 'w');
    const whole = packet({ id: 'R-3' });
    fs.writeSync(slow, whole.slice(0, 25));

    const second = await world.start();
    const after = await world.connect(second, phone, { [repoId]: cursor });
    const snap = await after.until(() => after.snapshots[0], 'the reconciling snapshot');
    expect(snap.resync).toBeUndefined();
    expect(after.events).toEqual([]);
    expect(snap.tasks.map((t) => t.id).sort()).toEqual(['R-1', 'R-2']); // R-3 is not whole yet
    fs.writeSync(slow, whole.slice(25));
    fs.closeSync(slow);
    expect(await after.task(repoId, 'R-3')).toMatchObject({ state: 'inbox', type: 'implementation' });
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
