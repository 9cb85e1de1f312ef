// `council/<id>.json` (COUNCIL-n): exactly task, verdict, ts, votes[3].
import * as z from 'zod/mini';
import { IsoTime, TaskId } from './ids';

export const COUNCIL_DIMENSIONS = ['acceptance-criteria', 'code-quality', 'style'] as const;
export const CouncilDimension = z.enum(COUNCIL_DIMENSIONS);
export type CouncilDimension = z.infer<typeof CouncilDimension>;

export const Vote = z.strictObject({
  dimension: CouncilDimension,
  vote: z.enum(['PASS', 'FAIL', 'ABSTAIN']),
  reason: z.string(),
});
export type Vote = z.infer<typeof Vote>;

export const Verdict = z.strictObject({
  task: TaskId,
  verdict: z.enum(['PASS', 'FAIL']),
  ts: IsoTime,
  votes: z.array(Vote).check(z.length(3)),
});
export type Verdict = z.infer<typeof Verdict>;

/** `council --diff` prints exactly this object. */
export const DiffModeVerdict = z.strictObject({
  mode: z.literal('diff'),
  verdict: z.enum(['PASS', 'FAIL']),
  votes: z.array(Vote).check(z.length(3)),
});
export type DiffModeVerdict = z.infer<typeof DiffModeVerdict>;
