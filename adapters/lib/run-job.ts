// The shared skeleton of an adapter's `run` (RUN-n): read the job's env, validate it,
// spawn the vendor CLI with argv only (never a shell), turn its JSON lines into
// `SESSION: <id>` and the final text on stdout, and pass its exit code through.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { createInterface } from 'node:readline';
import { type Env, installRoot, onPath } from './env';
import { type Grants, grantsFor, IntentError, parseCommands, parseMode } from './intent';
import { awaitHookDelivery } from './sandbox-delivery';

export interface JobInput {
  prompt: string;
  grants: Grants;
  cwd: string;
  resume?: string;
}

export function readJobInput(env: Env = process.env): JobInput {
  const prompt = env.AGENT_PROMPT ?? '';
  if (prompt.trim() === '') throw new IntentError('E_NO_PROMPT', 'AGENT_PROMPT is empty: give the job a prompt');
  const grants = grantsFor(parseMode(env.AGENT_MODE), parseCommands(env.AGENT_COMMANDS));
  const cwd = path.resolve(env.AGENT_CWD?.trim() || process.cwd());
  let isDir = false;
  try { isDir = fs.statSync(cwd).isDirectory(); } catch { isDir = false; }
  if (!isDir) throw new IntentError('E_BAD_CWD', `AGENT_CWD ${cwd} is not a directory`);
  const resume = env.AGENT_RESUME?.trim() || undefined;
  return { prompt, grants, cwd, resume };
}

/**
 * A vendor binary: the override variable, else on PATH (absolute entries only: a relative one would
 * run a file of the checkout the job works in), else the copy installed beside commandr — named
 * by that path even when it is missing, so a spawn never searches PATH again.
 */
export function findBinary(name: string, override: string | undefined, env: Env = process.env): string {
  if (override?.trim()) return override.trim();
  return onPath(name, env) ?? path.join(installRoot(), 'node_modules', '.bin', name);
}

export interface LineSink {
  /** Called with each parsed JSON object of the vendor's stdout. */
  onObject(value: Record<string, unknown>): void;
  /** The final text to print once the child has exited. */
  finalText(): string | undefined;
  /** Exit code to use when the child exited 0 but reported a failure. */
  failedDespiteZero?(): boolean;
}

export interface SpawnSpec {
  command: string;
  args: string[];
  cwd: string;
  env: NodeJS.ProcessEnv;
}

const out = (line: string) => process.stdout.write(line.endsWith('\n') ? line : line + '\n');

/** Prints `SESSION: <id>` once, as soon as the vendor names its session. */
export function sessionAnnouncer(): (id: unknown) => void {
  let said = false;
  return (id) => {
    if (said || typeof id !== 'string' || id.length === 0) return;
    said = true;
    out(`SESSION: ${id}`);
  };
}

/** Runs the vendor CLI to completion; resolves with the exit code to use. */
export function runVendor(spec: SpawnSpec, sink: LineSink): Promise<number> {
  return new Promise((resolve) => {
    const child = spawn(spec.command, spec.args, { cwd: spec.cwd, env: spec.env, stdio: ['ignore', 'pipe', 'inherit'] });
    const forward = (signal: NodeJS.Signals) => () => { child.kill(signal); };
    const handlers = (['SIGTERM', 'SIGINT', 'SIGHUP'] as const).map((s) => [s, forward(s)] as const);
    for (const [s, h] of handlers) process.on(s, h);
    const lines = createInterface({ input: child.stdout! });
    lines.on('line', (line) => {
      let value: unknown;
      try { value = JSON.parse(line); } catch { value = undefined; }
      if (typeof value === 'object' && value !== null && !Array.isArray(value)) sink.onObject(value as Record<string, unknown>);
      else if (line.trim() !== '') out(line);
    });
    let exited: number | undefined;
    const finish = () => {
      for (const [s, h] of handlers) process.off(s, h);
      const text = sink.finalText();
      if (text !== undefined && text !== '') out(text);
      resolve(exited === 0 && sink.failedDespiteZero?.() ? 1 : (exited ?? 1));
    };
    child.on('error', (error) => {
      process.stderr.write(`run: cannot start ${spec.command}: ${error.message}\n`);
      exited = 127;
      finish();
    });
    child.on('close', (code, signal) => {
      if (exited !== undefined) return;
      exited = code ?? (signal ? 128 + (signalNumber(signal) ?? 15) : 1);
      lines.close();
      finish();
    });
  });
}

const signalNumber = (signal: NodeJS.Signals): number | undefined =>
  (({ SIGHUP: 1, SIGINT: 2, SIGKILL: 9, SIGTERM: 15 }) as Record<string, number>)[signal];

/** Entry-point wrapper: errors in the job's env become one line and exit 2. */
export function runJob(adapter: string, main: (input: JobInput) => Promise<number>): void {
  let input: JobInput;
  try {
    input = readJobInput();
  } catch (error) {
    const code = error instanceof IntentError ? error.code : 'E_RUN';
    process.stderr.write(`run: ${adapter}: ${code}: ${(error as Error).message}\n`);
    process.exitCode = 2;
    return;
  }
  // A sandboxed job's hooks deliver from inside the sandbox, which ends with this process (LIVE-DELIVER-4).
  main(input).then((code) => awaitHookDelivery().then(() => code)).then(
    (code) => { process.exitCode = code; },
    (error: unknown) => {
      process.stderr.write(`run: ${adapter}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
      process.exitCode = 1;
    },
  );
}
