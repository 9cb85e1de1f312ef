// Conformance of `claim` (CLAIM-n, PACKET-n, BLOCKED-BY-n, LAYOUT-1/2) driving the
// real executable against real git repos and worktrees.
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { packet, runAsync, useInstall } from './harness';

const fixture = useInstall();

const host = os.hostname().replace(/_/g, '-');
const claimedLine = (stdout: string): string => stdout.split('\n')[0]!;

describe('claim', () => {
  it('CLAIM-1: takes the first packet in file-name order with one rename to claimed/{host}_{pid}_{name}', () => {
    const world = fixture.world();
    world.write('inbox/b-second.md', packet({ id: 'B' }));
    world.write('inbox/a-first.md', packet({ id: 'A' }));
    const r = world.tool('claim');
    expect(r.code).toBe(0);
    const claimed = claimedLine(r.stdout).slice('claimed:'.length);
    expect(path.dirname(claimed)).toBe(path.join(world.bus, 'claimed'));
    expect(path.basename(claimed)).toMatch(new RegExp(`^${host}_[0-9]+_a-first\\.md$`));
    expect(world.list('inbox')).toEqual(['b-second.md']);
    expect(world.list('claimed')).toEqual([path.basename(claimed)]);
  });

  it('CLAIM-1: a host name with "_" is written with "-" so the owner still splits', () => {
    const probe = spawnSync('unshare', ['--uts', 'sh', '-c', 'echo my_box > /proc/sys/kernel/hostname && hostname'], { encoding: 'utf8' });
    if (probe.status !== 0 || probe.stdout.trim() !== 'my_box') {
      console.warn(`CLAIM-1 host rename skipped: cannot set a host name in a new UTS namespace: ${probe.stderr.trim()}`);
      return;
    }
    const world = fixture.world();
    world.write('inbox/x.md', packet({ id: 'X' }));
    const r = spawnSync('unshare', ['--uts', 'sh', '-c', `echo my_box > /proc/sys/kernel/hostname && exec ${fixture.install.bin('claim')}`], { cwd: world.repo, env: world.env, encoding: 'utf8' });
    expect(r.status).toBe(0);
    expect(world.list('claimed')[0]).toMatch(/^my-box_[0-9]+_x\.md$/);
    expect(world.events()[0]).toMatchObject({ event: 'task_claimed', task: 'X', machine: 'my-box' });
  });

  it('CLAIM-3: owner identity splits at most twice; the remainder is the original file name', () => {
    const world = fixture.world();
    world.write('inbox/my_task_file.md', packet({ id: 'U' }));
    const r = world.tool('claim');
    const name = path.basename(claimedLine(r.stdout));
    const [h, pid, ...rest] = name.split('_');
    expect(h).toBe(host);
    expect(pid).toMatch(/^[0-9]+$/);
    expect(rest.join('_')).toBe('my_task_file.md');
  });

  it('CLAIM-4: prints claimed:<absolute path> then the packet verbatim; an empty inbox prints exactly inbox:empty', () => {
    const world = fixture.world();
    const text = packet({ id: 'T-1' });
    world.write('inbox/001.md', text);
    const r = world.tool('claim');
    expect(r.code).toBe(0);
    const first = claimedLine(r.stdout);
    expect(path.isAbsolute(first.slice('claimed:'.length))).toBe(true);
    expect(r.stdout).toBe(`${first}\n${text}`);
    const empty = world.tool('claim');
    expect(empty.code).toBe(0);
    expect(empty.stdout).toBe('inbox:empty\n');
  });

  it('CLAIM-4: bytes that are not UTF-8 (a Latin-1 body, a stray byte) come out exactly as they are in the packet', () => {
    const world = fixture.world();
    const bytes = Buffer.concat([Buffer.from(packet({ id: 'T-1' })), Buffer.from([0x63, 0x61, 0x66, 0xe9, 0x0a, 0xff, 0xfe, 0x0a])]);
    world.write('inbox/001.md', bytes);
    const r = spawnSync(fixture.install.bin('claim'), [], { cwd: world.repo, env: world.env });
    expect(r.status).toBe(0);
    const head = r.stdout.subarray(0, r.stdout.indexOf(0x0a) + 1).toString('utf8');
    expect(head).toMatch(/^claimed:\/.*_001\.md\n$/);
    expect(Buffer.compare(r.stdout.subarray(head.length), bytes)).toBe(0);
  });

  it('CLAIM-5: appends one task_claimed with task, agent {host}_{pid} and machine before returning', () => {
    const world = fixture.world();
    world.write('inbox/file-name-is-not-the-id.md', packet({ id: 'T-42' }));
    const r = world.tool('claim');
    const [h, pid] = path.basename(claimedLine(r.stdout)).split('_');
    const events = world.events();
    expect(events).toHaveLength(1);
    expect(events[0]).toEqual({ ts: expect.any(String), event: 'task_claimed', task: 'T-42', agent: `${h}_${pid}`, machine: h });
  });

  it('PACKET-5: the task id is the front-matter id, never the file name', () => {
    const world = fixture.world();
    world.write('inbox/zzz-T-9.md', packet({ id: 'real-id' }));
    world.tool('claim');
    expect(world.events()[0]).toMatchObject({ task: 'real-id' });
  });

  it('CLAIM-2: racing claimers each win different packets; every packet is claimed exactly once', async () => {
    const world = fixture.world();
    for (let i = 0; i < 24; i++) world.write(`inbox/p${String(i).padStart(3, '0')}.md`, packet({ id: `P-${i}` }));
    const results = await Promise.all(Array.from({ length: 6 }, async () => {
      const outs: string[] = [];
      for (;;) {
        const r = await runAsync(fixture.install.bin('claim'), [], { cwd: world.repo, env: world.env });
        expect(r.code).toBe(0);
        if (r.stdout === 'inbox:empty\n') return outs;
        outs.push(path.basename(claimedLine(r.stdout)).split('_').slice(2).join('_'));
      }
    }));
    const all = results.flat().sort();
    expect(all).toHaveLength(24);
    expect(new Set(all).size).toBe(24);
    const claimedEvents = world.events().filter((e) => e.event === 'task_claimed').map((e) => e.task);
    expect(claimedEvents.sort()).toEqual(Array.from({ length: 24 }, (_, i) => `P-${i}`).sort());
  });
});

