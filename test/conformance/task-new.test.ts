// `commandr task new` refuses an id some packet already uses, by its front-matter id,
// never by a suffix of a file name (CLIUX-1, PACKET-5): the real tool on a real repo.
import * as fs from 'node:fs';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type Install, World, buildInstall, packet } from './harness';

let install: Install;
let world: World;
beforeAll(async () => {
  install = await buildInstall();
});
afterAll(() => fs.rmSync(install.root, { recursive: true, force: true }));
afterEach(() => world?.cleanup());

const taskNew = (id: string) => world.tool('commandr', ['task', 'new', id, '--scope', 'src/**', '--title', 't']);

describe('commandr task new: ids already taken', () => {
  it('CLIUX-1 PACKET-5: an id used by the front matter of a packet with another file name (done/fix-login-bug.md holding FIX-7) is E_EXISTS', () => {
    world = new World(install);
    const done = world.write('done/fix-login-bug.md', packet({ id: 'FIX-7' }));
    const claimed = world.write('claimed/host_12_whatever.md', packet({ id: 'CL-1' }));
    const r = taskNew('FIX-7');
    expect([r.code, r.stdout]).toEqual([1, '']);
    expect(r.stderr).toContain(`E_EXISTS: task FIX-7 already has a packet: ${done}`);
    expect(taskNew('CL-1').stderr).toContain(`E_EXISTS: task CL-1 already has a packet: ${claimed}`);
    expect(world.list('inbox')).toEqual([]);
  });

  it('CLIUX-1: `task new B` after `task new A_B` is no false E_EXISTS (a file name ending in _B.md is not task B)', () => {
    world = new World(install);
    expect(taskNew('A_B').code).toBe(0);
    world.write('claimed/host_1_X_B.md', packet({ id: 'X_B' }));
    const r = taskNew('B');
    expect(r.stderr).toBe('');
    expect(r.code).toBe(0);
    expect(world.list('inbox')).toEqual(['A_B.md', 'B.md']);
  });

  it('CLIUX-1: a packet whose front matter cannot be read still holds the id of its original file name, in any state', () => {
    world = new World(install);
    world.write('claimed/host_1_BROKEN-1.md', 'no front matter\n');
    world.write('done/BROKEN-2.md', '---\nid: [\n---\n');
    expect(taskNew('BROKEN-1').code).toBe(1);
    expect(taskNew('BROKEN-2').code).toBe(1);
    expect(world.list('inbox')).toEqual([]);
  });
});
