import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readApprovalToken, resolveTaskIdentity, taskOfBranch, writeApprovalToken } from './gate';

let dir: string | undefined;
afterEach(() => dir && fs.rmSync(dir, { recursive: true, force: true }));

function bus(): string {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'gate-'));
  for (const d of ['inbox', 'claimed', 'done', 'approvals']) fs.mkdirSync(path.join(dir, d));
  return dir;
}

describe('gate identity', () => {
  it('GATE-1: only a branch named exactly agent/<task-id> names a task', () => {
    expect(taskOfBranch('agent/T-1')).toBe('T-1');
    expect(taskOfBranch('agent/T-1-hotfix')).toBe('T-1-hotfix');
    for (const b of ['Agent/T-1', 'agents/T-1', 'agent/', 'agent/a/b', 'feature/agent/T-1', undefined]) expect(taskOfBranch(b)).toBeUndefined();
  });

  it('GATE-1: a non-blank AGENTS_TASK_ID wins and a differing branch is warned about', () => {
    expect(resolveTaskIdentity('E', 'agent/B')).toMatchObject({ task: 'E', source: 'env', warnings: [expect.stringContaining('warning')] });
    expect(resolveTaskIdentity('B', 'agent/B')).toEqual({ task: 'B', source: 'env', warnings: [] });
    expect(resolveTaskIdentity(' ', 'agent/B')).toEqual({ task: 'B', source: 'branch', warnings: [] });
    expect(resolveTaskIdentity(undefined, 'main')).toEqual({ warnings: [] });
    expect(() => resolveTaskIdentity('a/b', 'main')).toThrow(expect.objectContaining({ code: 'E_BAD_ID' }));
  });
});

describe('approval tokens', () => {
  it('GATE-DIGEST-2: an empty or whitespace token approves anything; JSON binds a digest; junk is invalid', () => {
    const b = bus();
    expect(readApprovalToken(b, 'T')).toEqual({ kind: 'missing' });
    fs.writeFileSync(path.join(b, 'approvals', 'T.approved'), '\n');
    expect(readApprovalToken(b, 'T')).toEqual({ kind: 'any' });
    fs.rmSync(path.join(b, 'approvals', 'T.approved'));
    const digest = 'sha256:' + '0'.repeat(64);
    writeApprovalToken(b, 'T', { digest, by: 'phone' });
    expect(readApprovalToken(b, 'T')).toEqual({ kind: 'digest', digest });
    fs.writeFileSync(path.join(b, 'approvals', 'U.approved'), '{"digest":"md5:x"}');
    expect(readApprovalToken(b, 'U')).toMatchObject({ kind: 'invalid' });
  });

  it('APPROVAL-1: concurrent writers of one token: exactly one wins, the file is never half-written', async () => {
    const b = bus();
    const digests = Array.from({ length: 20 }, (_, i) => 'sha256:' + i.toString(16).padStart(64, '0'));
    const outcomes = await Promise.all(digests.map(async (digest) => {
      try {
        writeApprovalToken(b, 'T', { digest, by: 'x' });
        return 'won';
      } catch (error) {
        return (error as { code?: string }).code;
      }
    }));
    expect(outcomes.filter((o) => o === 'won')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'E_EXISTS')).toHaveLength(19);
    expect(fs.readdirSync(path.join(b, 'approvals'))).toEqual(['T.approved']);
  });
});
