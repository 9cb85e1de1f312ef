// What a finished turn means for its commander (CMDR-WAIT-n, CMDR-DEAD-n): waiting
// on the person (a `NOT READY:` line, or a last line that asks a question), idle,
// or dead — the session can no longer be resumed and needs replacing.
import type { AdapterRunResult } from '../jobs/adapter-run';
import { failureReason } from '../jobs/adapter-run';

export type TurnOutcome =
  | { status: 'idle' }
  | { status: 'waiting'; waitingFor: string }
  | { status: 'dead'; reason: string };

const NOT_READY = /^NOT READY:\s*(.*)$/;
const SESSION = /^SESSION:\s/;

/** The waiting reason from a turn's stdout, or null when it does not wait on the person. */
export function waitingReason(stdout: string): string | null {
  const lines = stdout.split('\n').map((l) => l.trim()).filter((l) => l.length > 0 && !SESSION.test(l));
  const last = lines.at(-1);
  if (last === undefined) return null;
  const notReady = NOT_READY.exec(last);
  if (notReady) return notReady[1]!.trim() || 'not ready';
  if (last.endsWith('?')) return last.slice(-500);
  return null;
}

export function turnOutcome(result: AdapterRunResult, stdout: string, session: string | null): TurnOutcome {
  if (result.spawnError || result.signal !== null || result.code !== 0) return { status: 'dead', reason: failureReason(result) };
  if (session === null) return { status: 'dead', reason: 'the adapter never reported a session id' };
  const waitingFor = waitingReason(stdout);
  return waitingFor === null ? { status: 'idle' } : { status: 'waiting', waitingFor };
}