describe('packets', () => {
  const invalid: Array<[string, string | Buffer]> = [
    ['01-no-id.md', packet({})],
    ['02-no-type.md', '---\nid: NT\nscope: x\n---\n'],
    ['03-no-scope.md', packet({ id: 'NS', scope: '' })],
    ['04-bad-type.md', packet({ id: 'BT', type: 'party' })],
    ['05-broken-yaml.md', '---\nid: [unclosed\ntype: research\n---\n'],
    ['06-no-front-matter.md', '# Context\njust prose\n'],
    ['07-unclosed-front-matter.md', '---\nid: UC\ntype: research\nscope: x\n'],
    ['08-binary.md', Buffer.from([0x00, 0xff, 0xfe, 0x2d, 0x2d, 0x2d, 0x0a, 0x00, 0x01])],
    ['09-bad-id.md', packet({ id: '../escape' })],
    ['10-quote-id.md', packet({ id: 'a"b' })],
    ['11-newline-id.md', '---\nid: "a\\nb"\ntype: research\nscope: x\n---\n'],
    ['12-list-front-matter.md', '---\n- a\n- b\n---\n'],
    ['13-ragged-list.md', '---\nid: RL\ntype: review\nscope: x\nblocking:\n  - B\n - C\n---\n'],
  ];

  it('PACKET-1: front matter with id, type and scope makes a packet; blocking and blocked-by default to []', () => {
    const world = fixture.world();
    world.write('inbox/ok.md', '---\nid: OK-1\ntype: review\nscope: "docs/*"\n---\nbody\n');
    const r = world.tool('claim');
    expect(r.code).toBe(0);
    expect(r.stdout.startsWith('claimed:')).toBe(true);
  });

  it('PACKET-2: invalid packets (missing fields, broken YAML, no front matter, binary junk, unsafe ids) are reported, never claimed, left in place', () => {
    const world = fixture.world();
    for (const [name, text] of invalid) world.write(`inbox/${name}`, text);
    world.write('inbox/99-good.md', packet({ id: 'GOOD' }));
    const r = world.tool('claim');
    expect(r.code).toBe(0);
    expect(claimedLine(r.stdout)).toMatch(/_99-good\.md$/);
    for (const [name] of invalid) expect(r.stderr).toContain(name);
    expect(r.stderr).toMatch(/01-no-id\.md: front matter: id/);
    expect(world.list('inbox')).toEqual(invalid.map(([n]) => n).sort());
    const again = world.tool('claim');
    expect(again.stdout).toBe('inbox:empty\n');
    expect(again.code).toBe(0);
    expect(world.events().map((e) => e.task)).toEqual(['GOOD']);
  });

  it('PACKET-2: a `*.md` entry that is no regular file (a directory, a FIFO) is reported and skipped; the claim goes on, never opening the FIFO', () => {
    const world = fixture.world();
    fs.mkdirSync(path.join(world.bus, 'inbox', 'A-dir.md'));
    const fifo = spawnSync('mkfifo', [path.join(world.bus, 'inbox', 'B-fifo.md')]);
    expect(fifo.status).toBe(0);
    world.write('inbox/C-good.md', packet({ id: 'GOOD' }));
    // A hang (reading the FIFO) is killed after 20 s and fails the test; it never synchronises anything.
    const r = spawnSync(fixture.install.bin('claim'), [], { cwd: world.repo, env: world.env, encoding: 'utf8', timeout: 20_000 });
    expect(r.signal).toBeNull();
    expect(r.status).toBe(0);
    expect(claimedLine(r.stdout)).toMatch(/_C-good\.md$/);
    expect(r.stderr).toMatch(/A-dir\.md: a directory, not a regular file/);
    expect(r.stderr).toMatch(/B-fifo\.md: a FIFO, not a regular file/);
    expect(world.list('inbox')).toEqual(['A-dir.md', 'B-fifo.md']);
    const again = spawnSync(fixture.install.bin('claim'), [], { cwd: world.repo, env: world.env, encoding: 'utf8', timeout: 20_000 });
    expect([again.status, again.stdout]).toEqual([0, 'inbox:empty\n']);
    // The index fold lists the bus too: it must not hang on the FIFO either.
    const index = spawnSync(fixture.install.bin('index'), ['refresh', world.repo], { cwd: world.repo, env: world.env, encoding: 'utf8', timeout: 20_000 });
    expect([index.signal, index.status]).toEqual([null, 0]);
  });

  it('PACKET-2 CLAIM-4: a packet whose file name holds a line break (a repo can track one) is reported quoted and never claimed, so no claimed: line is split', () => {
    const world = fixture.world();
    world.write('inbox/01-evil\nid: FORGED.md', packet({ id: 'EVIL' }));
    world.write('inbox/02-good.md', packet({ id: 'GOOD' }));
    const r = world.tool('claim');
    expect(r.code).toBe(0);
    expect(r.stdout.split('\n')[0]).toMatch(/^claimed:\/.*_02-good\.md$/);
    expect(r.stderr).toContain('01-evil\\nid: FORGED.md\": its file name holds a control character');
    expect(world.list('inbox')).toEqual(['01-evil\nid: FORGED.md']);
    expect(world.events().map((e) => e.task)).toEqual(['GOOD']);
  });

  it('ID-SAFE-1: a packet whose id is not a safe file name is never claimed', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'x/../../y' }));
    world.write('inbox/b.md', packet({ id: '.hidden' }));
    world.write('inbox/c.md', packet({ id: 'x'.repeat(129) }));
    const r = world.tool('claim');
    expect(r.stdout).toBe('inbox:empty\n');
    expect(r.stderr).toMatch(/a\.md[\s\S]*b\.md[\s\S]*c\.md/);
    expect(world.list('inbox')).toEqual(['a.md', 'b.md', 'c.md']);
  });

  it('PACKET-3: unknown front-matter fields are ignored, never rejected', () => {
    const world = fixture.world();
    world.write('inbox/x.md', packet({ id: 'X-1', extra: 'priority: high\nowner:\n  name: someone\nblocking: [Y-1]' }));
    const r = world.tool('claim');
    expect(r.stdout.startsWith('claimed:')).toBe(true);
  });

  it('PACKET-4: a packet lacking body sections is claimed with a warning containing "section" naming each missing one', () => {
    const world = fixture.world();
    world.write('inbox/x.md', packet({ id: 'X-2', sections: ['Context', 'Do not touch'] }));
    const r = world.tool('claim');
    expect(r.stdout.startsWith('claimed:')).toBe(true);
    expect(r.stderr).toContain('section');
    expect(r.stderr).toContain('Acceptance criteria');
    expect(r.stderr).toContain('Files to touch');
    expect(r.stderr).not.toContain('"Context"');
    const full = fixture.world();
    full.write('inbox/y.md', packet({ id: 'Y' }));
    expect(full.tool('claim').stderr).toBe('');
  });
});

