// The node side of the OpenCode plugin: `hook <event>` with the event's JSON on stdin (HOOK-6;
// a plugin wired before that passes it as the one argument after the event, `hook <event> <json>`,
// which past 128 KiB cannot be passed at all). Events: idle, end, tool-start, tool-end, prompt
// (prints {block, files, warning}), consumed. Always exits 0; stdin over MAX_PAYLOAD_BYTES is not read.
//
// `hook batch` takes `{after, events: [[event, data], ...]}`: the live events of one plugin
// process in the order they happened (LIVE-DELIVER-1). It waits for the `after` processes
// (an earlier batch still running when OpenCode exited), queues every event in order (an event
// it cannot queue, it posts itself first), says `queued` on stdout (the plugin starts the next
// batch then), and only then posts the queued ones.
import * as fs from 'node:fs';
import { readPayload } from '../../lib/hook-io';
import { closeUnfinished, nowSeq, onSessionEnd, onToolEnd, onToolStart, onTurnEnd, type SessionRef } from '../../lib/hook-actions';
import { LiveOutbox } from '../../lib/live-queue';
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

/**
 * One event. Its live events go to `out`. `chained`: it is part of a batch, so every event the
 * plugin fired before it has already been queued (its turn end sweeps at once, its end waits for nobody).
 */
async function handle(event: string, data: Data, out: LiveOutbox, chained = false): Promise<void> {
  const session = str(data.session);
  const cwd = str(data.cwd);
  if (!session || !cwd) return;
  const ref: SessionRef = { session, cwd };
  const env = process.env;
  const call = { tool: str(data.tool) ?? 'unknown', input: obj(data.args) };
  // When the plugin saw it happen (ORDER-2), not when this detached process got to run.
  const seq = typeof data.at === 'number' && Number.isSafeInteger(data.at) && data.at >= 0 ? data.at : nowSeq();
  switch (event) {
    case 'idle':
      onTurnEnd(ref, env, out, seq);
      // One process an event (a plugin wired before batches): the turn's end shows before the wait for end hooks still running.
      if (!chained) await out.drain();
      return closeUnfinished(ref, env, out, chained ? 0 : undefined);
    case 'end':
      await untilGone(pidsOf(data.after), END_WAIT_MS);
      return onSessionEnd(ref, env, out, seq);
    case 'tool-start': return onToolStart(ref, call, env, out, str(data.call), seq);
    case 'tool-end': {
      const exit = typeof data.exit === 'number' && Number.isInteger(data.exit) ? data.exit : undefined;
      return onToolEnd(ref, call, { output: str(data.output), exit }, env, out, str(data.call), seq);
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

const LIVE = new Set(['idle', 'end', 'tool-start', 'tool-end']);

/** `hook batch`: the events in order, `queued` on stdout once all are in the outbox, then the posting. */
async function batch(data: Data, out: LiveOutbox): Promise<void> {
  await untilGone(pidsOf(data.after), END_WAIT_MS);
  const events: unknown[] = Array.isArray(data.events) ? data.events : []; // bounded by the payload's 4 MiB
  for (const item of events) {
    if (!Array.isArray(item) || typeof item[0] !== 'string' || !LIVE.has(item[0])) continue;
    const fields = obj(item[1]);
    try {
      await handle(item[0], fields, out, true);
    } catch (error) {
      if (process.env.COMMANDR_HOOK_DEBUG) process.stderr.write(`commandr hook: ${item[0]}: ${String(error)}\n`);
    }
  }
  // An event that could not be queued (a sandboxed job's hook cannot write the home) keeps its
  // place only if this process has posted it before the next batch starts.
  if (!out.inOrder) await out.drain();
  try {
    fs.writeSync(1, 'queued\n');
  } catch { /* the plugin's process is gone: nobody waits for the word */ }
}

const data = eventData();
const out = new LiveOutbox();
const name = process.argv[2];
Promise.resolve()
  .then(() => (!data || !name ? undefined : name === 'batch' ? batch(data, out) : handle(name, data, out)))
  .catch((error: unknown) => {
    if (process.env.COMMANDR_HOOK_DEBUG) process.stderr.write(`commandr hook: ${String(error)}\n`);
  })
  .then(() => out.drain())
  .finally(() => { process.exitCode = 0; });
