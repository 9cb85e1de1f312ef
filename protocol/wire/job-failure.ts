// What a failed job says about itself on the wire (RUNFAIL-1, RUNFAIL-2): one sentence a person can
// act on, and the agent CLI's raw output for a "Details" disclosure. Spread into `job.state`.
import * as z from 'zod/mini';

export const JOB_REASON_MAX = 600;
export const JOB_DETAILS_MAX = 4000;

export const JobFailureFields = {
  /** Set on a failed job: why, in one sentence, with what to do. */
  reason: z.optional(z.string().check(z.maxLength(JOB_REASON_MAX))),
  /** Set on a failed job: the last of the CLI's raw output. */
  details: z.optional(z.string().check(z.maxLength(JOB_DETAILS_MAX))),
};
