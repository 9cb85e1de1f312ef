// `commandr task new` refuses an id some packet already uses, by its front-matter id,
// never by a suffix of a file name (CLIUX-1, PACKET-5): the real tool on a real repo.
import { describe, expect, it } from 'vitest';
import { type World, packet, useInstall } from './harness';

const fixture = useInstall();

const taskNew = (world: World, id: string) => world.tool('commandr', ['task', 'new', id, '--scope', 'src/**', '--title', 't']);

describe('commandr task new: ids already taken', () => {
  it('CLIUX-1 PACKET-5: an id used by the front matter of a packet with another file name (done/fix-login-bug.md holding FIX-7) is E_EXISTS', () => {
    const world = fixture.world();
    const done = world.write('done/fix-login-bug.md', packet({ id: 'FIX-7' }));
    const claimed = world.write('claimed/host_12_whatever.md', packet({ id: 'CL-1' }));
    const r = taskNew(world, 'FIX-7');
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(`E_EXISTS: task FIX-7 already has a packet: ${done}`);
    expect(taskNew(world, 'CL-1').stderr).toContain(`E_EXISTS: task CL-1 already has a packet: ${claimed}`);
    expect(world.list('inbox')).toEqual([]);
  });

  it('CLIUX-1: `task new B` after `task new A_B` is no false E_EXISTS (a file name ending in _B.md is not task B)', () => {
    const world = fixture.world();
    expect(taskNew(world, 'A_B').code).toBe(0);
    world.write('claimed/host_1_X_B.md', packet({ id: 'X_B' }));
    const r = taskNew(world, 'B');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(world.list('inbox')).toEqual(['A_B.md', 'B.md']);
  });

  it('CLIUX-1: a packet whose front matter cannot be read still holds the id of its original file name, in any state', () => {
    const world = fixture.world();
    world.write('claimed/host_1_BROKEN-1.md', 'no front matter\n');
    world.write('done/BROKEN-2.md', '---\nid: [\n---\n');
    expect(taskNew(world, 'BROKEN-1').code).toBe(1);
    expect(taskNew(world, 'BROKEN-2').code).toBe(1);
    expect(world.list('inbox')).toEqual([]);
  });
});
