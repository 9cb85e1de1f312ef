// Conformance of `commandr init` and the umbrella command (INIT-n, LAYOUT-3, CLI-n).
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { packet, snapshot, useInstall } from './harness';

const fixture = useInstall();

const GITIGNORE = ['.agents/claimed/', '.agents/approvals/', '.agents/events.jsonl', '.agents/council/', '.agents/annotations/'];

describe('commandr init', () => {
  it('INIT-1: creates inbox, claimed, done, approvals with .gitkeep, and prints init:<bus>', () => {
    const world = fixture.world({ init: false });
    const r = world.tool('commandr', ['init']);
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`init:${world.bus}\n`);
    for (const dir of ['inbox', 'claimed', 'done', 'approvals']) expect(fs.existsSync(path.join(world.bus, dir, '.gitkeep'))).toBe(true);
  });

  it('LAYOUT-3: .gitignore gets exactly the five bus lines, appended to what was there, never duplicated', () => {
    const world = fixture.world({ init: false });
    fs.writeFileSync(path.join(world.repo, '.gitignore'), 'node_modules/\n.agents/council/\nlast-line-without-newline');
    expect(world.tool('commandr', ['init']).code).toBe(0);
    expect(world.tool('commandr', ['init']).code).toBe(0);
    const lines = fs.readFileSync(path.join(world.repo, '.gitignore'), 'utf8').split('\n');
    expect(lines.slice(0, 3)).toEqual(['node_modules/', '.agents/council/', 'last-line-without-newline']);
    for (const line of GITIGNORE) expect(lines.filter((l) => l === line)).toHaveLength(1);
    world.write('claimed/vm_1_x.md', 'x');
    world.write('inbox/x.md', 'x');
    world.write('events.jsonl', '');
    const ignored = world.git(['status', '--porcelain', '--untracked-files=all']);
    expect(ignored).toContain('.agents/inbox/x.md');
    expect(ignored).not.toContain('claimed/vm_1_x.md');
    expect(ignored).not.toContain('events.jsonl');
  });

  it('INIT-1: a second run changes nothing (idempotent)', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    const before = snapshot(world.repo + '/.git/hooks');
    const busBefore = snapshot(world.bus);
    const ignoreBefore = fs.readFileSync(path.join(world.repo, '.gitignore'), 'utf8');
    const registryBefore = fs.readFileSync(world.env.AGENTS_INDEX_REPOS!, 'utf8');
    const r = world.tool('commandr', ['init', world.repo]);
    expect(r.code).toBe(0);
    expect(r.stderr).not.toContain('init: wrote');
    expect(snapshot(world.repo + '/.git/hooks')).toEqual(before);
    expect(snapshot(world.bus)).toEqual(busBefore);
    expect(fs.readFileSync(path.join(world.repo, '.gitignore'), 'utf8')).toBe(ignoreBefore);
    expect(fs.readFileSync(world.env.AGENTS_INDEX_REPOS!, 'utf8')).toBe(registryBefore);
  });

  it('INIT-2: the pre-commit hook runs this install\'s gate by absolute path and is executable', () => {
    const world = fixture.world();
    const hook = path.join(world.repo, '.git', 'hooks', 'pre-commit');
    const text = fs.readFileSync(hook, 'utf8');
    expect(text.startsWith('#!/bin/sh\n')).toBe(true);
    expect(text).toContain(`exec '${fixture.install.bin('pre-commit-gate')}'`);
    expect(fs.statSync(hook).mode & 0o111).toBe(0o111);
  });

  it('INIT-2: run from a linked worktree it sets up the main checkout\'s bus and the shared hooks dir', () => {
    const world = fixture.world({ init: false });
    const wt = world.worktree('wt', 'feature');
    const r = world.tool('commandr', ['init'], { cwd: wt });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`init:${world.bus}\n`);
    expect(fs.existsSync(path.join(world.bus, 'inbox'))).toBe(true);
    expect(fs.existsSync(path.join(wt, '.agents'))).toBe(false);
    expect(fs.existsSync(path.join(world.repo, '.git', 'hooks', 'pre-commit'))).toBe(true);
    expect(fs.readFileSync(path.join(world.repo, '.gitignore'), 'utf8')).toContain('.agents/claimed/');
  });

  it('INIT-2: core.hooksPath is honoured', () => {
    const world = fixture.world({ init: false });
    world.git(['config', 'core.hooksPath', 'my-hooks']);
    expect(world.tool('commandr', ['init']).code).toBe(0);
    expect(fs.existsSync(path.join(world.repo, 'my-hooks', 'pre-commit'))).toBe(true);
    expect(fs.existsSync(path.join(world.repo, '.git', 'hooks', 'pre-commit'))).toBe(false);
  });

  it('INIT-2: a pre-commit hook that is not commandr\'s is never overwritten and nothing else is set up', () => {
    const world = fixture.world({ init: false });
    const hook = path.join(world.repo, '.git', 'hooks', 'pre-commit');
    fs.writeFileSync(hook, '#!/bin/sh\necho mine\n', { mode: 0o755 });
    const r = world.tool('commandr', ['init']);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('E_HOOK_EXISTS');
    expect(r.stderr).toContain(hook);
    expect(fs.readFileSync(hook, 'utf8')).toBe('#!/bin/sh\necho mine\n');
    expect(fs.existsSync(world.bus)).toBe(false);
  });

  it('INIT-1 LAYOUT-3: a .gitignore that is a symlink (a cloned repo can track one) is refused: init never appends to the file it points at, and creates nothing', () => {
    const world = fixture.world({ init: false });
    const outside = path.join(world.dir, 'victim.rc');
    fs.writeFileSync(outside, 'precious\n');
    fs.symlinkSync(outside, path.join(world.repo, '.gitignore'));
    const r = world.tool('commandr', ['init']);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/\.gitignore is a symlink/);
    expect(fs.readFileSync(outside, 'utf8')).toBe('precious\n');
    expect(fs.existsSync(world.bus)).toBe(false);
  });

  it('INIT-3: registers the main checkout once in $AGENTS_INDEX_REPOS, keeping existing entries', () => {
    const world = fixture.world({ init: false });
    const registry = world.env.AGENTS_INDEX_REPOS!;
    fs.mkdirSync(path.dirname(registry), { recursive: true });
    fs.writeFileSync(registry, '# my repos\n/somewhere/else');
    expect(world.tool('commandr', ['init']).code).toBe(0);
    expect(world.tool('commandr', ['init']).code).toBe(0);
    expect(fs.readFileSync(registry, 'utf8')).toBe(`# my repos\n/somewhere/else\n${world.repo}\n`);
  });

  it('INIT-1: outside a git repository init fails with a message and creates nothing', () => {
    const world = fixture.world({ init: false });
    const plain = path.join(world.dir, 'plain');
    fs.mkdirSync(plain);
    const r = world.tool('commandr', ['init', plain], { cwd: world.dir });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('not inside a git work tree');
    expect(fs.existsSync(path.join(plain, '.agents'))).toBe(false);
  });
});

