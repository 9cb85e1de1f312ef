// One supervised run of an adapter's `run` executable (adapter contract §B): its
// own process group (so a kill reaches the agent CLI too, and the group goes when
// its leader exits: KILL-1), env-only inputs (no shell, no interpolation), stdout
// streamed, `SESSION: <id>` lines reported. Task jobs and commander turns share it.
import { spawn } from 'node:child_process';
import * as fs from 'node:fs';
import { sandboxArgv, type SandboxSpec } from '../../adapters/sandbox';
import { groupEnded, signalGroup } from '../process-group';

export interface AdapterRunInput {
  /** Absolute path of the adapter's `run` executable. */
  run: string;
  cwd: string;
  /** The contract's inputs (AGENT_PROMPT, AGENT_MODE, AGENT_CWD, AGENT_RESUME, COMMANDR_*) and any extra env. */
  env: Record<string, string | undefined>;
  onStdout: (chunk: string) => void;
  onStderr?: (chunk: string) => void;
  onSession?: (session: string) => void;
  /** Run inside the OS sandbox (SANDBOX-n); absent only when the relay was started with it off. */
  sandbox?: SandboxSpec;
}

export interface AdapterRunResult {
  code: number | null;
  signal: NodeJS.Signals | null;
  /** The last KB of stderr, for telling a lost session from another failure. */
  stderrTail: string;
  /** Set when the executable could not be started at all. */
  spawnError: Error | null;
  /** True when this run was stopped through `stop()`. */
  stopped: boolean;
}

export interface AdapterRun {
  pid: number | undefined;
  done: Promise<AdapterRunResult>;
  /** SIGTERM to the whole process group, SIGKILL after `graceMs`. */
  stop: (graceMs?: number) => void;
}

const SESSION_LINE = /^SESSION:\s*(\S{1,200})\s*$/;
const TAIL = 1024;

export function startAdapterRun(input: AdapterRunInput): AdapterRun {
  // Inside the sandbox a missing executable would be bwrap's exit 1: say what spawn would have said.
  if (input.sandbox) {
    try {
      fs.accessSync(input.run, fs.constants.X_OK);
    } catch (error) {
      const spawnError = Object.assign(new Error(`spawn ${input.run} ${(error as NodeJS.ErrnoException).code ?? 'EACCES'}`), { code: (error as NodeJS.ErrnoException).code });
      return { pid: undefined, done: Promise.resolve({ code: null, signal: null, stderrTail: '', spawnError, stopped: false }), stop: () => undefined };
    }
  }
  // SANDBOX-5: the sandbox is the leader of the process group; the agent is its child.
  const boxed = input.sandbox ? sandboxArgv({ ...input.sandbox, home: input.sandbox.home ?? input.env.HOME, newSession: false }, input.run) : null;
  const child = spawn(boxed ? boxed.command : input.run, boxed ? boxed.args : [], {
    cwd: input.cwd,
    env: { ...input.env, ...boxed?.env } as NodeJS.ProcessEnv,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderrTail = '';
  let spawnError: Error | null = null;
  let stopped = false;
  let partial = '';
  child.stdout.setEncoding('utf8');
  child.stderr.setEncoding('utf8');
  child.stdout.on('data', (chunk: string) => {
    // Session first, so the chunk that carries it is already attributed to it.
    partial += chunk;
    const lines = partial.split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      const m = SESSION_LINE.exec(line.trimEnd());
      if (m && input.onSession) input.onSession(m[1]!);
    }
    input.onStdout(chunk);
  });
  child.stderr.on('data', (chunk: string) => {
    stderrTail = (stderrTail + chunk).slice(-TAIL);
    input.onStderr?.(chunk);
  });
  child.on('error', (error) => {
    spawnError = error;
  });
  // KILL-1: the run is over when its leader exits, however it ended. Whatever it started (the
  // agent CLI, a tool's child) is killed with its group, and the run settles (process-group.ts).
  const done = groupEnded(child).then(({ code, signal }): AdapterRunResult => ({ code, signal, stderrTail, spawnError, stopped }));
  const stop = (graceMs = 2000): void => {
    stopped = true;
    signalGroup(child.pid, 'SIGTERM');
    const timer = setTimeout(() => signalGroup(child.pid, 'SIGKILL'), graceMs);
    timer.unref();
    void done.then(() => {
      clearTimeout(timer);
      // Anything the agent left behind in its group goes too.
      signalGroup(child.pid, 'SIGKILL');
    });
  };
  return { pid: child.pid, done, stop };
}

/** A one-line reason for a failed run, for task_failed and commander state. */
export function failureReason(result: AdapterRunResult): string {
  if (result.spawnError) return `adapter could not start: ${result.spawnError.message}`;
  if (result.stopped) return 'stopped by the relay';
  if (result.signal) return `killed by ${result.signal}`;
  const last = result.stderrTail.trim().split('\n').pop()?.trim();
  return `exited with status ${result.code}${last ? `: ${last.slice(0, 200)}` : ''}`;
}
