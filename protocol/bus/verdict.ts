// `council/<id>.json` (COUNCIL-n): this implementation writes exactly task,
// verdict, ts, votes[3]; readers accept any file with a PASS/FAIL verdict (INTEROP-2).
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

/**
 * What a reader needs from a council file written by any tool of the contract:
 * an object whose `verdict` is PASS or FAIL. Everything else (votes of another
 * count or shape, extra keys, nulls, no ts) is tolerated and ignored.
 */
export const ForeignVerdict = z.looseObject({ verdict: z.enum(['PASS', 'FAIL']) });
export type ForeignVerdict = z.infer<typeof ForeignVerdict>;

/** Parses a council file's text as a reader must (BOM and CRLF tolerated); undefined when it carries no verdict. */
export function verdictOfFileText(text: string): 'PASS' | 'FAIL' | undefined {
  let value: unknown;
  try {
    value = JSON.parse(text.replace(/^\uFEFF/, ''));
  } catch {
    return undefined;
  }
  const checked = ForeignVerdict.safeParse(value);
  return checked.success ? checked.data.verdict : undefined;
}

/** `council --diff` prints exactly this object. */
export const DiffModeVerdict = z.strictObject({
  mode: z.literal('diff'),
  verdict: z.enum(['PASS', 'FAIL']),
  votes: z.array(Vote).check(z.length(3)),
});
export type DiffModeVerdict = z.infer<typeof DiffModeVerdict>;
