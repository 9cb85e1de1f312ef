// The node side of the OpenCode plugin: `hook <event>` with the event's JSON on stdin (HOOK-6;
// a plugin wired before that passes it as the one argument after the event, `hook <event> <json>`,
// which past 128 KiB cannot be passed at all). Events: idle, end, tool-start, tool-end, prompt
// (prints {block, files, warning}), consumed. Always exits 0; stdin over MAX_PAYLOAD_BYTES is not read.
import * as fs from 'node:fs';
import { readPayload } from '../../lib/hook-io';
import { nowSeq, onSessionEnd, onToolEnd, onToolStart, onTurnEnd, type SessionRef } from '../../lib/hook-actions';
import { consumeAnnotations, pendingBlock } from '../../lib/inject';
import { taskContext } from '../../lib/task-context';

type Data = Record<string, unknown>;

const str = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
const obj = (v: unknown): Data => (typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Data) : {});

function parse(text: string | undefined): Data | undefined {
  try {
    const value: unknown = JSON.parse(text ?? '');
    return typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Data) : undefined;
  } catch {
    return undefined;
  }
}

/** How long session end waits for the session's turn-end hook (which itself waits 3 s, LIVE-EMIT-5). */
const END_WAIT_MS = 15_000;

const pidsOf = (v: unknown): number[] =>
  Array.isArray(v) ? v.filter((p): p is number => Number.isSafeInteger(p) && p > 1).slice(0, 64) : [];

const PROCFS = fs.existsSync('/proc/self/stat');

/** One of our processes that still runs: it exists, is not a zombie, and (no procfs) we may signal it. */
function alive(pid: number): boolean {
  if (PROCFS) {
    try {
      const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
      return stat.charAt(stat.lastIndexOf(')') + 2) !== 'Z';
    } catch {
      return false;
    }
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false; // ESRCH: gone; EPERM: the pid now belongs to someone else
  }
}

/** Resolves once none of `pids` runs any more, or after `waitMs` (OCEND-2). */
async function untilGone(pids: number[], waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  while (pids.some(alive) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
}

async function handle(event: string, data: Data): Promise<void> {
  const session = str(data.session);
  const cwd = str(data.cwd);
  if (!session || !cwd) return;
  const ref: SessionRef = { session, cwd };
  const env = process.env;
  const call = { tool: str(data.tool) ?? 'unknown', input: obj(data.args) };
  // When the plugin saw it happen (ORDER-2), not when this detached process got to run.
  const seq = typeof data.at === 'number' && Number.isSafeInteger(data.at) && data.at >= 0 ? data.at : nowSeq();
  switch (event) {
    case 'idle': return onTurnEnd(ref, env, seq);
    case 'end':
      await untilGone(pidsOf(data.after), END_WAIT_MS);
      return onSessionEnd(ref, env, seq);
    case 'tool-start': return onToolStart(ref, call, env, str(data.call), seq);
    case 'tool-end': {
      const exit = typeof data.exit === 'number' && Number.isInteger(data.exit) ? data.exit : undefined;
      return onToolEnd(ref, call, { output: str(data.output), exit }, env, str(data.call), seq);
    }
    case 'prompt': {
      const ctx = taskContext(cwd, env);
      const pending = ctx ? pendingBlock(ctx) : undefined;
      if (!pending) return;
      // Notes held back (ANNOT-6): the plugin shows the warning to the person (OpenCode's log and a
      // TUI toast); stderr is for running the hook by hand.
      if (pending.warning) fs.writeSync(2, pending.warning + '\n');
      if (pending.parts.length > 0 || pending.warning) fs.writeSync(1, JSON.stringify(pending));
      return;
    }
    case 'consumed': {
      const ctx = taskContext(cwd, env);
      const files = Array.isArray(data.files) ? data.files.filter((f): f is string => typeof f === 'string') : [];
      if (ctx) consumeAnnotations(ctx, files);
      return;
    }
  }
}

/** The event's data: the old plugin's argument when there is one, else stdin (bounded, a JSON object or nothing). */
function eventData(): Data | undefined {
  if (process.argv[3] !== undefined) return parse(process.argv[3]);
  return readPayload();
}

const data = eventData();
Promise.resolve()
  .then(() => (data && process.argv[2] ? handle(process.argv[2], data) : undefined))
  .catch((error: unknown) => {
    if (process.env.COMMANDR_HOOK_DEBUG) process.stderr.write(`commandr hook: ${String(error)}\n`);
  })
  .finally(() => { process.exitCode = 0; });
