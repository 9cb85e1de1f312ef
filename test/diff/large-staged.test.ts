// A huge staged file (issue 13 item 2) in a real repo: the relay's diff and digest
// code, run in a child process, streams git's output — its peak memory stays far
// below the file's size — and still digests every byte (DIGEST-1, DIFF-5).
import { execFileSync, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import * as fs from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { git, makeRepo, TempDirs } from '../council/fixtures';

const dirs = new TempDirs();
afterEach(() => dirs.cleanup());

const MB = 1 << 20;
const FILE_BYTES = 150 * MB;

function writeBigText(file: string): void {
  const line = 'a line of generated log text that is long enough to make the file big quickly\n';
  const block = Buffer.from(line.repeat(Math.floor(MB / line.length)));
  const fd = fs.openSync(file, 'w');
  for (let written = 0; written < FILE_BYTES; written += block.length) fs.writeSync(fd, block);
  fs.closeSync(fd);
}

function streamedGitDigest(cwd: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash('sha256');
    const child = spawn('git', ['diff', '--cached', '--binary', '--no-color', '--no-ext-diff'], { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
    child.stdout.on('data', (d: Buffer) => hash.update(d));
    child.on('close', (code) => (code === 0 ? resolve('sha256:' + hash.digest('hex')) : reject(new Error(`git exit ${code}`))));
  });
}

describe('a 150 MB staged file', () => {
  it('DIGEST-1 DIFF-5: task.diff and the digest stream it: the relay process peaks far under the file size, lists it as too large with its size, and digests all of it', async () => {
    const { repo, bus } = makeRepo(dirs);
    const wt = join(dirs.make('large-wt-'), 'wt');
    git(repo, 'worktree', 'add', '-q', '-b', 'agent/L-1', wt);
    writeBigText(join(wt, 'big.log'));
    fs.writeFileSync(join(wt, 'small.ts'), 'export const small = 1;\n');
    git(wt, '-c', 'core.compression=1', 'add', '-A');
    const expected = await streamedGitDigest(wt);
    const tsx = join(__dirname, '..', '..', 'node_modules', 'tsx', 'dist', 'cli.mjs');
    const out = execFileSync(process.execPath, [tsx, join(__dirname, 'large-staged-child.ts'), bus, 'L-1', wt], { encoding: 'utf8', maxBuffer: 4 * MB });
    const result = JSON.parse(out) as { digest: string; shown: string; patchBytes: number; big: Record<string, unknown>; baseRssKb: number; maxRssKb: number };
    expect(result.digest).toBe(expected);
    expect(result.shown).toBe(expected);
    expect(result.big).toMatchObject({ too_large: true, size: expect.any(Number), hunks_omitted: true });
    expect(result.big.size as number).toBeGreaterThanOrEqual(FILE_BYTES - MB);
    expect(result.patchBytes).toBeLessThan(MB);
    // Buffering the patch (the old maxBuffer: Infinity path) alone would add > 150 MB to the process's peak.
    expect((result.maxRssKb - result.baseRssKb) * 1024).toBeLessThan(FILE_BYTES / 2);
  }, 240_000);
});
