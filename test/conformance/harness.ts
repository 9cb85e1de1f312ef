// Shared fixture of the bus conformance suite: a private build of the real bin
// tools, real temp git repos with `commandr init`, and a runner for the executables.
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { afterAll, beforeAll, onTestFinished } from 'vitest';

const ROOT = path.join(__dirname, '..', '..');
export const BUS_TOOLS = ['claim', 'complete', 'progress', 'pre-commit-gate', 'index', 'annotate-write', 'commandr', 'verify'] as const;
export type Tool = (typeof BUS_TOOLS)[number];

export interface Install {
  root: string;
  bin: (tool: Tool) => string;
}

/**
 * Bundles the cli entries exactly as scripts/build.mjs does, but into a private
 * install dir with a copy of bin/, so another engineer's rebuild of dist/ (which
 * starts by deleting it) can never pull the executables from under a test.
 */
export async function buildInstall(): Promise<Install> {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'bus-install-'));
  const { build } = await import('esbuild');
  // `task` has no bin of its own: `commandr task` runs its bundle.
  const entryPoints = Object.fromEntries([...BUS_TOOLS, 'task'].map((t) => [t, path.join(ROOT, 'cli', `${t}.ts`)]));
  await build({
    entryPoints, outdir: path.join(root, 'dist'), outExtension: { '.js': '.cjs' }, bundle: true, platform: 'node', target: 'node20',
    format: 'cjs', minify: true, legalComments: 'none', external: ['bufferutil', 'utf-8-validate', './relay.cjs'], logLevel: 'error',
  });
  fs.mkdirSync(path.join(root, 'bin'));
  fs.copyFileSync(path.join(ROOT, 'bin', 'load.cjs'), path.join(root, 'bin', 'load.cjs'));
  for (const tool of BUS_TOOLS) fs.copyFileSync(path.join(ROOT, 'bin', tool), path.join(root, 'bin', tool));
  for (const tool of BUS_TOOLS) fs.chmodSync(path.join(root, 'bin', tool), 0o755);
  return { root, bin: (tool) => path.join(root, 'bin', tool) };
}

export interface Fixture {
  /** This file's private install; built in beforeAll, so read it inside a test. */
  readonly install: Install;
  /** A fresh World over the install, removed when the test that made it finishes. */
  world: (options?: { init?: boolean }) => World;
}

/**
 * For a test file: builds one private install before its tests and removes it after
 * them. Each world ends with the test that made it, so a test may make several and
 * none outlives a failure; a teardown the test registers later (onTestFinished) runs
 * before its worlds are removed.
 */
export function useInstall(): Fixture {
  let install: Install | undefined;
  beforeAll(async () => {
    install = await buildInstall();
  });
  afterAll(() => {
    if (install) fs.rmSync(install.root, { recursive: true, force: true });
  });
  const built = (): Install => {
    if (!install) throw new Error('useInstall: the install is built in beforeAll; use it inside a test');
    return install;
  };
  return {
    get install() {
      return built();
    },
    world(options = {}) {
      const world = new World(built(), options);
      onTestFinished(() => world.cleanup());
      return world;
    },
  };
}

export interface Result {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** A clean environment: private HOME and registry, no inherited git or agent variables. */
export function baseEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env = {} as NodeJS.ProcessEnv;
  for (const [k, v] of Object.entries(process.env)) if (!/^(GIT_|AGENTS_|COUNCIL_)/.test(k)) env[k] = v;
  Object.assign(env, {
    HOME: home, AGENTS_INDEX_REPOS: path.join(home, '.agents', 'repos'), AGENTS_INDEX_FILE: path.join(home, '.agents', 'index.json'),
    GIT_CONFIG_NOSYSTEM: '1', GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com',
  });
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function run(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv; input?: string | Buffer }): Result {
  const r = spawnSync(file, args, { cwd: options.cwd, env: options.env, input: options.input, encoding: 'utf8' });
  if (r.error) throw r.error;
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

export function runAsync(file: string, args: string[], options: { cwd: string; env: NodeJS.ProcessEnv }): Promise<Result> {
  return new Promise((resolve, reject) => {
    const child = spawn(file, args, { cwd: options.cwd, env: options.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stdout, stderr }));
  });
}

