// GITRUN-1: bus/git/run.ts is the only product code that starts git. A scan of the shipped source
// (bus, relay, cli, adapters, policy, protocol, bin, app) for a process started with `git` as its
// program. Not scanned: tests (*.test.ts, test/, e2e/), bench/ and scripts/ — they build fixture
// repositories of their own making and never run git in a repository a person or agent gave them.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(__dirname, '..', '..');
const SCANNED = ['bus', 'relay', 'cli', 'adapters', 'policy', 'protocol', 'bin', 'app'];
const RUNNER_DIR = 'bus/git/';
const ALLOWED = new Set<string>([]);

/** A call whose first argument is the program `git` (spawn, execFile, a promisified run…), or a shell line starting with git. */
const DIRECT = [/\(\s*(['"`])git\1\s*[,)]/, /\bexec(?:Sync)?\(\s*(['"`])git\s/];

export function directGitCalls(source: string): number[] {
  return source.split('\n').flatMap((line, i) => (DIRECT.some((re) => re.test(line)) ? [i + 1] : []));
}

function sources(dir: string): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) {
      if (entry.name !== 'node_modules' && entry.name !== '.next') out.push(...sources(rel));
    } else if (/\.(ts|tsx|js|mjs|cjs)$/.test(entry.name) && !/\.test\.(ts|tsx|js)$/.test(entry.name)) out.push(rel);
  }
  return out;
}

describe('one git runner', () => {
  it('GITRUN-1: the scan finds a direct git spawn in each form it looks for', () => {
    for (const line of [
      "execFileSync('git', ['status'], { cwd })",
      'spawn("git", args)',
      'const r = spawnSync(`git`, [])',
      "await run('git', ['rev-parse'])",
      "execSync('git status --porcelain')",
    ]) expect(directGitCalls(line), line).toEqual([1]);
    expect(directGitCalls("if (program !== 'git') return; const kind = { git: 'git' };")).toEqual([]);
  });

  it('GITRUN-1: no product module outside bus/git/ spawns git itself', () => {
    const offenders: string[] = [];
    const files = SCANNED.filter((d) => fs.existsSync(path.join(ROOT, d))).flatMap(sources);
    expect(files.length).toBeGreaterThan(100);
    for (const file of files) {
      const rel = file.split(path.sep).join('/');
      if (rel.startsWith(RUNNER_DIR) || ALLOWED.has(rel)) continue;
      for (const line of directGitCalls(fs.readFileSync(path.join(ROOT, file), 'utf8'))) offenders.push(`${rel}:${line}`);
    }
    expect(offenders, 'spawn git through bus/git/run.ts instead').toEqual([]);
  });
});