describe('commandr umbrella', () => {
  it('CLI-1: `commandr <tool> args…` runs the bus tool with the same output and exit code', () => {
    const world = fixture.world();
    world.write('inbox/a.md', packet({ id: 'A' }));
    const r = world.tool('commandr', ['claim']);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/^claimed:.*_a\.md\n---/);
    expect(world.tool('commandr', ['claim']).stdout).toBe('inbox:empty\n');
    const bad = world.tool('commandr', ['progress', 'A', 'two\nlines']);
    expect(bad.code).toBe(2);
    expect(world.tool('commandr', ['progress', 'A', 'fine']).code).toBe(0);
    expect(world.events().map((e) => e.event)).toEqual(['task_claimed', 'task_progress']);
  });

  it('CLI-1: unknown or missing subcommand exits 2 with usage; --help and --version exit 0', () => {
    const world = fixture.world();
    const unknown = world.tool('commandr', ['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('unknown subcommand "frobnicate"');
    expect(unknown.stderr).toContain('usage: commandr');
    expect(world.tool('commandr').code).toBe(2);
    expect(world.tool('commandr', ['constructor']).code).toBe(2);
    const help = world.tool('commandr', ['--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('commandr init [repo]');
    const version = world.tool('commandr', ['--version']);
    expect(version.stdout).toMatch(/^\d+\.\d+\.\d+\n$/);
  });

  it('CLI-2: usage errors exit 2, runtime errors exit 1 with a message naming the problem', () => {
    const world = fixture.world();
    // Every usage error names its code and what is wrong, then the usage.
    for (const [tool, args, what] of [
      ['claim', ['--remote'], '--remote'], ['complete', [], 'usage: complete'], ['index', [], 'missing verb'], ['index', ['fold'], 'unknown verb "fold"'],
      ['annotate-write', ['--bus', world.bus], '--task'], ['pre-commit-gate', ['post-merge'], 'post-merge'], ['commandr', ['frobnicate'], 'frobnicate'],
    ] as const) {
      const r = world.tool(tool, [...args]);
      expect(r.code, `${tool} ${args.join(' ')}`).toBe(2);
      expect(r.stderr, `${tool} ${args.join(' ')}`).toMatch(new RegExp(`^${tool}: E_BAD_ARGS: `));
      expect(r.stderr).toContain(what);
    }
    const runtime = world.tool('complete', ['/no/such/packet.md']);
    expect(runtime.code).toBe(1);
    expect(runtime.stderr).toContain('E_NOT_FOUND');
    expect(runtime.stderr).toContain('/no/such/packet.md');
  });
});
