// Why a job failed, in one sentence a person can act on (RUNFAIL-1..3), from what the agent CLI
// printed: Claude Code's own words (recorded from the real CLI, e.g. "Not logged in · Please run
// /login") and OpenCode's JSON error (its adapter writes `run: opencode: {…}` to stderr). The raw
// output stays beside it as the details.
import { isKnownAgent, KNOWN_AGENTS, machineName, notInstalledSentence, notLoggedInSentence } from '../../adapters/lib/readiness';
import { JOB_DETAILS_MAX as DETAILS_MAX, JOB_REASON_MAX } from '../../protocol/wire/job-failure';
import type { AdapterRunResult } from './adapter-run';

export interface JobFailure {
  /** One sentence: what went wrong and what to do. */
  reason: string;
  /** The CLI's raw output (its last DETAILS_MAX characters). */
  details: string;
}

// What Claude Code prints when it cannot authenticate (as the result text and the assistant's
// text, `"error":"authentication_failed"`); seen from 2.1.x with an empty HOME and no key.
const CLAUDE_AUTH = /(Not logged in|Invalid API key|OAuth token (has )?(expired|revoked)|authentication_failed)[^\n]*/i;
const SPAWN_MISSING = /(cannot start|spawn) \S+.*ENOENT/;
const OPENCODE_ERROR = /^run: opencode: (\{.*\})\s*$/m;

/** The one-line reason and the details of a failed run of `agent` (the adapter's name). */
export function explainFailure(agent: string, result: AdapterRunResult, output: string, machine: string = machineName()): JobFailure {
  const details = output.length > DETAILS_MAX ? output.slice(-DETAILS_MAX) : output;
  return { reason: reasonOf(agent, result, output, machine).slice(0, JOB_REASON_MAX), details };
}

function reasonOf(agent: string, result: AdapterRunResult, output: string, machine: string): string {
  const name = isKnownAgent(agent) ? KNOWN_AGENTS[agent] : `The agent (${agent})`;
  if (result.stopped) return 'stopped by the relay'; // not a failure to explain: a person or the relay's shutdown ended it
  if (result.spawnError) return `${name} could not be started on ${machine}: ${result.spawnError.message}.`;
  if (isKnownAgent(agent) && SPAWN_MISSING.test(output)) return notInstalledSentence(agent, machine);
  if (agent === 'claude' && CLAUDE_AUTH.test(output)) return notLoggedInSentence(machine);
  if (agent === 'opencode') {
    const said = opencodeError(output);
    if (said) return said;
  }
  if (result.signal) return `${name} was killed by ${result.signal} on ${machine}.`;
  const last = lastLine(output);
  return `${name} exited with status ${result.code}${last ? `: ${last}` : ''}.`;
}

/** OpenCode's error object (`{name, data:{message, statusCode, providerID}}`) as a sentence; undefined when there is none. */
export function opencodeError(output: string): string | undefined {
  const m = OPENCODE_ERROR.exec(output);
  if (!m) return undefined;
  let error: { name?: unknown; data?: { message?: unknown; statusCode?: unknown; providerID?: unknown } };
  try {
    error = JSON.parse(m[1]!) as typeof error;
  } catch {
    return undefined;
  }
  const data = error.data ?? {};
  const message = typeof data.message === 'string' ? clip(data.message) : typeof error.name === 'string' ? error.name : 'an error';
  const provider = typeof data.providerID === 'string' ? ` (${data.providerID})` : '';
  if (data.statusCode === 401 || data.statusCode === 403) {
    return `OpenCode could not sign in to its model provider${provider}: ${message}. Run \`opencode auth login\` there, or set the provider’s API key.`;
  }
  return `OpenCode’s model provider${provider} answered with an error: ${message}.`;
}

function lastLine(output: string): string {
  const lines = output.split('\n').map((l) => l.trim()).filter((l) => l && !/^SESSION:/.test(l));
  return clip(lines.at(-1) ?? '');
}

const clip = (text: string): string => {
  const one = text.replace(/\s+/g, ' ').trim().replace(/[.;:]+$/, '');
  return one.length > 200 ? `${one.slice(0, 199)}…` : one;
};
