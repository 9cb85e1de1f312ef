// Shared setup for adapter tests: a temp repo with a bus, a temp HOME and COMMANDR_HOME,
// a real relay on port 0 (its data dir is COMMANDR_HOME, so hooks find its token and URL),
// and real child processes collected without blocking the event loop.
import { execFileSync, spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { initRepo } from '../../bus/init';
import { readEvents } from '../../bus/event-log';
import { gitCommonDirOf, sandboxArgv } from '../../adapters/sandbox';
import type { AnyBusEvent } from '../../protocol/bus/events';
import type { LiveEvent } from '../../protocol/live-events';
import { createRelay, type Relay } from '../../relay/server';

export const ROOT = path.resolve(__dirname, '..', '..');
export const CLAUDE_BIN = path.join(ROOT, 'node_modules', '.bin', 'claude');
export const OPENCODE_BIN = path.join(ROOT, 'node_modules', '.bin', 'opencode');
export const adapterBin = (adapter: string, tool: 'run' | 'wire') => path.join(ROOT, 'adapters', adapter, tool);
/** A settings hook as one line: its command and arguments (HOOK-10 puts the script in the arguments). */
export const hookLine = (hook: { command?: unknown; args?: unknown }): string => [hook.command, ...(Array.isArray(hook.args) ? hook.args : [])].join(' ');

const cleanups: Array<() => Promise<void> | void> = [];

/** Runs `undo` at cleanup(), before whatever was set up earlier (last in, first out). */
export function onCleanup(undo: () => Promise<void> | void): void {
  cleanups.push(undo);
}

export async function cleanup(): Promise<void> {
  while (cleanups.length > 0) await cleanups.pop()!();
}

/** Detached hooks may still be finishing in a temp dir: retry the removal for a while. */
export async function removeWhenQuiet(dir: string): Promise<void> {
  for (let i = 0; ; i++) {
    try {
      fs.rmSync(dir, { recursive: true, force: true });
      return;
    } catch (error) {
      if (i >= 100) throw error;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

export function tempDir(prefix: string): string {
  const dir = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), prefix)));
  cleanups.push(() => removeWhenQuiet(dir));
  return dir;
}

export const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' });

/** A repo with one commit and an initialised bus; `.claude/` and `.opencode/` ignored like a user would. */
export function makeRepo(): { repo: string; bus: string } {
  const repo = tempDir('commandr-adapter-repo-');
  git(repo, 'init', '-q', '-b', 'main');
  git(repo, 'config', 'user.email', 't@example.com');
  git(repo, 'config', 'user.name', 'Test');
  fs.writeFileSync(path.join(repo, 'README.md'), '# test\n');
  const report = initRepo(repo, { gateBin: path.join(ROOT, 'bin', 'pre-commit-gate'), registryFile: path.join(tempDir('commandr-reg-'), 'repos') });
  fs.appendFileSync(path.join(repo, '.gitignore'), '.claude/\n.opencode/\n.mcp.json\nopencode.json\n'); // what wire writes is not the agent's work
  git(repo, 'add', '-A');
  git(repo, 'commit', '-q', '-m', 'init');
  return { repo, bus: report.bus };
}

export interface Home {
  home: string;
  commandrHome: string;
}

export function makeHome(): Home {
  return { home: tempDir('commandr-home-'), commandrHome: tempDir('commandr-data-') };
}

export interface TestRelay {
  relay: Relay;
  /** Every live event the relay accepted, in order. */
  live(): LiveEvent[];
}

export async function startRelay(commandrHome: string): Promise<TestRelay> {
  const relay = await createRelay({
    port: 0, host: '127.0.0.1', demo: false, repos: [], dataDir: commandrHome,
    registryFile: path.join(commandrHome, 'no-registry'), appDir: path.join(commandrHome, 'no-app'),
  });
  cleanups.push(() => relay.close());
  const seen: LiveEvent[] = [];
  const record = relay.services.live.record.bind(relay.services.live);
  relay.services.live.record = (event, at) => {
    seen.push(event);
    return record(event, at);
  };
  return { relay, live: () => [...seen] };
}

