// Hostile conditions (LAYOUT-2, LAYOUT-4, LAYOUT-5): a read-only bus, a missing
// directory, and a full session that must leave nothing but allowed files.
import { spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it, onTestFinished } from 'vitest';
import { packet, snapshot, strayEntries, useInstall } from './harness';

const fixture = useInstall();

/**
 * Root ignores mode bits, so read-only means a read-only bind mount of the bus onto itself.
 * Unmounted when the test finishes, before its world is removed (hooks run last-registered first).
 */
function makeReadOnly(dir: string): boolean {
  const bind = spawnSync('mount', ['--bind', dir, dir]);
  if (bind.status !== 0) return false;
  onTestFinished(() => {
    spawnSync('umount', [dir]);
  });
  return spawnSync('mount', ['-o', 'remount,bind,ro', dir]).status === 0;
}

describe('hostile conditions', () => {
  it('LAYOUT-5: on a read-only bus every writing tool fails with a message naming the path; nothing on the bus is lost or changed', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    world.write('claimed/vm_1_b.md', packet({ id: 'B' }));
    world.write('events.jsonl', '{"ts":"2026-01-01T00:00:00.000Z","event":"task_progress","task":"A","note":"kept"}\n');
    world.git(['checkout', '-q', '-b', 'agent/A']);
    world.git(['config', 'commandr.plainTokens', 'true']); // the empty token below is a plain one (APPROVAL-3)
    fs.writeFileSync(path.join(world.repo, 'x.txt'), 'x');
    world.git(['add', 'x.txt']);
    const before = snapshot(world.bus);
    if (!makeReadOnly(world.bus)) {
      console.warn('LAYOUT-5 skipped: cannot bind-mount read-only here (needs CAP_SYS_ADMIN)');
      return;
    }
    const results = {
      claim: world.tool('claim'),
      progress: world.tool('progress', ['A', 'note']),
      complete: world.tool('complete', [path.join(world.bus, 'claimed', 'vm_1_b.md')]),
      annotate: world.tool('annotate-write', ['--bus', world.bus, '--task', 'A', '--turn', '1']),
      gate: world.tool('pre-commit-gate'),
    };
    for (const [tool, r] of Object.entries(results)) {
      expect(r.code, tool).toBe(1);
      expect(r.stderr, tool).toMatch(/EROFS/);
      expect(r.stderr, tool).toContain(world.bus);
      expect(r.stdout, tool).toBe('');
    }
    expect(snapshot(world.bus)).toEqual(before);
  });

  it('LAYOUT-2: every tool refuses a bus with a missing directory, naming it, and writes nothing', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    const claimed = world.tool('claim').stdout.split('\n')[0]!.slice('claimed:'.length);
    fs.rmSync(path.join(world.bus, 'done'), { recursive: true });
    const before = snapshot(world.bus);
    for (const [tool, args] of [['progress', ['A', 'n']], ['complete', [claimed]], ['annotate-write', ['--bus', world.bus, '--task', 'A', '--turn', '1']]] as const) {
      const r = world.tool(tool, [...args]);
      expect(r.code, tool).toBe(1);
      expect(r.stderr, tool).toContain(path.join(world.bus, 'done'));
    }
    world.git(['checkout', '-q', '-b', 'agent/A']);
    const gate = world.tool('pre-commit-gate');
    expect(gate.code).toBe(1);
    expect(gate.stderr).toContain(path.join(world.bus, 'done'));
    expect(snapshot(world.bus)).toEqual(before);
  });

  it('LAYOUT-4: a whole session (claim, progress, annotate, gate, complete, index) leaves only allowed entries, no temp files', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    const claimed = world.tool('claim').stdout.split('\n')[0]!.slice('claimed:'.length);
    world.tool('progress', ['A', 'working']);
    world.tool('annotate-write', ['--bus', world.bus, '--task', 'A', '--turn', '1', '--body', 'hi']);
    world.git(['checkout', '-q', '-b', 'agent/A']);
    world.git(['config', 'commandr.plainTokens', 'true']); // the empty token below is a plain one (APPROVAL-3)
    fs.writeFileSync(path.join(world.repo, 'x.txt'), 'x');
    world.git(['add', 'x.txt']);
    expect(spawnSync('git', ['commit', '-q', '-m', 'x'], { cwd: world.repo, env: world.env }).status).not.toBe(0);
    fs.writeFileSync(path.join(world.bus, 'approvals', 'A.approved'), '');
    expect(spawnSync('git', ['commit', '-q', '-m', 'x'], { cwd: world.repo, env: world.env }).status).toBe(0);
    world.tool('complete', [claimed]);
    world.tool('index', ['refresh', world.repo]);
    expect(strayEntries(world.bus)).toEqual([]);
    expect(fs.readdirSync(world.bus).sort()).toEqual(['annotations', 'approvals', 'claimed', 'done', 'events.jsonl', 'inbox']);
  });
});