describe('blocked-by', () => {
  it('BLOCKED-BY-1: a packet whose blocked-by ids are not all in done/ is skipped and reported once; it is claimable once they are', () => {
    const world = fixture.world();
    world.write('inbox/1-later.md', packet({ id: 'LATER', blockedBy: ['FIRST', 'SECOND'] }));
    world.write('inbox/2-first.md', packet({ id: 'FIRST' }));
    world.write('done/vm_1_second.md', packet({ id: 'SECOND' }));
    const r1 = world.tool('claim');
    expect(claimedLine(r1.stdout)).toMatch(/_2-first\.md$/);
    expect(r1.stderr.match(/LATER/g)).toHaveLength(1);
    expect(r1.stderr).toContain('FIRST');
    expect(r1.stderr).not.toMatch(/blocked by[^\n]*SECOND/);
    const r2 = world.tool('claim');
    expect(r2.stdout).toBe('inbox:empty\n');
    expect(world.list('inbox')).toEqual(['1-later.md']);
    const done = world.tool('complete', [claimedLine(r1.stdout).slice('claimed:'.length)]);
    expect(done.code).toBe(0);
    const r3 = world.tool('claim');
    expect(claimedLine(r3.stdout)).toMatch(/_1-later\.md$/);
  });
});

describe('location', () => {
  it('LAYOUT-1: the bus is found from a subdirectory and from a linked worktree as the main checkout\'s .agents', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    world.write('inbox/b.md', packet({ id: 'B' }));
    fs.mkdirSync(path.join(world.repo, 'src', 'deep'), { recursive: true });
    const fromSub = world.tool('claim', [], { cwd: path.join(world.repo, 'src', 'deep') });
    expect(claimedLine(fromSub.stdout)).toBe(`claimed:${path.join(world.bus, 'claimed')}/${path.basename(claimedLine(fromSub.stdout))}`);
    const wt = world.worktree('wt-1', 'agent/B');
    fs.mkdirSync(path.join(wt, 'nested'));
    const fromWt = world.tool('claim', [], { cwd: path.join(wt, 'nested') });
    expect(path.dirname(claimedLine(fromWt.stdout).slice('claimed:'.length))).toBe(path.join(world.bus, 'claimed'));
    expect(fs.existsSync(path.join(wt, '.agents', 'claimed'))).toBe(false);
  });

  it('LAYOUT-1: outside any git work tree claim fails with a message, exit 1', () => {
    const world = fixture.world();
    const r = world.tool('claim', [], { cwd: world.home });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not inside a git work tree');
    expect(r.stdout).toBe('');
  });

  it('LAYOUT-2: a missing bus directory is named and nothing is moved or written', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    fs.rmSync(path.join(world.bus, 'approvals'), { recursive: true });
    const r = world.tool('claim');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(path.join(world.bus, 'approvals'));
    expect(r.stdout).toBe('');
    expect(world.list('inbox')).toEqual(['a.md']);
    expect(world.eventsText()).toBe('');
  });
});
