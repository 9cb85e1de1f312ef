// Leases on `refs/tasks/<id>` (LEASE-n): what a lease commit's message records,
// the local record of a lease this machine holds, and a row of `commandr claims`.
import * as z from 'zod/mini';
import { IsoTime, TaskId } from './ids';

/** What a commit on `refs/tasks/<id>` says happened: a first claim, a renewal, a takeover, a give-back, the end. */
export const LeaseKind = z.enum(['claim', 'renew', 'reclaim', 'release', 'done']);
export type LeaseKind = z.infer<typeof LeaseKind>;

/** Longest lease accepted (30 days): a typo of extra zeros must not strand a task for years. */
export const MAX_LEASE_SECONDS = 30 * 24 * 3600;
export const DEFAULT_LEASE_SECONDS = 1800;

export const LeaseSeconds = z.int().check(z.minimum(1), z.maximum(MAX_LEASE_SECONDS));

/** `key: value` lines of a lease commit's message body (after `<kind> <task>` and a blank line). */
export const LeaseCommit = z.object({
  kind: LeaseKind,
  task: TaskId,
  /** `{host}_{pid}` of the claim, as in claimed file names. */
  claimant: z.string().check(z.regex(/^[^\s_]+_[0-9]+$/)),
  machine: z.string().check(z.minLength(1)),
  /** Random per tenure: a claim and its renewals share it, a takeover starts a new one. */
  lease_id: z.string().check(z.regex(/^[0-9a-f]{16}$/)),
  lease_seconds: LeaseSeconds,
  /** The claimant's clock at which the lease lapses unless renewed. */
  lease_until: IsoTime,
  /** When this commit was made. */
  time: IsoTime,
  /** When this tenure began (its claim or takeover); renewals carry it forward. */
  since: IsoTime,
  /** `reclaim` only: the claimant whose lapsed lease was taken over. */
  previous: z.optional(z.string()),
});
export type LeaseCommit = z.infer<typeof LeaseCommit>;

/** This machine's note of a lease it holds: `<git common dir>/commandr/leases/<task>.json` (never on the bus). */
export const LeaseRecord = z.strictObject({
  task: TaskId,
  remote: z.string().check(z.minLength(1)),
  claimant: z.string(),
  machine: z.string(),
  lease_id: z.string().check(z.regex(/^[0-9a-f]{16}$/)),
  lease_seconds: LeaseSeconds,
  since: IsoTime,
  /** The newest lease commit this machine pushed. */
  tip: z.string().check(z.regex(/^[0-9a-f]{40,64}$/)),
});
export type LeaseRecord = z.infer<typeof LeaseRecord>;

/**
 * How a task ref stands now: `live` (held), `lapsed` (free to take over),
 * `released` (given back: free), `done` (completed: never taken),
 * `unleased` (a claim from a tool without leases: never taken automatically).
 */
export const LeaseState = z.enum(['live', 'lapsed', 'released', 'done', 'unleased']);
export type LeaseState = z.infer<typeof LeaseState>;

/** One row of `commandr claims <remote> --json`. */
export const ClaimRow = z.strictObject({
  task: TaskId,
  owner: z.nullable(z.string()),
  machine: z.nullable(z.string()),
  state: LeaseState,
  /** When the current holder's tenure began (its claim or takeover), or the tip's commit time. */
  since: IsoTime,
  age_seconds: z.int(),
  lease_until: z.nullable(IsoTime),
  tip: z.string(),
});
export type ClaimRow = z.infer<typeof ClaimRow>;