export function git(cwd: string, args: string[], env: NodeJS.ProcessEnv): string {
  return execFileSync('git', args, { cwd, env, encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
}

/** A temp world: HOME, one git repo (main checkout) made bus-ready by the real `commandr init`. */
export class World {
  readonly dir: string;
  readonly home: string;
  readonly repo: string;
  readonly bus: string;
  env: NodeJS.ProcessEnv;

  constructor(readonly install: Install, options: { init?: boolean } = {}) {
    this.dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'bus-world-')));
    this.home = path.join(this.dir, 'home');
    fs.mkdirSync(this.home);
    this.repo = path.join(this.dir, 'repo');
    this.bus = path.join(this.repo, '.agents');
    this.env = baseEnv(this.home);
    fs.mkdirSync(this.repo);
    git(this.repo, ['init', '-q', '-b', 'main'], this.env);
    fs.writeFileSync(path.join(this.repo, 'README.md'), 'hello\n');
    git(this.repo, ['add', 'README.md'], this.env);
    git(this.repo, ['commit', '-q', '-m', 'init'], this.env);
    if (options.init !== false) {
      const r = this.tool('commandr', ['init']);
      if (r.code !== 0) throw new Error(`commandr init failed: ${r.stderr}`);
    }
  }

  tool(tool: Tool, args: string[] = [], options: { cwd?: string; env?: Record<string, string | undefined>; input?: string | Buffer } = {}): Result {
    const env = options.env ? { ...this.env, ...options.env } : this.env;
    for (const [k, v] of Object.entries(env)) if (v === undefined) delete env[k];
    return run(this.install.bin(tool), args, { cwd: options.cwd ?? this.repo, env, input: options.input });
  }

  git(args: string[], cwd = this.repo, env: Record<string, string> = {}): string {
    return git(cwd, args, { ...this.env, ...env });
  }

  /** `git worktree add <dir>/<name> -b <branch>`; returns the worktree path. */
  worktree(name: string, branch: string): string {
    const wt = path.join(this.dir, name);
    this.git(['worktree', 'add', '-q', '-b', branch, wt]);
    return wt;
  }

  write(rel: string, text: string | Buffer): string {
    const file = path.join(this.bus, rel);
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
    return file;
  }

  events(): Array<Record<string, unknown>> {
    const file = path.join(this.bus, 'events.jsonl');
    if (!fs.existsSync(file)) return [];
    return fs.readFileSync(file, 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as Record<string, unknown>);
  }

  eventsText(): string {
    const file = path.join(this.bus, 'events.jsonl');
    return fs.existsSync(file) ? fs.readFileSync(file, 'utf8') : '';
  }

  list(dir: string): string[] {
    return fs.readdirSync(path.join(this.bus, dir)).filter((n) => n !== '.gitkeep').sort();
  }

  cleanup(): void {
    fs.rmSync(this.dir, { recursive: true, force: true });
  }
}

export interface PacketSpec {
  id?: string;
  type?: string;
  scope?: string;
  blockedBy?: string[];
  extra?: string;
  sections?: readonly string[];
}

export const ALL_SECTIONS = ['Context', 'Acceptance criteria', 'Files to touch', 'Do not touch'] as const;

/** A packet's text; every section present unless told otherwise. */
export function packet(spec: PacketSpec): string {
  const lines = ['---'];
  if (spec.id !== undefined) lines.push(`id: ${JSON.stringify(spec.id)}`);
  lines.push(`type: ${spec.type ?? 'implementation'}`);
  if (spec.scope !== '') lines.push(`scope: ${JSON.stringify(spec.scope ?? 'src/**')}`);
  if (spec.blockedBy) lines.push(`blocked-by: [${spec.blockedBy.map((b) => JSON.stringify(b)).join(', ')}]`);
  if (spec.extra) lines.push(spec.extra);
  lines.push('---');
  for (const section of spec.sections ?? ALL_SECTIONS) lines.push(`## ${section}`, '', `about ${section.toLowerCase()}`, '');
  return lines.join('\n');
}

/** Every file under the bus, relative, sorted (for "nothing else changed" checks). */
export function snapshot(bus: string): Record<string, string> {
  const out: Record<string, string> = {};
  const walk = (dir: string): void => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else out[path.relative(bus, p)] = fs.readFileSync(p).toString('base64');
    }
  };
  walk(bus);
  return out;
}

/** Files on the bus that no rule allows (temp residue, stray files). */
export function strayEntries(bus: string): string[] {
  const allowed: Array<[RegExp, RegExp]> = [
    [/^(inbox|claimed|done)$/, /^([^/]+\.md|\.gitkeep)$/],
    [/^approvals$/, /^([^/]+\.approved|\.gitkeep)$/],
    [/^council$/, /^[^/]+\.json$/],
    [/^annotations$/, /^[A-Za-z0-9][A-Za-z0-9._-]*\/[0-9]{4}-[0-9]{4}\.json$/],
  ];
  const stray: string[] = [];
  for (const rel of Object.keys(snapshot(bus))) {
    if (rel === 'events.jsonl' || rel === 'registry.json') continue;
    const [top, ...rest] = rel.split('/');
    const ok = allowed.some(([dir, file]) => dir.test(top!) && file.test(rest.join('/')));
    if (!ok) stray.push(rel);
  }
  return stray;
}
