// SUITE-9: vitest files outside app/ share their worker's process and loaded modules, and each gives
// back the environment and the globals it changed, so no file sees what another left behind.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error -- an .mts import (vitest's own config); its type is not needed here
import vitestConfig from '../vitest.config.mts';

const ROOT = path.resolve(__dirname, '..');
const dir = mkdtempSync(path.join(tmpdir(), 'suite-file-scope-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
symlinkSync(path.join(ROOT, 'node_modules'), path.join(dir, 'node_modules'));

/** A test file that checks nothing of `other`'s is left, then changes the process: env, a global, HOME. */
const file = (self: string, other: string) => `import { appendFileSync } from 'node:fs';
import { expect, it } from 'vitest';
it('${self} sees nothing ${other} left', () => {
  appendFileSync(${JSON.stringify(path.join(dir, 'pids'))}, process.pid + '\\n');
  expect(process.env.LEAK_${other}).toBeUndefined();
  expect(globalThis.leak${other}).toBeUndefined();
  expect(process.env.HOME).toBe(${JSON.stringify(process.env.HOME)});
  process.env.LEAK_${self} = '1';
  globalThis.leak${self} = { from: '${self}' };
  process.env.HOME = '/changed/by/${self}';
});
`;
writeFileSync(path.join(dir, 'a.test.mjs'), file('A', 'B'));
writeFileSync(path.join(dir, 'b.test.mjs'), file('B', 'A'));

/** Runs the two files in one worker, one after the other, with `setupFiles`: its exit status, the pid each file ran in, and its output. */
function run(setupFiles: string[]): { status: number | null; pids: string[]; out: string } {
  rmSync(path.join(dir, 'pids'), { force: true });
  writeFileSync(path.join(dir, 'vitest.config.mjs'), `export default { test: { include: ['*.test.mjs'], pool: 'forks', maxWorkers: 1, isolate: false, setupFiles: ${JSON.stringify(setupFiles)} } };\n`);
  const r = spawnSync(path.join(ROOT, 'node_modules', '.bin', 'vitest'), ['run', '--root', dir], { cwd: dir, encoding: 'utf8' });
  return { status: r.status, pids: readFileSync(path.join(dir, 'pids'), 'utf8').split('\n').filter(Boolean), out: r.stdout + r.stderr };
}

describe('SUITE-9: files share a worker and give back what they changed', () => {
  it('SUITE-9: every file outside app/ runs without a fresh process each, with test/file-scope.ts before it; the app\'s unit tests keep a process per file', () => {
    const projects = vitestConfig.test?.projects as { test: { name: string; include: string[]; exclude: string[]; isolate?: boolean; setupFiles?: string[] } }[];
    const shared = projects.find((p) => p.test.name === 'shared')!;
    const app = projects.find((p) => p.test.name === 'app')!;
    expect(shared.test.isolate).toBe(false);
    expect(shared.test.setupFiles).toEqual(['test/file-scope.ts']);
    expect(shared.test.exclude).toContain('app/**');
    expect(app.test.include).toEqual(['app/**/*.test.ts']);
    expect(app.test.isolate ?? vitestConfig.test?.isolate ?? true).toBe(true);
  });

  it('SUITE-9: with test/file-scope.ts, the second file of one process sees none of the first file\'s environment, globals or HOME; without it, it does', { timeout: 120_000 }, () => {
    const scoped = run([path.join(ROOT, 'test', 'file-scope.ts')]);
    expect(scoped.status, scoped.out).toBe(0);
    expect(scoped.pids).toHaveLength(2);
    expect(new Set(scoped.pids).size, 'both files ran in one process').toBe(1);
    const bare = run([]);
    expect(bare.pids).toHaveLength(2);
    expect(new Set(bare.pids).size).toBe(1);
    expect(bare.status, 'the control run, without the setup file, must see the leak').not.toBe(0);
    expect(bare.out).toMatch(/LEAK_|leak[AB]|changed\/by/);
  });
});
