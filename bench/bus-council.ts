// Figures for the staged digest, the task diff, the council and remote claims:
// median wall time of N runs on real temp repos. `npx tsx bench/bus-council.ts`.
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { stagedDigest } from '../bus/digest';
import { taskDiff } from '../bus/diff';

const root = mkdtempSync(join(tmpdir(), 'bench-bus-council-'));
const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

async function median(runs: number, fn: () => unknown | Promise<unknown>): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - t) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(times.length / 2)]!;
}

function repo(name: string, files: number): string {
  const dir = join(root, name);
  mkdirSync(dir);
  git(dir, 'init', '-q', '-b', 'main');
  git(dir, 'config', 'user.email', 'b@example.com');
  git(dir, 'config', 'user.name', 'Bench');
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `f${i}.txt`), `line a ${i}\nline b\n`);
  git(dir, 'add', '.');
  git(dir, 'commit', '-q', '-m', 'base');
  for (const d of ['inbox', 'claimed', 'done', 'approvals']) mkdirSync(join(dir, '.agents', d), { recursive: true });
  return dir;
}

function change(dir: string, files: number): void {
  for (let i = 0; i < files; i++) writeFileSync(join(dir, `f${i}.txt`), `line A ${i}\nline b\nadded\n`);
}

async function bundle(name: string): Promise<string> {
  const out = join(root, `${name}.cjs`);
  await build({ entryPoints: [join(__dirname, '..', 'cli', `${name}.ts`)], outfile: out, bundle: true, minify: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'error' });
  return out;
}

async function main(): Promise<void> {
  const rows: [string, number][] = [];
  const small = repo('small', 10);
  change(small, 1);
  git(small, 'add', '-A');
  rows.push(['stagedDigest, 1 file staged', await median(20, () => stagedDigest(small))]);
  const wide = repo('wide', 1000);
  change(wide, 1000);
  git(wide, 'add', '-A');
  rows.push(['stagedDigest, 1000 files staged', await median(10, () => stagedDigest(wide))]);

  const branchy = repo('branchy', 200);
  const wt = join(root, 'branchy-wt');
  git(branchy, 'worktree', 'add', '-q', '-b', 'agent/B-1', wt);
  change(wt, 200);
  git(wt, 'add', 'f1.txt');
  rows.push(['taskDiff, agent/<id> worktree, 200 files', await median(10, () => taskDiff(join(branchy, '.agents'), 'B-1'))]);

  const council = await bundle('council');
  const evaluator = join(root, 'eval.sh');
  writeFileSync(evaluator, '#!/bin/sh\necho "VOTE: PASS"\n', { mode: 0o755 });
  const diff = 'diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n';
  const env = { PATH: process.env.PATH, COUNCIL_EVALUATOR_CMD: evaluator } as unknown as NodeJS.ProcessEnv;
  const plain = { PATH: process.env.PATH } as unknown as NodeJS.ProcessEnv;
  rows.push(['council --diff - (process, 3 seam evaluators)', await median(10, () => spawnSync(process.execPath, [council, '--diff', '-'], { input: diff, env }))]);
  rows.push(['council --diff - (process, empty diff, no evaluator)', await median(10, () => spawnSync(process.execPath, [council, '--diff', '-'], { input: '', env }))]);

  const claim = await bundle('claim');
  const origin = join(root, 'origin.git');
  git(root, 'init', '-q', '--bare', '-b', 'main', origin);
  const clone = repo('clone', 1);
  git(clone, 'remote', 'add', 'origin', origin);
  for (let i = 0; i < 10; i++) writeFileSync(join(clone, '.agents', 'inbox', `p${i}.md`), `---\nid: P-${i}\ntype: research\nscope: "*"\n---\n`);
  rows.push(['claim --remote (process, one won task)', await median(10, () => spawnSync(process.execPath, [claim, '--remote', 'origin'], { cwd: clone, env: plain }))]);
  rows.push(['claim (process, local only, inbox empty)', await median(10, () => spawnSync(process.execPath, [claim], { cwd: clone, env: plain }))]);

  console.log('| measure | median ms |\n|---|---:|');
  for (const [name, ms] of rows) console.log(`| ${name} | ${ms.toFixed(1)} |`);
}

main().finally(() => rmSync(root, { recursive: true, force: true }));
