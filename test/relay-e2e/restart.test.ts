// CURSOR-3: the relay killed with SIGKILL in the middle of a burst and started
// again; clients resume with their cursors and see every event exactly once.
import { describe, expect, it } from 'vitest';
import { appendEvent } from '../../bus/event-log';
import { pairDevice } from '../helpers/device';
import { repoIdFor } from '../relay-watch/fixture';
import { childRelayWorld } from './fixture';

const BURST = 5000;
const world = childRelayWorld('relay-kill-', ['K-1', 'K-2']);

/** Appends the burst in slices so the relay (another process) interleaves with it. */
async function burst(onProgress: (written: number) => Promise<void> | void): Promise<void> {
  for (let n = 1; n <= BURST; n++) {
    appendEvent(world.bus, { event: 'task_progress', task: n % 2 ? 'K-1' : 'K-2', note: `burst ${n}` });
    if (n % 50 === 0) {
      await onProgress(n);
      await new Promise((r) => setImmediate(r));
    }
  }
}

describe('relay restart', () => {
  it('CURSOR-3: SIGKILL during a burst of 5,000 events, restart, reconnect with cursors: every event received exactly once', async () => {
    const first = await world.start();
    const repoId = repoIdFor(world.repo);
    const devices = [await pairDevice(first, 'phone A'), await pairDevice(first, 'phone B'), await pairDevice(first, 'phone C')];
    const before = await Promise.all(devices.map((d) => world.connect(first, d)));
    await Promise.all(before.map((r) => r.until(() => r.cursors[repoId], 'initial snapshot')));
    let killedAt = 0;
    await burst(async (written) => {
      if (killedAt === 0 && written >= 1500) {
        // Mid-delivery: the clients have some of the burst, the relay is still sending.
        await before[0]!.until(() => before[0]!.events.length > 0, 'first burst events');
        first.child.kill('SIGKILL');
        killedAt = written;
        await first.exited;
      }
    });
    expect(killedAt).toBeGreaterThan(0);
    const second = await world.start();
    const after = await Promise.all(devices.map((d, i) => world.connect(second, d, { [repoId]: before[i]!.cursors[repoId]! })));
    for (let i = 0; i < devices.length; i++) {
      const got = await after[i]!.until(() => before[i]!.events.length + after[i]!.events.length >= BURST || undefined, `all events on client ${i}`, 30_000);
      expect(got).toBe(true);
      expect(after[i]!.snapshots.map((snap) => [snap.resync, snap.afterEvents])).toEqual([[undefined, after[i]!.events.length]]); // RESUME-1: the state after the events
      const notes = [...before[i]!.events, ...after[i]!.events].map((e) => e.event.note);
      expect(notes).toEqual(Array.from({ length: BURST }, (_, k) => `burst ${k + 1}`));
      expect(before[i]!.events.length).toBeLessThan(BURST);
    }
    second.child.kill('SIGTERM');
    await second.exited;
  });
});
