// Shared set-up for council, diff and remote-claim tests: real git repos with a
// bus in temp dirs, a scriptable evaluator process, and the council CLI bundled
// privately (so a concurrent `npm run build` elsewhere cannot pull dist/ away).
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');

export function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

export class TempDirs {
  private dirs: string[] = [];
  make(prefix: string): string {
    const dir = mkdtempSync(join(tmpdir(), prefix));
    this.dirs.push(dir);
    return dir;
  }
  cleanup(): void {
    for (const d of this.dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  }
}

/** A repo on `main` with one commit and an initialised bus. */
export function makeRepo(dirs: TempDirs): { repo: string; bus: string } {
  const repo = dirs.make('council-repo-');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 't@example.com');
  git(repo, 'config', 'user.name', 'Tester');
  writeFileSync(join(repo, 'README.md'), '# demo\n');
  writeFileSync(join(repo, 'app.ts'), 'export const answer = 41;\n');
  git(repo, 'add', '.');
  git(repo, 'commit', '-q', '-m', 'base');
  const bus = join(repo, '.agents');
  for (const d of ['inbox', 'claimed', 'done', 'approvals']) mkdirSync(join(bus, d), { recursive: true });
  return { repo, bus };
}

export function packetText(id: string, extra = ''): string {
  return `---\nid: ${id}\ntype: implementation\nscope: "src/**"\n---\n## Context\nFix the answer.\n\n## Acceptance criteria\n- answer is 42\n${extra}`;
}

export function writePacket(bus: string, dir: 'inbox' | 'claimed' | 'done', name: string, text: string): string {
  const file = join(bus, dir, name);
  writeFileSync(file, text);
  return file;
}

/**
 * An evaluator for COUNCIL_EVALUATOR_CMD. Per dimension, `plan` says what to do:
 * print `out` (default `VOTE: PASS`), exit with `exit`, or hang `hangMs`. Every
 * call copies its prompt to `<log>/<dimension>.prompt` and its argv to `<log>/<dimension>.argv`.
 */
export function evaluatorScript(dirs: TempDirs, plan: Record<string, { out?: string; exit?: number; hangMs?: number }>) {
  const dir = dirs.make('council-eval-');
  const log = join(dir, 'log');
  mkdirSync(log);
  const script = join(dir, 'evaluator.cjs');
  writeFileSync(script, `#!/usr/bin/env node
const fs = require('fs');
const [promptFile, dimension] = process.argv.slice(2);
const plan = ${JSON.stringify(plan)}[dimension] || {};
fs.writeFileSync(${JSON.stringify(log)} + '/' + dimension + '.argv', JSON.stringify(process.argv.slice(2)));
fs.copyFileSync(promptFile, ${JSON.stringify(log)} + '/' + dimension + '.prompt');
const finish = () => { process.stdout.write(plan.out ?? 'VOTE: PASS\\n'); process.exit(plan.exit ?? 0); };
if (plan.hangMs) setTimeout(finish, plan.hangMs); else finish();
`);
  chmodSync(script, 0o755);
  return { script, log, cmd: `${process.execPath} ${script}` };
}

const bundles = new Map<string, Promise<string>>();
/** Bundles cli/<name>.ts once per test file into a private temp dir. */
export function bundleCli(name: string): Promise<string> {
  let bundle = bundles.get(name);
  if (!bundle) {
    bundle = (async () => {
      const { build } = await import('esbuild');
      const out = join(mkdtempSync(join(tmpdir(), `${name}-cli-`)), `${name}.cjs`);
      await build({ entryPoints: [join(ROOT, 'cli', `${name}.ts`)], outfile: out, bundle: true, platform: 'node', target: 'node20', format: 'cjs', logLevel: 'error' });
      return out;
    })();
    bundles.set(name, bundle);
  }
  return bundle;
}

export const councilCli = (): Promise<string> => bundleCli('council');

export interface RunResult { code: number | null; stdout: string; stderr: string }

export function run(file: string, args: string[], options: { cwd?: string; env?: NodeJS.ProcessEnv; input?: string } = {}): Promise<RunResult> {
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, [file, ...args], { cwd: options.cwd, env: options.env ?? process.env });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (c) => (stdout += c));
    child.stderr.on('data', (c) => (stderr += c));
    child.on('error', fail);
    child.on('close', (code) => done({ code, stdout, stderr }));
    child.stdin.end(options.input ?? '');
  });
}

/** The environment a council under test sees: nothing inherited that could reach a real API. */
export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  // Next's global types make NODE_ENV required on ProcessEnv; a child needs no NODE_ENV.
  return { PATH: process.env.PATH, HOME: process.env.HOME, ...extra } as unknown as NodeJS.ProcessEnv;
}
