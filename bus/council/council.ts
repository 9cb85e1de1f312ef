// The council run (COUNCIL-n): three dimensions judged in parallel, a majority
// verdict written atomically to `council/<id>.json`, then one `council_verdict`
// event. Advisory only: it never touches approval tokens and never blocks the gate.
import * as fs from 'node:fs';
import * as path from 'node:path';
import { COUNCIL_DIMENSIONS, type DiffModeVerdict, type Verdict, type Vote } from '../../protocol/bus/verdict';
import { gitBytes } from '../digest';
import { taskDiff } from '../diff';
import { BusError } from '../errors';
import { writeFileAtomic } from '../fs-atomic';
import { appendEvent } from '../event-log';
import { ensureBusDir } from '../inside';
import { assertBus, verdictPath } from '../layout';
import { parsePacket } from '../packet';
import { chooseEvaluator, type CouncilEnv, type Evaluator } from './evaluators';
import { buildPrompt, promptFiles, type PromptSource } from './prompt';
import { abstain, abstentions, tally } from './vote';

export interface CouncilResult {
  verdict: Verdict;
  /** Absolute path of the verdict file written. */
  file: string;
}

/** The bus of a packet in `claimed/` or `done/`: the parent of the packet's directory. */
export function busOfPacket(packetPath: string): string {
  const full = path.resolve(packetPath);
  let stat: fs.Stats;
  try { stat = fs.statSync(full); } catch {
    throw new BusError('E_NOT_FOUND', `packet ${full} does not exist`);
  }
  const state = path.basename(path.dirname(full));
  if (!stat.isFile() || !full.endsWith('.md') || (state !== 'claimed' && state !== 'done')) {
    throw new BusError('E_BAD_PATH', `${full} is not a packet in a bus's claimed/ or done/ directory`);
  }
  const bus = path.dirname(path.dirname(full));
  if (path.basename(bus) !== '.agents') throw new BusError('E_NO_BUS', `${full} is not under a .agents/ bus`);
  assertBus(bus);
  return bus;
}

/** In-process council over a packet; the relay calls this, `cli/council.ts` wraps it. */
export async function runCouncil(packetPath: string, env: CouncilEnv = process.env): Promise<CouncilResult> {
  const bus = busOfPacket(packetPath);
  const packet = fs.readFileSync(path.resolve(packetPath), 'utf8');
  const parsed = await parsePacket(packet);
  if (!parsed.ok) throw new BusError('E_BAD_PACKET', `packet ${path.resolve(packetPath)}: ${parsed.reason}`);
  const task = parsed.front.id;
  const diff = await taskDiff(bus, task);
  const patch = Buffer.isBuffer(diff.patch) ? diff.patch.toString('utf8') : diff.patch;
  const votes = await judge({ packet, diff: patch, noDiffNote: diff.source === 'none' ? 'no diff found for this task' : 'the diff is empty' }, env);
  const verdict: Verdict = { task, verdict: tally(votes), ts: new Date().toISOString(), votes };
  const file = verdictPath(bus, task);
  // `council/` may be a symlink a cloned repo tracks: it must resolve inside the bus (ID-SAFE-4).
  ensureBusDir(bus, path.dirname(file));
  // One line of compact JSON, like every other bus record (INTEROP-1).
  writeFileAtomic(file, JSON.stringify(verdict) + '\n');
  appendEvent(bus, { event: 'council_verdict', task, verdict: verdict.verdict, evaluator_count: votes.length, abstentions: abstentions(votes) });
  return { verdict, file };
}

/** Diff mode: no bus, no file, no event. An empty diff asks no evaluator. */
export async function runDiffCouncil(diff: string, env: CouncilEnv = process.env): Promise<DiffModeVerdict> {
  const votes = diff.trim() === ''
    ? COUNCIL_DIMENSIONS.map((d) => abstain(d, 'empty diff'))
    : await judge({ diff }, env);
  return { mode: 'diff', verdict: tally(votes), votes };
}

/** `git diff <args…>` in `cwd`, no shell; git's refusal (bad revision, bad path) is an E_GIT error. */
export async function gitDiffText(args: readonly string[], cwd: string = process.cwd()): Promise<string> {
  const out = await gitBytes(cwd, ['diff', '--no-color', '--no-ext-diff', ...args]);
  return out.toString('utf8');
}

async function judge(source: PromptSource, env: CouncilEnv, evaluator: Evaluator = chooseEvaluator(env)): Promise<Vote[]> {
  const files = promptFiles();
  try {
    return await Promise.all(COUNCIL_DIMENSIONS.map(async (dimension) => {
      const prompt = buildPrompt(dimension, source);
      const promptFile = files.write(dimension, prompt);
      try {
        return await evaluator({ dimension, prompt, promptFile });
      } catch (error) {
        return abstain(dimension, `evaluator failed: ${error instanceof Error ? error.message : String(error)}`);
      }
    }));
  } finally {
    files.dispose();
  }
}
