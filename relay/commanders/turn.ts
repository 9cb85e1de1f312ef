// One turn of a commander (CMDR-TURN-n): launch the adapter's `run` in the
// commander's directory (resuming its session when there is one), stream and log
// the output, record the session id when it arrives, then settle the status.
import * as fs from 'node:fs';
import * as path from 'node:path';
import type { CommanderRecord } from '../../protocol/commander';
import { startAdapterRun, type AdapterRun } from '../jobs/adapter-run';
import { explainFailure } from '../jobs/failure';
import type { SandboxSpec } from '../../adapters/sandbox';
import type { OutputBuffer, OutputChunk } from './output';
import { turnOutcome } from './outcome';
import { noticeLine, saidLine } from '../../protocol/commander-transcript';
import type { CommanderStore } from './store';

export interface AgentAdapter {
  name: string;
  /** Absolute path of the adapter's `run` executable. */
  run: string;
  /** 'local': the person's own adapter; its CLI is not checked for readiness (RUNREADY-3). */
  source?: 'local' | 'shipped';
}

/** The per-commander state a turn reads and updates. */
export interface TurnRuntime {
  record: CommanderRecord;
  current: AdapterRun | null;
  /** Bumped by replace/delete: a turn from an older generation changes nothing. */
  generation: number;
  output: OutputBuffer;
}

export interface TurnInput {
  prompt: string;
  /** The person's message this turn answers, added to the conversation as its turn starts (CMDR-MSG-1). */
  said?: string;
  resume: string | null;
  store: CommanderStore;
  adapter: AgentAdapter;
  env: Record<string, string | undefined>;
  /** SANDBOX-n: where the turn runs; absent only when the relay runs agents unsandboxed. */
  sandbox?: SandboxSpec;
  /** The turn is over (its credential is revoked here, JOBTOKEN-1). */
  onEnd?: () => void;
  /** The commander's very first turn (CMDRFAIL-2). */
  first?: boolean;
}

export interface TurnCallbacks {
  save: () => void;
  output: (chunk: OutputChunk) => void;
  finished: (waiting: boolean) => void;
}

const KEEP_STDOUT = 16 * 1024;

export async function runTurn(rt: TurnRuntime, input: TurnInput, cb: TurnCallbacks): Promise<void> {
  const generation = rt.generation;
  const id = rt.record.id;
  const dir = input.store.dir(id);
  const live = () => rt.generation === generation;
  rt.record = { ...rt.record, status: input.resume === null ? 'starting' : 'running', waitingFor: null };
  cb.save();
  if (input.said !== undefined) cb.output(rt.output.append(rt.record.session, saidLine(input.said)));
  let stdout = '';
  const run = startAdapterRun({
    run: input.adapter.run,
    cwd: dir,
    sandbox: input.sandbox,
    env: {
      ...input.env, AGENT_PROMPT: input.prompt, AGENT_MODE: 'work', AGENT_COMMANDS: input.env.AGENT_COMMANDS ?? '', AGENT_CWD: dir,
      // A commander edits only its own directory and its reference paths (GUARD-8).
      AGENT_EDIT_ROOTS: rt.record.referencePaths.join(path.delimiter),
      ...(input.resume === null ? {} : { AGENT_RESUME: input.resume }),
    },
    onSession: (session) => {
      if (!live()) return;
      if (rt.record.session !== session) input.store.appendSpawned(id, session);
      rt.record = { ...rt.record, session, status: 'running' };
      cb.save();
    },
    onStdout: (chunk) => {
      if (!live()) return;
      stdout = (stdout + chunk).slice(-KEEP_STDOUT);
      cb.output(rt.output.appendAgent(rt.record.session, chunk));
    },
  });
  rt.current = run;
  const pidFile = input.store.pidFile(id);
  if (run.pid !== undefined) fs.writeFileSync(pidFile, `${run.pid}\n`, { mode: 0o600 });
  const result = await run.done;
  input.onEnd?.();
  if (rt.current === run) rt.current = null;
  removePidFile(pidFile, run.pid);
  if (!live()) return;
  const outcome = turnOutcome(result, stdout, rt.record.session);
  if (outcome.status === 'dead') {
    cb.output(rt.output.append(rt.record.session, noticeLine(`session ended (${outcome.reason}); this commander needs a new session.`)));
    rt.record = { ...rt.record, status: 'dead', waitingFor: null };
    // CMDRFAIL-1: a start (a first or a new session) that fails says why in one sentence, the CLI's output beside it.
    if (input.resume === null) {
      const { reason, details } = explainFailure(input.adapter.name, result, [stdout, result.stderrTail].filter((s) => s.trim()).join('\n'));
      rt.record = { ...rt.record, failure: { reason, details, ...(input.first ? { first: true } : {}) } };
    }
  } else {
    const { failure: _failed, firstMessage: _first, ...rest } = rt.record; // a turn that worked forgets the failed start
    rt.record = { ...rest, status: outcome.status, waitingFor: outcome.status === 'waiting' ? outcome.waitingFor : null };
  }
  cb.save();
  cb.finished(outcome.status === 'waiting');
}

/** Removes the pid file if it still names this run (a newer turn may own it already). */
function removePidFile(file: string, pid: number | undefined): void {
  try {
    if (pid !== undefined && fs.readFileSync(file, 'utf8').trim() === String(pid)) fs.rmSync(file, { force: true });
  } catch {
    // already gone
  }
}

/** The person's turn as the conversation shows it (CHAT-1); the line format is declared in protocol/. */
export { saidLine } from '../../protocol/commander-transcript';
