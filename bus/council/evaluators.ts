// The two ways a dimension is evaluated: the COUNCIL_EVALUATOR_CMD seam (a local
// command, no network) or the built-in Anthropic model call. Both always yield a
// vote; every failure is an ABSTAIN whose reason says what happened (COUNCIL-4, -5).
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { CouncilDimension, Vote } from '../../protocol/bus/verdict';
import { abstain, oneLine, parseVote } from './vote';

export interface EvaluationInput {
  dimension: CouncilDimension;
  promptFile: string;
  prompt: string;
}
export type Evaluator = (input: EvaluationInput) => Promise<Vote>;

export type CouncilEnv = Record<string, string | undefined>;

export const DEFAULT_TIMEOUT_MS = 120_000;
export const DEFAULT_MODEL = 'claude-haiku-4-5';
const MAX_STDOUT_BYTES = 1 << 20;

export function timeoutFrom(env: CouncilEnv): number {
  const raw = env.COUNCIL_TIMEOUT_MS?.trim();
  const ms = raw ? Number(raw) : NaN;
  return Number.isInteger(ms) && ms > 0 ? ms : DEFAULT_TIMEOUT_MS;
}

/** With the seam set and not blank, it is the only evaluator: no network, no harness CLI. */
export function chooseEvaluator(env: CouncilEnv): Evaluator {
  const seam = env.COUNCIL_EVALUATOR_CMD;
  if (seam !== undefined && seam.trim() !== '') return seamEvaluator(seam, timeoutFrom(env), env);
  return modelEvaluator(env, timeoutFrom(env));
}

/**
 * `$COUNCIL_EVALUATOR_CMD` is word-split like an unquoted shell variable (so
 * `node eval.js` works) unless the whole value names an existing file; no shell
 * ever sees the prompt or the command.
 */
export function seamArgv(seam: string): string[] {
  const whole = seam.trim();
  return existsSync(whole) ? [whole] : whole.split(/\s+/);
}

export function seamEvaluator(seam: string, timeoutMs: number, env: CouncilEnv): Evaluator {
  const [command, ...preset] = seamArgv(seam);
  return ({ dimension, promptFile }) => new Promise<Vote>((resolve) => {
    const child = spawn(command, [...preset, promptFile, dimension], {
      env: env as NodeJS.ProcessEnv, stdio: ['ignore', 'pipe', 'ignore'], detached: process.platform !== 'win32',
    });
    let out = '';
    let settled = false;
    const finish = (vote: Vote) => { if (!settled) { settled = true; clearTimeout(timer); resolve(vote); } };
    // The evaluator may have children holding stdout open; kill the whole group and stop waiting.
    const timer = setTimeout(() => { killGroup(child.pid); finish(abstain(dimension, `timeout after ${timeoutMs} ms`)); }, timeoutMs);
    child.stdout.on('data', (chunk: Buffer) => { if (out.length < MAX_STDOUT_BYTES) out += chunk.toString('utf8'); });
    child.on('error', (error) => finish(abstain(dimension, `evaluator did not start: ${error.message}`)));
    child.on('close', (code, signal) => {
      if (code !== 0) { finish(abstain(dimension, signal ? `evaluator killed by ${signal}` : `evaluator exit ${code}`)); return; }
      const parsed = parseVote(out);
      finish(parsed ? { dimension, ...parsed } : abstain(dimension, 'no VOTE line in evaluator output'));
    });
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try { process.kill(process.platform === 'win32' ? pid : -pid, 'SIGKILL'); } catch { /* already gone */ }
}

const SYSTEM = 'You are one member of a three-member code review council. Answer in plain text. ' +
  'Your answer must contain one line exactly `VOTE: PASS` or `VOTE: FAIL`, followed by one line `REASON: <one sentence>`.';

/** The built-in evaluator: one Messages API call, no retries, bounded by the timeout. */
export function modelEvaluator(env: CouncilEnv, timeoutMs: number): Evaluator {
  const apiKey = env.ANTHROPIC_API_KEY?.trim();
  if (!apiKey) return async ({ dimension }) => abstain(dimension, 'no ANTHROPIC_API_KEY');
  const model = env.COUNCIL_MODEL?.trim() || DEFAULT_MODEL;
  let client: AnthropicClient | undefined;
  return async ({ dimension, prompt }) => {
    try {
      client ??= createClient(apiKey, env.ANTHROPIC_BASE_URL?.trim() || undefined, timeoutMs);
      const message = await client.messages.create({ model, max_tokens: 400, system: SYSTEM, messages: [{ role: 'user', content: prompt }] });
      const text = message.content.filter((b) => b.type === 'text').map((b) => (b as { text: string }).text).join('\n');
      const parsed = parseVote(text, true);
      return parsed ? { dimension, ...parsed } : abstain(dimension, 'no VOTE line in model reply');
    } catch (error) {
      return abstain(dimension, describeApiError(error, timeoutMs));
    }
  };
}

type AnthropicClient = import('@anthropic-ai/sdk').default;

/** Loaded on first use only, so a council with the seam (and every other tool) never pays for the SDK. */
function createClient(apiKey: string, baseURL: string | undefined, timeoutMs: number): AnthropicClient {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const sdk = require('@anthropic-ai/sdk') as typeof import('@anthropic-ai/sdk');
  // logLevel off: a library never prints; every failure comes back as an ABSTAIN reason.
  return new sdk.Anthropic({ apiKey, baseURL, maxRetries: 0, timeout: timeoutMs, logLevel: 'off' });
}

export function describeApiError(error: unknown, timeoutMs: number): string {
  const e = error as { name?: string; status?: number; error?: { error?: { type?: string; message?: string } }; message?: string };
  if (e?.name === 'APIConnectionTimeoutError') return `model call timeout after ${timeoutMs} ms`;
  if (typeof e?.status === 'number') {
    const detail = e.error?.error;
    return oneLine(`API error ${e.status}${detail?.type ? ` ${detail.type}` : ''}: ${detail?.message ?? e.message ?? ''}`);
  }
  return oneLine(`model call failed: ${e?.message ?? String(error)}`);
}
