// Conformance of the approval gate through real `git commit` and the pre-commit
// hook `commandr init` installed (GATE-n, GATE-DIGEST-n, APPROVAL-n).
import { createHash } from 'node:crypto';
import { execFileSync, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeApprovalToken } from '../../bus/gate';
import { type World, packet, useInstall } from './harness';

const fixture = useInstall();

/** A world whose person opted in to the seed's plain tokens (APPROVAL-3): these tests are about their format. */
function plainWorld(): World {
  const w = fixture.world();
  w.git(['config', 'commandr.plainTokens', 'true']);
  return w;
}

/** `git commit` through the installed hook; returns exit code and stderr. */
function commit(w: World, cwd: string, env: Record<string, string> = {}, args: string[] = []): { code: number | null; stderr: string } {
  const r = spawnSync('git', ['commit', '-q', '-m', 'change', ...args], { cwd, env: { ...w.env, ...env }, encoding: 'utf8' });
  return { code: r.status, stderr: r.stderr };
}

function stage(w: World, cwd: string, file: string, content: string | Buffer): void {
  fs.writeFileSync(path.join(cwd, file), content);
  w.git(['add', file], cwd);
}

/** Computed here, independently of bus/digest.ts. */
function expectedDigest(w: World, cwd: string): string {
  const patch = execFileSync('git', ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'], { cwd, env: w.env });
  return 'sha256:' + createHash('sha256').update(patch).digest('hex');
}

const head = (w: World, cwd: string): string => w.git(['rev-parse', 'HEAD'], cwd).trim();
const requests = (w: World) => w.events().filter((e) => e.event === 'approval_requested');

describe('gate through git commit', () => {
  it('GATE-2: identity and no token blocks the commit, names the missing token and appends one approval_requested', () => {
    const world = plainWorld();
    world.git(['checkout', '-q', '-b', 'agent/T-1']);
    stage(world, world.repo, 'a.txt', 'one\n');
    const digest = expectedDigest(world, world.repo);
    const before = head(world, world.repo);
    const r = commit(world, world.repo);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(path.join(world.bus, 'approvals', 'T-1.approved'));
    expect(r.stderr).toContain('missing');
    expect(head(world, world.repo)).toBe(before);
    expect(requests(world)).toEqual([{ ts: expect.any(String), event: 'approval_requested', task: 'T-1', digest, worktree: world.repo, files: 1 }]);
  });

  it('GATE-DIGEST-2: an empty token approves whatever is staged', () => {
    const world = plainWorld();
    world.git(['checkout', '-q', '-b', 'agent/T-1']);
    fs.writeFileSync(path.join(world.bus, 'approvals', 'T-1.approved'), '');
    stage(world, world.repo, 'a.txt', 'anything\n');
    const before = head(world, world.repo);
    expect(commit(world, world.repo).code).toBe(0);
    expect(head(world, world.repo)).not.toBe(before);
    expect(requests(world)).toEqual([]);
  });

  it('GATE-DIGEST-3: a JSON token passes exactly its digest; a different staged change is blocked as differing', () => {
    const world = plainWorld();
    world.git(['checkout', '-q', '-b', 'agent/T-1']);
    stage(world, world.repo, 'a.txt', 'reviewed\n');
    writeApprovalToken(world.bus, 'T-1', { digest: expectedDigest(world, world.repo), by: 'phone' });
    stage(world, world.repo, 'a.txt', 'reviewed, then changed\n');
    const blocked = commit(world, world.repo);
    expect(blocked.code).not.toBe(0);
    expect(blocked.stderr).toContain('staged change differs from what was approved');
    expect(requests(world)).toHaveLength(1);
    expect(requests(world)[0]!.digest).toBe(expectedDigest(world, world.repo));
    stage(world, world.repo, 'a.txt', 'reviewed\n');
    const before = head(world, world.repo);
    const passed = commit(world, world.repo);
    expect(passed.stderr).toBe('');
    expect(passed.code).toBe(0);
    expect(head(world, world.repo)).not.toBe(before);
  });

  it('GATE-DIGEST-1: the digest is sha256 of `git diff --cached --binary` in the committing worktree, binary files included', () => {
    const world = plainWorld();
    const wt = world.worktree('wt', 'agent/BIN');
    stage(world, wt, 'blob.bin', Buffer.from([0, 1, 2, 255, 254, 0, 10, 13]));
    stage(world, wt, 'text.txt', 'x\n');
    const digest = expectedDigest(world, wt);
    expect(commit(world, wt).code).not.toBe(0);
    expect(requests(world)).toEqual([{ ts: expect.any(String), event: 'approval_requested', task: 'BIN', digest, worktree: wt, files: 2 }]);
    writeApprovalToken(world.bus, 'BIN', { digest, by: 'phone' });
    expect(commit(world, wt).code).toBe(0);
  });

  it('GATE-5: a commit in a linked worktree is gated with the main checkout\'s bus by the one installed hook', () => {
    const world = plainWorld();
    const wt = world.worktree('wt-a', 'agent/W-1');
    stage(world, wt, 'w.txt', 'w\n');
    const r = commit(world, wt);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain(path.join(world.bus, 'approvals', 'W-1.approved'));
    expect(fs.existsSync(path.join(wt, '.agents'))).toBe(false);
    fs.writeFileSync(path.join(world.bus, 'approvals', 'W-1.approved'), '');
    expect(commit(world, wt).code).toBe(0);
  });

  it('GATE-5: `git commit -a` is gated on what that commit stages (the hook\'s index)', () => {
    const world = plainWorld();
    world.git(['checkout', '-q', '-b', 'agent/CA']);
    stage(world, world.repo, 'a.txt', 'v1\n');
    fs.writeFileSync(path.join(world.bus, 'approvals', 'CA.approved'), '');
    expect(commit(world, world.repo).code).toBe(0);
    fs.rmSync(path.join(world.bus, 'approvals', 'CA.approved'));
    fs.writeFileSync(path.join(world.repo, 'a.txt'), 'v2\n');
    expect(commit(world, world.repo, {}, ['-a']).code).not.toBe(0);
    const digest = requests(world)[0]!.digest as string;
    writeApprovalToken(world.bus, 'CA', { digest, by: 'phone' });
    expect(commit(world, world.repo, {}, ['-a']).code).toBe(0);
  });
});

describe('task identity', () => {
  it('GATE-1: AGENTS_TASK_ID wins over the branch and the difference is warned about', () => {
    const world = plainWorld();
    world.git(['checkout', '-q', '-b', 'agent/BRANCH']);
    fs.writeFileSync(path.join(world.bus, 'approvals', 'BRANCH.approved'), '');
    stage(world, world.repo, 'a.txt', 'a\n');
    const r = commit(world, world.repo, { AGENTS_TASK_ID: 'ENV-1' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('warning');
    expect(r.stderr).toContain('ENV-1.approved');
    fs.writeFileSync(path.join(world.bus, 'approvals', 'ENV-1.approved'), '');
    expect(commit(world, world.repo, { AGENTS_TASK_ID: 'ENV-1' }).code).toBe(0);
  });

  it('GATE-1: a blank AGENTS_TASK_ID is ignored and the agent/<id> branch decides', () => {
    const world = plainWorld();
    world.git(['checkout', '-q', '-b', 'agent/B-1']);
    stage(world, world.repo, 'a.txt', 'a\n');
    const r = commit(world, world.repo, { AGENTS_TASK_ID: '  \t ' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('B-1.approved');
  });

  it('GATE-1: the branch must be exactly agent/<id>: agent/T-1-hotfix is task T-1-hotfix, Agent/T-1 is no task', () => {
    const world = plainWorld();
    fs.writeFileSync(path.join(world.bus, 'approvals', 'T-1.approved'), '');
    world.git(['checkout', '-q', '-b', 'agent/T-1-hotfix']);
    stage(world, world.repo, 'a.txt', 'a\n');
    const r = commit(world, world.repo);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('T-1-hotfix.approved');
    world.git(['checkout', '-q', '-b', 'Agent/T-1']);
    expect(commit(world, world.repo).code).toBe(0);
  });

  it('GATE-1: an unsafe AGENTS_TASK_ID blocks the commit with a message and writes nothing', () => {
    const world = plainWorld();
    stage(world, world.repo, 'a.txt', 'a\n');
    const r = commit(world, world.repo, { AGENTS_TASK_ID: '../../etc/passwd' });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('E_BAD_ID');
    expect(world.eventsText()).toBe('');
  });

  it('GATE-3: no identity allows the commit; with tasks in claimed/ it warns (word "warn") on stderr', () => {
    const world = plainWorld();
    stage(world, world.repo, 'a.txt', 'a\n');
    const quiet = commit(world, world.repo);
    expect(quiet.code).toBe(0);
    expect(quiet.stderr).toBe('');
    world.write('inbox/x.md', packet({ id: 'X' }));
    world.tool('claim');
    stage(world, world.repo, 'b.txt', 'b\n');
    const warned = commit(world, world.repo);
    expect(warned.code).toBe(0);
    expect(warned.stderr).toContain('warn');
    expect(requests(world)).toEqual([]);
  });

  it('GATE-4: only approvals/<front-matter id>.approved counts; a token named after the packet file does not', () => {
    const world = plainWorld();
    world.git(['checkout', '-q', '-b', 'agent/T-7']);
    fs.writeFileSync(path.join(world.bus, 'approvals', 'vm_1_T-7.md.approved'), '');
    fs.writeFileSync(path.join(world.bus, 'approvals', 't-7.approved'), '');
    stage(world, world.repo, 'a.txt', 'a\n');
    expect(commit(world, world.repo).code).not.toBe(0);
  });
});

describe('approval tokens', () => {
  it('APPROVAL-1: writeApprovalToken writes exactly {digest, ts, by}, mode 0600, by exclusive create, leaving no temp file', () => {
    const world = plainWorld();
    const digest = 'sha256:' + 'a'.repeat(64);
    const file = writeApprovalToken(world.bus, 'T-1', { digest, by: 'pixel "7"' });
    expect(file).toBe(path.join(world.bus, 'approvals', 'T-1.approved'));
    const token = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(Object.keys(token)).toEqual(['digest', 'ts', 'by']);
    expect(token).toMatchObject({ digest, by: 'pixel "7"' });
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(() => writeApprovalToken(world.bus, 'T-1', { digest: 'sha256:' + 'b'.repeat(64), by: 'x' })).toThrow(expect.objectContaining({ code: 'E_EXISTS' }));
    expect((JSON.parse(fs.readFileSync(file, 'utf8')) as { digest: string }).digest).toBe(digest);
    expect(world.list('approvals')).toEqual(['T-1.approved']);
  });

  it('APPROVAL-2: a malformed digest or unsafe task id is refused and nothing is written', () => {
    const world = plainWorld();
    expect(() => writeApprovalToken(world.bus, 'T-1', { digest: 'sha256:xyz', by: 'x' })).toThrow(expect.objectContaining({ code: 'E_BAD_DIGEST' }));
    expect(() => writeApprovalToken(world.bus, '../T', { digest: 'sha256:' + 'a'.repeat(64), by: 'x' })).toThrow(expect.objectContaining({ code: 'E_BAD_ID' }));
    expect(world.list('approvals')).toEqual([]);
  });

  it('APPROVAL-3: a token that is neither empty nor a valid JSON token approves nothing', () => {
    const world = plainWorld();
    world.git(['checkout', '-q', '-b', 'agent/T-1']);
    fs.writeFileSync(path.join(world.bus, 'approvals', 'T-1.approved'), 'yes please');
    stage(world, world.repo, 'a.txt', 'a\n');
    const r = commit(world, world.repo);
    expect(r.code).not.toBe(0);
    expect(r.stderr).toContain('invalid');
    expect(fs.readFileSync(path.join(world.bus, 'approvals', 'T-1.approved'), 'utf8')).toBe('yes please');
  });
});