export interface Ran {
  code: number | null;
  /** The signal that ended the process, or null when it exited. */
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  ms: number;
}

export type ChildEnv = Record<string, string | undefined>;

export function runProcess(command: string, args: string[], options: { cwd: string; env: ChildEnv; input?: string; timeoutMs?: number }): Promise<Ran> {
  const started = Date.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: options.cwd, env: options.env as NodeJS.ProcessEnv, stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 90_000);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal, stdout, stderr, ms: Date.now() - started });
    });
    child.stdin.on('error', () => { /* a child that exits without reading its input */ });
    child.stdin.end(options.input ?? '');
  });
}

/**
 * `command args` run the way relay/jobs runs every agent by default (SANDBOX-5): inside the real OS
 * sandbox, the data dir `dataDir` hidden, `repo`'s git hooks, config and approvals read-only. The
 * agent sees COMMANDR_SANDBOX because sandboxArgv sets it, as for a job; the test never sets it itself.
 */
export function runSandboxed(command: string, args: string[], options: { cwd: string; repo: string; dataDir: string; env: ChildEnv; timeoutMs?: number }): Promise<Ran> {
  const box = sandboxArgv({ cwd: options.cwd, repo: options.repo, gitCommonDir: gitCommonDirOf(options.repo), dataDir: options.dataDir, home: options.env.HOME }, command, args);
  const env: ChildEnv = { ...options.env, ...box.env };
  return runProcess(box.command, box.args, { cwd: options.cwd, env, timeoutMs: options.timeoutMs });
}

/** The env a Claude Code run needs here: offline, no retries, temp HOME, the model stand-in. */
export function claudeEnv(h: Home, apiUrl: string, extra: Record<string, string> = {}): ChildEnv {
  return {
    PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome,
    ANTHROPIC_BASE_URL: apiUrl, ANTHROPIC_API_KEY: 'sk-test',
    DISABLE_TELEMETRY: '1', DISABLE_AUTOUPDATER: '1', DISABLE_ERROR_REPORTING: '1',
    CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', CLAUDE_CODE_MAX_RETRIES: '0',
    ...extra,
  };
}

/** The env an OpenCode run needs here; the provider points at the OpenAI-compatible stand-in. */
export function opencodeEnv(h: Home, apiUrl: string, extra: Record<string, string> = {}): ChildEnv {
  return { PATH: process.env.PATH, HOME: h.home, COMMANDR_HOME: h.commandrHome, ...opencodeModelEnv(apiUrl), ...extra };
}

/** What points OpenCode at the stand-in, offline: for a caller that builds the rest of the env itself. */
export function opencodeModelEnv(apiUrl: string): Record<string, string> {
  const config = {
    provider: { stub: { npm: '@ai-sdk/openai-compatible', options: { baseURL: apiUrl, apiKey: 'sk-test' }, models: { 'stub-model': { tool_call: true } } } },
    model: 'stub/stub-model',
  };
  return {
    OPENCODE_DISABLE_MODELS_FETCH: '1', OPENCODE_DISABLE_AUTOUPDATE: '1', npm_config_offline: 'true',
    OPENCODE_CONFIG_CONTENT: JSON.stringify(config),
  };
}

export function busEvents(bus: string): AnyBusEvent[] {
  return readEvents(bus).events;
}

/**
 * Polls `check` until it returns a value or the deadline passes (for work done by detached hooks).
 * `what` names what was awaited; a function is asked only when the wait times out (so it can say what there was by then).
 */
export async function eventually<T>(check: () => T | undefined, timeoutMs = 30_000, what: string | (() => string) = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = check();
    if (value !== undefined && value !== false) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${typeof what === 'function' ? what() : what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}
